import { FormProvider, getFormProps, type SubmissionResult } from "@conform-to/react";
import { Form, Link, useActionData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { replySchema, type ServiceDetail } from "#contract/services.ts";
import { Field, nodeLabel } from "#app/components/details.tsx";
import { Table, td } from "#app/components/Table.tsx";
import { TextAreaField } from "#app/components/forms.tsx";
import { FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { formatDate, zoneHeader, formatDay, formatUsd } from "#app/lib/format.ts";
import { formatBytes } from "#app/lib/format-number.ts";
import type { Language } from "#app/lib/i18n.ts";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";
import { StatusBadge } from "./badges.tsx";
import { detailHref, serviceCaHref } from "#app/lib/services-urls.ts";
import { ServiceChainPanel } from "./ServiceChain.tsx";
import { UpgradeTable } from "#app/components/configuration/upgrades.tsx";
import { CrossChainTab, type CrossDetail } from "#app/components/cross-chain/state.tsx";

/** SPEC §2 the tabs of a publisher's service detail (PublishedServices/ServicesDetail), as `activeNames`. */
export const TABS = ["chaincode", "roles", "approvals", "runInfo", "crossChain", "comments", "history"] as const;
export type Tab = (typeof TABS)[number];

/** The tab named by `activeNames`; the chaincode tab when it names none. */
export function tabOf(activeNames: string | null): Tab {
  return (TABS as readonly string[]).includes(activeNames ?? "") ? (activeNames as Tab) : "chaincode";
}

/** What the detail's action answers for a refused reply: the comment it was about and Conform's reply. */
export type ReplyActionData = { kind: "reply"; commentId: number; result: SubmissionResult<string[]> };

/** The tabs as plain links (`activeNames`) and the chosen one's content. */
export function ServiceTabs({
  service,
  tab,
  origin,
  language,
  crossChain = null,
}: {
  service: ServiceDetail;
  tab: Tab;
  origin: string;
  language: Language;
  crossChain?: CrossDetail | null;
}) {
  const { t } = useTranslation("services");
  return (
    <>
      <nav aria-label={t("detail.tabsLabel")} className="flex flex-wrap gap-1 border-b border-slate-200">
        {TABS.map((name) => (
          <Link
            key={name}
            to={detailHref(service, name)}
            aria-current={tab === name ? "page" : undefined}
            className={`rounded-t-md px-3 py-2 text-sm ${tab === name ? "border-b-2 border-brand-600 font-semibold text-brand-700" : "text-slate-600 hover:bg-slate-100"}`}
          >
            {t(`detail.tabs.${name}`)}
          </Link>
        ))}
      </nav>
      <TabBody service={service} tab={tab} origin={origin} language={language} crossChain={crossChain} />
    </>
  );
}

/** The publisher's reply to one comment. */
function ReplyForm({ appId, commentId }: { appId: number; commentId: number }) {
  const { t } = useTranslation("services");
  const actionData = useActionData<ReplyActionData | object>();
  const mine =
    actionData && "kind" in actionData && actionData.kind === "reply" && actionData.commentId === commentId
      ? actionData.result
      : undefined;
  const [form, fields] = useSchemaForm(replySchema, mine, { id: `reply-${commentId}` });
  return (
    <FormProvider context={form.context}>
      <Form method="post" {...getFormProps(form)} className="mt-2 space-y-2">
        <FormErrors id={form.errorId} errors={form.errors} />
        <input type="hidden" name="appId" value={appId} />
        <input type="hidden" name="commentId" value={commentId} />
        <TextAreaField field={fields.reply} label={t("detail.reply")} rows={2} />
        <SubmitButton intent="reply" className="btn-secondary">
          {t("detail.replyButton")}
        </SubmitButton>
      </Form>
    </FormProvider>
  );
}

function TabBody({
  service,
  tab,
  origin,
  language,
  crossChain,
}: {
  service: ServiceDetail;
  tab: Tab;
  origin: string;
  language: Language;
  crossChain: CrossDetail | null;
}) {
  const { t } = useTranslation("services");
  const c = service.contents;
  const date = (v: string | null) => (v ? formatDate(v, language, true) : t("detail.none"));
  /** In a table the column header names the time zone once. */
  const cellDate = (v: string | null) => (v ? formatDate(v, language, true, false) : t("detail.none"));
  const nodeName = (n: { name: string; nameZh: string }) => nodeLabel(n, language);
  switch (tab) {
    case "chaincode":
      return (
        <div className="space-y-4">
          <h2 className="font-semibold">{t("detail.packages")}</h2>
          {c.packages.length === 0 ? (
            <p className="text-sm text-slate-500">{t("detail.noPackages")}</p>
          ) : (
            <Table
              label={t("detail.packages")}
              head={[
                t("detail.packageName"),
                t("detail.packageVersion"),
                t("detail.language"),
                t("detail.mainPath"),
                t("detail.initParams"),
                t("detail.file"),
              ]}
            >
              {c.packages.map((p) => (
                <tr key={p.packageId}>
                  <td className={td}>{p.name}</td>
                  <td className={td}>{p.version}</td>
                  <td className={td}>{t(`languages.${p.language}`, { defaultValue: p.language })}</td>
                  <td className={`${td} font-mono text-xs`}>{p.mainPath}</td>
                  <td className={td}>{p.initParams}</td>
                  <td className={td}>
                    {p.fileName} ({Math.ceil(p.size / 1024)} KB)
                  </td>
                </tr>
              ))}
            </Table>
          )}
          <h2 className="font-semibold">{t("detail.functions")}</h2>
          <Table
            label={t("detail.functions")}
            head={[
              t("detail.functionName"),
              t("detail.packageName"),
              t("detail.func"),
              t("detail.funcType"),
              t("detail.parent"),
              t("detail.crossAllowed"),
              t("detail.io"),
            ]}
          >
            {c.functions.map((f) => (
              <tr key={f.functionId}>
                <td className={td}>{f.name}</td>
                <td className={td}>{f.packageName}</td>
                <td className={`${td} font-mono text-xs`}>{f.func}</td>
                <td className={td}>{t(`detail.funcTypes.${f.funcType}`)}</td>
                <td className={td}>{f.parentName ?? t("detail.top")}</td>
                <td className={td}>{f.crossChainAllowed ? "✓" : "—"}</td>
                <td className={`${td} font-mono text-xs`}>
                  {f.inputFormat} → {f.outputFormat}
                </td>
              </tr>
            ))}
          </Table>
          <h2 className="font-semibold">{t("detail.deployment")}</h2>
          {/* Each city node of the service (docs/decisions/052): no address here, the contracts are in the chain's box. */}
          <Table
            label={t("detail.deployment")}
            head={[
              t("detail.node"),
              t("detail.tps"),
              t("detail.capacity"),
              t("detail.height"),
              t("detail.endpoint"),
              t("detail.nodeStatus"),
            ]}
            regionTestId="deployment"
          >
            {service.deployment.map((n) => {
              const booked = c.nodes.find((b) => b.cityNodeId === n.cityNodeId);
              return (
                <tr key={n.cityNodeId} data-node={n.code}>
                  <td className={td}>{nodeName(n)}</td>
                  <td className={td}>{booked?.tps ?? ""}</td>
                  <td className={td}>{booked?.capacityGb ?? ""}</td>
                  <td className={td}>{n.height ?? "—"}</td>
                  <td className={`${td} break-all font-mono text-xs`}>
                    {n.endpoint ?? <span className="font-sans text-slate-500">{t("detail.endpointNotAvailable")}</span>}
                  </td>
                  <td className={td}>{t(`detail.nodeStatuses.${n.status}`)}</td>
                </tr>
              );
            })}
          </Table>
          {service.framework === "fabric" ? (
            // The service's CA, for a connected Fabric network's admin to add to the channel (docs/decisions/068).
            <p className="flex flex-wrap items-center gap-2 text-sm" data-testid="service-ca">
              <a
                href={serviceCaHref(service)}
                download
                className="btn-secondary text-sm"
                data-testid="download-service-ca"
              >
                {t("detail.serviceCa")}
              </a>
              <span className="text-xs text-slate-600">
                {t("detail.serviceCaHint", { mspId: `${service.appCode}MSP` })}
              </span>
            </p>
          ) : null}
          {service.chain ? <ServiceChainPanel chain={service.chain} origin={origin} /> : null}
          <ServiceTraffic traffic={service.traffic} language={language} />
        </div>
      );
    case "roles":
      return c.roles.length === 0 ? (
        <p className="text-sm text-slate-500">{t("detail.noRoles")}</p>
      ) : (
        <Table
          label={t("detail.tabs.roles")}
          head={[t("detail.roleName"), t("detail.roleDescription"), t("detail.permissions")]}
        >
          {c.roles.map((r) => (
            <tr key={r.roleId}>
              <td className={`${td} font-medium`}>{r.name}</td>
              <td className={td}>{r.description}</td>
              <td className={td}>{r.functions.join(", ")}</td>
            </tr>
          ))}
        </Table>
      );
    case "approvals": {
      const reviews = service.transitions.filter(
        (x) => x.actorKind === "operator" || x.event === "testPass" || x.event === "testFail",
      );
      return (
        <div className="space-y-4">
          <h2 className="font-semibold">{t("detail.records")}</h2>
          {reviews.length === 0 ? (
            <p className="text-sm text-slate-500">{t("detail.noRecords")}</p>
          ) : (
            <Table
              label={t("detail.records")}
              head={[t("detail.event"), t("detail.actor"), zoneHeader(t, t("detail.time")), t("detail.commentsCol")]}
              regionTestId="approval-records"
            >
              {reviews.map((x, i) => (
                <tr key={i}>
                  <td className={td}>{t(`detail.events.${x.event}`)}</td>
                  <td className={td}>{t(`detail.actors.${x.actorKind}`)}</td>
                  <td className={`${td} whitespace-nowrap`}>{cellDate(x.createdAt)}</td>
                  <td className={td}>{x.comments ?? ""}</td>
                </tr>
              ))}
            </Table>
          )}
          <h2 className="font-semibold">{t("detail.timeline")}</h2>
          <ol className="space-y-2 border-l-2 border-slate-200 pl-4 text-sm" data-testid="timeline">
            {service.transitions.map((x, i) => (
              <li key={i}>
                <span className="font-medium">{t(`detail.events.${x.event}`)}</span>{" "}
                <span className="text-slate-500">
                  · {x.actorKind === "publisher" && x.actorName ? x.actorName : t(`detail.actors.${x.actorKind}`)} ·{" "}
                  {date(x.createdAt)}
                </span>{" "}
                <StatusBadge verState={x.toState} />
                {x.comments ? <p className="text-slate-700">{x.comments}</p> : null}
              </li>
            ))}
          </ol>
          {service.refunds.length > 0 ? (
            <>
              <h2 className="font-semibold">{t("detail.refunds")}</h2>
              <Table
                label={t("detail.refunds")}
                head={[
                  zoneHeader(t, t("detail.time")),
                  t("detail.status"),
                  t("detail.refundAmount"),
                  t("detail.reviewComments"),
                ]}
              >
                {service.refunds.map((r) => (
                  <tr key={r.refundId}>
                    <td className={td}>{cellDate(r.createdAt)}</td>
                    <td className={td}>{t(`refundState.${r.state}`)}</td>
                    <td className={td}>{formatUsd(r.amountCents, language)}</td>
                    <td className={td}>{r.reviewComments ?? ""}</td>
                  </tr>
                ))}
              </Table>
            </>
          ) : null}
        </div>
      );
    }
    case "runInfo":
      return (
        <dl className="card grid gap-4 sm:grid-cols-3">
          <Field label={t("detail.status")}>
            <StatusBadge verState={service.verState} />
          </Field>
          <Field label={t("detail.publishedAt")}>{date(service.publishedAt)}</Field>
          <Field label={t("detail.submittedAt")}>{date(service.submittedAt)}</Field>
          <Field label={t("detail.nodes")}>{c.nodes.map(nodeName).join(", ")}</Field>
          <Field label={t("detail.totalTps")}>{c.nodes.reduce((s, n) => s + n.tps, 0)}</Field>
          <Field label={t("detail.totalCapacity")}>{c.nodes.reduce((s, n) => s + n.capacityGb, 0)}</Field>
          <Field label={t("detail.cost")}>
            {service.freeYN === 1
              ? t("detail.free")
              : c.costCents === null
                ? t("detail.none")
                : formatUsd(c.costCents, language)}
          </Field>
          <Field label={t("detail.cycle")}>{t(`detail.cycles.${service.paymentCycle}`)}</Field>
          <Field label={t("detail.billState")}>
            {service.bill ? `${t(`payState.${service.bill.payState}`)} · ${service.bill.billNo}` : t("detail.none")}
          </Field>
          <Field label={t("detail.certificateMode")}>
            {service.certificateMode ? t(`detail.certificateModes.${service.certificateMode}`) : t("detail.none")}
          </Field>
        </dl>
      );
    case "crossChain":
      // The live cross-chain state and recent calls (docs/decisions/048), when the loader could read them.
      return crossChain ? (
        <CrossChainTab detail={crossChain} language={language} />
      ) : (
        <dl className="card grid gap-4 sm:grid-cols-3">
          <Field label={t("detail.crossFlag")}>{t(service.crossChain ? "detail.crossOn" : "detail.crossOff")}</Field>
          <Field label={t("detail.protocol")}>
            {service.crossProtocol ? t(`detail.protocols.${service.crossProtocol}`) : t("detail.none")}
          </Field>
          <Field label={t("detail.crossStatus")}>{t(`detail.crossStatuses.${service.crossStatus}`)}</Field>
        </dl>
      );
    case "comments":
      return service.comments.length === 0 ? (
        <p className="card text-center text-sm text-slate-500">{t("detail.noComments")}</p>
      ) : (
        <ul className="space-y-3">
          {service.comments.map((m) => (
            <li key={m.commentId} className="card" data-testid="comment">
              <p className="text-sm">{m.text}</p>
              <p className="mt-1 text-xs text-slate-500">
                {t("detail.commentBy", { user: m.userName, date: formatDate(m.createdAt, language, true) })} ·{" "}
                {t("detail.useful", { count: m.usefulCount })} · {t(m.reply ? "detail.replied" : "detail.unreplied")}
              </p>
              {m.reply ? (
                <p className="mt-2 rounded-md bg-slate-50 p-2 text-sm">{m.reply}</p>
              ) : (
                <ReplyForm appId={service.appId} commentId={m.commentId} />
              )}
            </li>
          ))}
        </ul>
      );
    case "history":
      return (
        <>
          <Table
            label={t("detail.tabs.history")}
            head={[
              t("detail.historyVersion"),
              t("detail.historyState"),
              zoneHeader(t, t("detail.historyCreated")),
              zoneHeader(t, t("detail.historyPublished")),
              "",
            ]}
          >
            {service.history.map((h) => (
              <tr key={h.appVerId}>
                <td className={td}>
                  {h.version}
                  {h.appVerId === service.currentVerId ? ` (${t("detail.current")})` : ""}
                </td>
                <td className={td}>
                  <StatusBadge verState={h.verState} />
                </td>
                <td className={td}>{cellDate(h.createdAt)}</td>
                <td className={td}>{cellDate(h.publishedAt)}</td>
                <td className={td}>
                  {h.appVerId === service.appVerId ? (
                    ""
                  ) : (
                    <Link className="link" to={detailHref({ appId: service.appId, appVerId: h.appVerId })}>
                      {t("detail.view")}
                    </Link>
                  )}
                </td>
              </tr>
            ))}
          </Table>
          {/* The service's configuration upgrades (docs/decisions/036). */}
          <section className="mt-4 space-y-2" aria-labelledby="upgrade-history">
            <h3 id="upgrade-history" className="font-semibold">
              {t("configuration:history")}
            </h3>
            <UpgradeTable rows={service.upgrades} language={language} showService={false} />
          </section>
        </>
      );
  }
}

/** The service's traffic of the last 7 UTC+8 days (docs/decisions/057): what its weekly data-traffic bills charge. */
function ServiceTraffic({ traffic, language }: { traffic: ServiceDetail["traffic"]; language: Language }) {
  const { t } = useTranslation("services");
  return (
    <>
      <h2 className="font-semibold">{t("detail.traffic")}</h2>
      <p className="text-sm text-slate-600">{t("detail.trafficNote")}</p>
      <Table
        label={t("detail.traffic")}
        head={[t("detail.trafficDay"), t("detail.calls"), t("detail.bytesIn"), t("detail.bytesOut")]}
        regionTestId="service-traffic"
      >
        {traffic.map((d) => (
          <tr key={d.day} data-day={d.day}>
            <td className={td}>{formatDay(d.day, language, false)}</td>
            <td className={`${td} tabular-nums`}>{d.calls}</td>
            <td className={`${td} tabular-nums`}>{formatBytes(d.bytesIn)}</td>
            <td className={`${td} tabular-nums`}>{formatBytes(d.bytesOut)}</td>
          </tr>
        ))}
      </Table>
    </>
  );
}
