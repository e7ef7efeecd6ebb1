import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { detailHidden } from "#contract/participation.ts";
import { BillPayPanel, Field, nodeLabel } from "#app/components/details.tsx";
import { Table, td } from "#app/components/Table.tsx";
import { SubmitButton } from "#app/components/form-parts.tsx";
import { ApplyForm, type City, type Role } from "#app/components/participation/ApplyForm.tsx";
import { AuditBadge, ListStatusBadge, Timeline } from "#app/components/participation/status.tsx";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { formatDate } from "#app/lib/format.ts";
import { intentOf } from "#app/lib/intents.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { positiveParam } from "#app/lib/params.ts";
import { requiredId } from "#app/lib/params.server.ts";
import { applyToJoin, confirmJoin, payJoinOrder, readTicket } from "#app/lib/participation.server.ts";
import { newIdempotencyKey } from "#app/lib/payments.server.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { AuditState } from "#contract/participation-codes.ts";
import { PayState } from "#contract/billing-codes.ts";
import { VerState } from "#contract/service-status.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["participation", "services"],
  breadcrumb: [
    { key: "menu.participatedServices", to: "/g/home/ParticipatedServices" },
    { key: "titles.participatedDetail" },
  ],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("participatedDetail", (d) => d.service?.name);

