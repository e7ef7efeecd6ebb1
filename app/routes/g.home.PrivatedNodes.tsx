import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { PRN_STATUSES, PrnStatus } from "#contract/dedicated-nodes-codes.ts";
import { BlockedLink } from "#app/components/BlockedAction.tsx";
import { ConfirmSubmit } from "#app/components/ConfirmSubmit.tsx";
import { inLanguage } from "#app/components/details.tsx";
import { Table, td } from "#app/components/Table.tsx";
import { FormErrors } from "#app/components/form-parts.tsx";
import { IntentConfirmStep } from "#app/components/IntentConfirmStep.tsx";
import { Pagination } from "#app/components/Pagination.tsx";
import { ProjectStatusBadge, frameworkLabel } from "#app/components/dedicated-nodes/badges.tsx";
import { PRN, checkHref, configHref, newProjectHref } from "#app/lib/dedicated-nodes-urls.ts";
import { apiFor, failureStatus, requireUser } from "#app/lib/api.server.ts";
import { formatDate, zoneHeader } from "#app/lib/format.ts";
import { intentOf } from "#app/lib/intents.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { oneOf, pageParam, positiveId } from "#app/lib/params.ts";
import { redirectWithFlash } from "#app/lib/session.server.ts";
import { blockOf } from "#app/lib/unpaid-guard.server.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { EmptyState } from "#app/components/EmptyState.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["dedicatedNodes", "billing", "services"],
  breadcrumb: [{ key: "titles.privatedNodes" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("privatedNodes");

const PAGE_SIZE = 10;
const INTENTS = ["delete", "unsubscribe"] as const;
type Intent = (typeof INTENTS)[number];
/** Which end applies in which status (the backend's machine decides again): unsubscribe a running project, delete one that does not run. */
const DELETABLE: readonly number[] = [PrnStatus.NOT_DEPLOYED, PrnStatus.FAILED, PrnStatus.UNSUBSCRIBED];

type ActionData =
  | { kind: "confirm"; intent: Intent; prnProjectId: number; name: string; typedError?: string }
  | { kind: "refused"; messageKey: string };

/**
 * Dedicated nodes (SPEC §2 PrivatedNodes, §3 dedicated node project, §4 statuses): the user's projects with
 * their framework, consensus, city node, peers, status (the reason when it failed) and paid period; a status
 * filter; check, configuration, and delete or unsubscribe after confirming. A new project is blocked by
 * unpaid dedicated-node bills (§6, h5isHasNoPayBillV2 payType 2).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const url = new URL(request.url);
  const status = oneOf(PRN_STATUSES, url.searchParams.get("status"));
  const api = apiFor(request, viewer);
  const [list, block] = await Promise.all([
    api.load("/sys/prn/list", { pageIndex: pageParam(url), pageSize: PAGE_SIZE, ...(status ? { status } : {}) }),
    blockOf(api, 2),
  ]);
  return json({ page: list.page, status: status ?? null, block, language: viewer.language });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const formData = await request.formData();
  const intent = intentOf(formData, INTENTS);
  const prnProjectId = positiveId(String(formData.get("prnProjectId") ?? ""));
  if (!prnProjectId) return json<ActionData>({ kind: "refused", messageKey: "errors:http.400" }, { status: 400 });
  const api = apiFor(request, viewer);
  const here = `${PRN}${new URL(request.url).search}`;
  if (formData.get("confirmed") !== "yes") {
    // Without JavaScript: the confirm step, naming the project as the backend knows it (a foreign id is a 404).
    const project = await api.load("/sys/prn/detail", { prnProjectId });
    return json<ActionData>({ kind: "confirm", intent, prnProjectId, name: project.name });
  }
  // Unsubscribing stops paid nodes: confirmed by typing the project's name, which the backend checks (ADR 029).
  const result =
    intent === "delete"
      ? await api.call("/sys/prn/delete", { prnProjectId })
      : await api.call("/sys/prn/unsubscribe", {
          prnProjectId,
          confirmName: String(formData.get("confirmName") ?? ""),
        });
  if (!result.ok && result.fieldErrors.confirmName) {
    const project = await api.load("/sys/prn/detail", { prnProjectId });
    return json<ActionData>(
      { kind: "confirm", intent, prnProjectId, name: project.name, typedError: result.fieldErrors.confirmName[0] },
      { status: 400 },
    );
  }
  if (!result.ok)
    return json<ActionData>({ kind: "refused", messageKey: result.messageKey }, { status: failureStatus(result) });
  const name = String(formData.get("name") ?? "");
  return redirectWithFlash(request, here, {
    kind: "success",
    key: `dedicatedNodes:list.${intent === "delete" ? "deleted" : "unsubscribed"}`,
    params: { name, date: result.data.purgeAt ? formatDate(result.data.purgeAt, viewer.language, true) : "—" },
  });
}

export default function DedicatedNodeProjects() {
  const { page, status, block, language } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("dedicatedNodes");
  const confirm = actionData?.kind === "confirm" ? actionData : null;
  return (
    <div className="space-y-6">
      <PageHeader
        title={t("list.title")}
        description={t("list.intro")}
        actions={
          <>
            <BlockedLink to={newProjectHref()} action="dedicatedNode" block={block} className="btn-primary">
              {t("list.new")}
            </BlockedLink>
          </>
        }
      />
      {confirm ? (
        <IntentConfirmStep
          id="prn-confirm"
          title={t(`confirm.${confirm.intent}.title`)}
          question={t(`confirm.${confirm.intent}.question`, { name: confirm.name })}
          intent={confirm.intent}
          fields={{ prnProjectId: confirm.prnProjectId, name: confirm.name }}
          action={PRN}
          cancelTo={PRN}
          confirmLabel={t(`confirm.${confirm.intent}.confirm`)}
          cancelLabel={t("common:actions.cancel")}
          danger
          typeToConfirm={
            confirm.intent === "unsubscribe"
              ? { name: confirm.name, label: t("confirm.typeName", { name: confirm.name }) }
              : undefined
          }
          typedError={confirm.typedError}
        />
      ) : null}
      {actionData?.kind === "refused" ? <FormErrors errors={[actionData.messageKey]} /> : null}
      <Form method="get" className="flex flex-wrap items-end gap-2">
        <div>
          <label htmlFor="prn-status" className="label">
            {t("list.filter")}
          </label>
          <select id="prn-status" name="status" defaultValue={status ?? ""} className="input !w-auto">
            <option value="">{t("list.allStatuses")}</option>
            {PRN_STATUSES.map((s) => (
              <option key={s} value={s}>
                {t(`status.${s}`)}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="btn-secondary">
          {t("list.show")}
        </button>
      </Form>
      {page.rows.length === 0 ? (
        <EmptyState
          message={t("list.empty")}
          action={
            <>
              {status === null ? (
                <p className="mt-3">
                  <BlockedLink to={newProjectHref()} action="dedicatedNode" block={block} className="btn-primary">
                    {t("list.emptyCall")}
                  </BlockedLink>
                </p>
              ) : null}
            </>
          }
          testId="empty"
        />
      ) : (
        <Table
          label={t("list.title")}
          regionTestId="prn-list"
          head={[
            t("project.name"),
            t("project.framework"),
            t("project.consensus"),
            t("project.cityNode"),
            t("project.nodeCount"),
            t("project.status"),
            zoneHeader(t, t("list.periodEnd")),
            t("list.actions"),
          ]}
        >
          {page.rows.map((p) => {
            const formId = `prn-end-${p.prnProjectId}`;
            const end: Intent | null =
              p.status === PrnStatus.RUNNING ? "unsubscribe" : DELETABLE.includes(p.status) ? "delete" : null;
            return (
              <tr key={p.prnProjectId} data-testid="prn-row">
                <td className={`${td} font-medium`}>
                  <Link className="link" to={checkHref(p.prnProjectId)}>
                    {p.name}
                  </Link>
                </td>
                <td className={td}>{frameworkLabel(p.framework)}</td>
                <td className={td}>{t(`consensus.${p.consensus}`, { defaultValue: p.consensus })}</td>
                <td className={td}>
                  {inLanguage(p.regionName, p.regionNameZh, language)}
                  <span className="block text-xs text-slate-600">{p.cloud}</span>
                </td>
                <td className={`${td} tabular-nums`}>{p.nodeCount}</td>
                <td className={td}>
                  <ProjectStatusBadge status={p.status} />
                  {p.failReason ? (
                    <span className="mt-1 block text-xs text-red-700" data-testid="prn-reason">
                      {t("list.reason", { reason: p.failReason })}
                    </span>
                  ) : null}
                </td>
                <td className={`${td} whitespace-nowrap`}>{formatDate(p.periodEnd, language, true, false)}</td>
                <td className={`${td} whitespace-nowrap`}>
                  <Form method="post" id={formId} className="flex items-center gap-3">
                    <Link className="link" to={checkHref(p.prnProjectId)}>
                      {t("list.check")}
                    </Link>
                    <Link className="link" to={configHref(p.prnProjectId, p.name)}>
                      {t("list.config")}
                    </Link>
                    <input type="hidden" name="prnProjectId" value={p.prnProjectId} />
                    <input type="hidden" name="name" value={p.name} />
                    {end ? (
                      <ConfirmSubmit
                        formId={formId}
                        name="intent"
                        value={end}
                        label={t(`list.${end}`)}
                        className="btn-danger !py-1"
                        title={t(`confirm.${end}.title`)}
                        question={t(`confirm.${end}.question`, { name: p.name })}
                        confirmLabel={t(`confirm.${end}.confirm`)}
                        typeToConfirm={
                          end === "unsubscribe"
                            ? { name: p.name, label: t("confirm.typeName", { name: p.name }) }
                            : undefined
                        }
                      />
                    ) : null}
                  </Form>
                </td>
              </tr>
            );
          })}
        </Table>
      )}
      <Pagination pageIndex={page.pageIndex} pageSize={page.pageSize} total={page.total} />
    </div>
  );
}
