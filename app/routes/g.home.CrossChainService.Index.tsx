import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ConfirmSubmit } from "#app/components/ConfirmSubmit.tsx";
import { FilterPills } from "#app/components/FilterPills.tsx";
import { IntentConfirmStep } from "#app/components/IntentConfirmStep.tsx";
import { Pagination } from "#app/components/Pagination.tsx";
import { Table, td } from "#app/components/Table.tsx";
import { CrossStatusBadge } from "#app/components/cross-chain/badges.tsx";
import { CROSS_STATUS_VALUES, allowedActions, canReopen } from "#app/lib/cross-chain-rules.ts";
import { CROSS_CHAIN_INDEX, crossDetailHref, dredgeHref, selectHref } from "#app/lib/cross-chain-urls.ts";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { confirmOf, crossStatusParam, indexAction } from "#app/lib/cross-chain.server.ts";
import { formatDate, zoneHeader } from "#app/lib/format.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { pagingOf } from "#app/lib/paging.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { EmptyState } from "#app/components/EmptyState.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = { i18n: ["crossChain"], breadcrumb: [{ key: "titles.crossChain" }] };
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("crossChain");

/**
 * SPEC §2 CrossChainService/Index: the user's services opened to cross-chain with their status (§4: 0 deactivated,
 * 1 activated, 2 closed, 3 pending activation, 4 pending deactivation), protocol, chain and calls; a status
 * filter; deactivate (→ 4) and close (→ 2), each confirmed (a dialog with JavaScript, a confirm step without).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const url = new URL(request.url);
  const status = crossStatusParam(url);
  const list = await apiFor(request, viewer).load("/sys/crossChain/list", { ...pagingOf(url), status });
  return json({
    page: list.page,
    status: status ?? null,
    confirm: confirmOf(url, list.page.rows),
    language: viewer.language,
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  return indexAction(request, apiFor(request, viewer), await request.formData());
}

export default function CrossChainIndex() {
  const { page, status, confirm, language } = useLoaderData<typeof loader>();
  const { t } = useTranslation("crossChain");
  const location = useLocation();
  const here = location.pathname + location.search;
  const filterTo = (s: number | null) => (s === null ? CROSS_CHAIN_INDEX : `${CROSS_CHAIN_INDEX}?status=${s}`);
  const cancelTo = (() => {
    const q = new URLSearchParams(location.search);
    q.delete("confirm");
    q.delete("confirmAction");
    return q.size ? `${location.pathname}?${q}` : location.pathname;
  })();
  return (
    <div className="space-y-6">
      <PageHeader
        title={t("index.title")}
        description={t("index.intro")}
        actions={
          <>
            <Link to={selectHref} className="btn-primary">
              {t("index.open")}
            </Link>
          </>
        }
      />
      {confirm ? (
        <IntentConfirmStep
          id="confirm-cross"
          title={t(`index.${confirm.action}Title`)}
          question={t(`index.${confirm.action}Question`, { name: confirm.row.name })}
          intent={confirm.action}
          fields={{ appId: confirm.row.appId }}
          action={here}
          cancelTo={cancelTo}
          confirmLabel={t(`index.${confirm.action}`)}
          cancelLabel={t("index.cancel")}
          danger
        />
      ) : null}
      <FilterPills
        label={t("index.filterLabel")}
        links={[
          { key: "all", to: filterTo(null), label: t("index.all"), current: status === null },
          ...CROSS_STATUS_VALUES.map((s) => ({
            key: s,
            to: filterTo(s),
            label: t(`status.${s}`),
            current: status === s,
          })),
        ]}
      />
      {page.rows.length === 0 ? (
        <EmptyState
          message={t("index.empty")}
          hint={t("index.emptyHint")}
          action={
            <>
              <p className="mt-3">
                <Link className="btn-primary" to={selectHref}>
                  {t("index.open")}
                </Link>
              </p>
            </>
          }
          testId="empty"
        />
      ) : (
        <Table
          label={t("index.title")}
          regionTestId="cross-list"
          head={[
            t("index.service"),
            t("index.protocol"),
            t("index.chain"),
            t("index.calls"),
            t("index.status"),
            zoneHeader(t, t("index.updated")),
            t("index.actions"),
          ]}
        >
          {page.rows.map((s) => (
            <tr key={s.appId} data-testid="cross-row">
              <td className={td}>
                <Link className="link font-medium" to={crossDetailHref(s.appId)}>
                  {s.name}
                </Link>
                <span className="block font-mono text-xs text-slate-600">{s.appCode}</span>
              </td>
              <td className={td}>
                {s.protocol ? t(`protocols.${s.protocol}.name`) : "—"}
                {s.crossAppCode ? (
                  <span className="block font-mono text-xs text-slate-600">{s.crossAppCode}</span>
                ) : null}
              </td>
              <td className={td}>
                {s.chainName ? (
                  <>
                    <span className="font-mono text-xs">{s.chainName}</span>
                    {s.chainId !== null ? <span className="block text-xs text-slate-600">#{s.chainId}</span> : null}
                  </>
                ) : (
                  t("index.noChain")
                )}
              </td>
              <td className={`${td} tabular-nums`} data-testid="cross-calls">
                {t("index.callCounts", {
                  total: s.counts.total.toLocaleString(language),
                  success: s.counts.success.toLocaleString(language),
                  failure: s.counts.failure.toLocaleString(language),
                })}
              </td>
              <td className={td}>
                <CrossStatusBadge status={s.crossStatus} />
              </td>
              <td className={`${td} whitespace-nowrap`}>{formatDate(s.updatedAt, language, true, false)}</td>
              <td className={`${td} space-x-3 whitespace-nowrap`}>
                <Link className="link" to={crossDetailHref(s.appId)}>
                  {t("index.details")}
                </Link>
                {canReopen(s.crossStatus) ? (
                  <Link className="link" to={dredgeHref(s.appId)}>
                    {t("index.reopen")}
                  </Link>
                ) : null}
                {allowedActions(s.crossStatus).map((a) => (
                  <Form key={a} method="post" id={`${a}-${s.appId}`} action={here} className="inline">
                    <input type="hidden" name="appId" value={s.appId} />
                    <ConfirmSubmit
                      formId={`${a}-${s.appId}`}
                      name="intent"
                      value={a}
                      label={t(`index.${a}`)}
                      title={t(`index.${a}Title`)}
                      question={t(`index.${a}Question`, { name: s.name })}
                      confirmLabel={t(`index.${a}`)}
                      className="btn-danger text-sm"
                    />
                  </Form>
                ))}
              </td>
            </tr>
          ))}
        </Table>
      )}
      <Pagination pageIndex={page.pageIndex} pageSize={page.pageSize} total={page.total} />
    </div>
  );
}