/**
 * SPEC §2 ParticipatedServices/ServicesDetail (appId, appJoinAuditId, auditState, types, ifJoIn): the service
 * as a participant sees it (§7 view), with the application form when not yet joined (types 1), or the
 * participation: role, city nodes, approval records, the node order to pay, Confirm at 13. The detail is
 * hidden when the request was rejected (§4).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const url = new URL(request.url);
  const appId = requiredId(url, "appId");
  const appJoinAuditId = positiveParam(url.searchParams.get("appJoinAuditId")) ?? undefined;
  const ticket = await readTicket(request, appId);
  const api = apiFor(request, viewer);
  const service = await api.load("/sys/chainAppInfo/view", { appId, appJoinAuditId, ticket });
  let roles: Role[] = [];
  let cities: City[] = [];
  const p = service.participation;
  if (service.canApply && (!p || detailHidden(p.auditState))) {
    roles = (
      await api.load("/sys/chainAppInfo/queryRolesForAppList", {
        page: { pageSize: 999, pageIndex: 1, condition: { appId, ticket } },
      })
    ).page.rows;
    cities = (
      await api.load("/sys/chainAppInfo/queryReleaseCitysForAppList", {
        page: { pageSize: 100, pageIndex: 1, condition: { appId, ticket } },
      })
    ).page.rows;
  } else if (p && !detailHidden(p.auditState)) {
    roles = (
      await api.load("/sys/chainAppInfo/queryReleaseRolesForAppList", {
        page: { pageSize: 999, pageIndex: 1, condition: { appId, joinAuditId: p.appJoinAuditId } },
      })
    ).page.rows;
  }
  const payKey =
    p && p.auditState === AuditState.TO_ORDER && p.order && p.order.payState !== PayState.PAID
      ? newIdempotencyKey()
      : null;
  return json({ service, roles, cities, payKey, language: viewer.language });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const formData = await request.formData();
  const intent = intentOf(formData, ["apply", "pay", "confirm"]);
  const api = apiFor(request, viewer);
  const url = new URL(request.url);
  const here = url.pathname + url.search.replace(/[?&]index(=[^&]*)?/, "");
  switch (intent) {
    case "apply":
      return applyToJoin(request, api, formData);
    case "pay":
      return payJoinOrder(request, api, formData, here);
    case "confirm":
      return confirmJoin(request, api, formData, here);
  }
}

export default function ParticipatedServiceDetail() {
  const { service, roles, cities, payKey, language } = useLoaderData<typeof loader>();
  const { t } = useTranslation("participation");
  const p = service.participation;
  const hidden = !!p && detailHidden(p.auditState);
  const rejection = hidden ? [...p.transitions].reverse().find((s) => s.comments) : undefined;
  return (
    <div className="space-y-4">
      <section className="card space-y-3">
        <PageHeader
          title={
            <>
              {service.name} <span className="text-base font-normal text-slate-500">{service.version}</span>
            </>
          }
          badges={p ? <ListStatusBadge status={p.listStatus} /> : null}
        />
        <dl className="grid gap-3 sm:grid-cols-3">
          <Field label={t("detail.publisher")}>{service.publisher}</Field>
          <Field label={t("detail.certificateMode")}>{t(`modes.${service.certificateMode}`)}</Field>
          <Field label={t("access.appCode")}>{service.appCode}</Field>
        </dl>
        {service.description ? <p className="text-sm text-slate-700">{service.description}</p> : null}
      </section>

      {p ? (
        <section className="card space-y-3" aria-labelledby="participation-title" data-testid="participation">
          <div className="flex flex-wrap items-center gap-2">
            <h2 id="participation-title" className="text-lg font-semibold">
              {t("detail.participation")}
            </h2>
            <AuditBadge auditState={p.auditState} />
          </div>
          {p.disabled ? <p className="text-sm text-red-700">{t("detail.disabled")}</p> : null}
          {hidden ? (
            <div data-testid="detail-hidden">
              <p className="text-sm text-slate-600">{t("detail.hidden")}</p>
              {rejection ? (
                <p className="mt-1 text-sm text-red-700" data-testid="rejection-comments">
                  {t("detail.rejectedBecause")}: {rejection.comments}
                </p>
              ) : null}
            </div>
          ) : (
            <>
              <dl className="grid gap-3 sm:grid-cols-3">
                <Field label={t("detail.role")}>{p.roleName}</Field>
                <Field label={t("detail.nodes")}>{p.cityNodes.map((n) => nodeLabel(n, language)).join(", ")}</Field>
                <Field label={t("detail.appliedAt")}>{formatDate(p.createdAt, language, true)}</Field>
              </dl>
              {roles.length ? (
                <Table label={t("detail.roles")} head={[t("detail.role"), t("detail.functions")]}>
                  {roles.map((r) => (
                    <tr key={r.roleId}>
                      <td className={td}>{r.name}</td>
                      <td className={td}>{r.functions.join(", ")}</td>
                    </tr>
                  ))}
                </Table>
              ) : null}
              {p.accessAllowed ? (
                <Link to={`/g/home/ParticipatedServices/Access?appId=${service.appId}`} className="link inline-block">
                  {t("detail.access")}
                </Link>
              ) : null}
            </>
          )}
          <h3 className="font-semibold">{t("detail.records")}</h3>
          <Timeline steps={p.transitions} language={language} />
        </section>
      ) : null}

      {p && p.order && payKey ? (
        <BillPayPanel
          id="order"
          bill={p.order}
          item={{ name: "appJoinAuditId", value: p.appJoinAuditId }}
          payKey={payKey}
          language={language}
          texts="participation:order"
        />
      ) : null}

      {p && p.auditState === AuditState.WORK_ORDER_DONE && !p.disabled ? (
        <section className="card border-blue-200 bg-blue-50" aria-labelledby="confirm-title">
          <h2 id="confirm-title" className="font-semibold">
            {t("detail.confirmTitle")}
          </h2>
          <p className="mt-1 text-sm text-slate-700">{t("detail.confirmBody")}</p>
          <Form method="post" className="mt-3">
            <input type="hidden" name="appJoinAuditId" value={p.appJoinAuditId} />
            <SubmitButton intent="confirm" className="btn-primary">
              {t("detail.confirm")}
            </SubmitButton>
          </Form>
        </section>
      ) : null}

      {service.canApply && (!p || hidden) ? (
        <>
          {hidden ? <p className="text-sm text-slate-600">{t("detail.applyAgain")}</p> : null}
          <ApplyForm service={service} roles={roles} cities={cities} language={language} />
        </>
      ) : !p ? (
        <p className="card text-sm text-slate-600" data-testid="cannot-apply">
          {service.verState !== VerState.RUNNING ? t("detail.notRunning") : t("detail.cannotApply")}
        </p>
      ) : null}
    </div>
  );
}
