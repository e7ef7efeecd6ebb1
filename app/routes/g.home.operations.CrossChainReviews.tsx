import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { CrossStatus, crossReviewSchema } from "#contract/cross-chain.ts";
import { approveReject, DecisionForm } from "#app/components/ReviewRow.tsx";
import { FilterPills } from "#app/components/FilterPills.tsx";
import { Pagination } from "#app/components/Pagination.tsx";
import { CrossStatusBadge } from "#app/components/cross-chain/badges.tsx";
import { apiFor, requireOperator } from "#app/lib/api.server.ts";
import { formatDate } from "#app/lib/format.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { decideQueueItem, queueDecision } from "#app/lib/operations-review.server.ts";
import { oneOf, pageParam } from "#app/lib/params.ts";
import { EmptyState } from "#app/components/EmptyState.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["crossChain", "payments"],
  breadcrumb: [{ key: "menu.operations", to: "/g/home/operations" }, { key: "titles.crossChainReviews" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("crossChainReviews");

const QUEUE = "/g/home/operations/CrossChainReviews";
/** The queue's filters: what waits for activation, for deactivation. */
const PENDING = [CrossStatus.PENDING_ACTIVATION, CrossStatus.PENDING_DEACTIVATION] as const;

/**
 * Operations: services waiting for a cross-chain review, oldest first (SPEC §4 cross-chain; docs/decisions/048):
 * pending activation (3 → 1 approved, → 0 rejected; approving deploys the protocol's contracts) and pending
 * deactivation (4 → 0 approved, → 1 rejected). Rejecting needs comments; every decision is audited.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireOperator(request);
  const url = new URL(request.url);
  const status = oneOf(PENDING, url.searchParams.get("status"));
  const data = await apiFor(request, viewer).load("/sys/ops/crossChain/pending", {
    pageIndex: pageParam(url),
    pageSize: 10,
    status,
  });
  return json({ ...data, status: status ?? null, language: viewer.language });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireOperator(request);
  const api = apiFor(request, viewer);
  return decideQueueItem(request, {
    idName: "appId",
    confirm: true,
    decisions: {
      review: queueDecision({
        schema: crossReviewSchema,
        decide: (v) => api.call("/sys/ops/crossChain/review", v),
        flash: (v) => ({ approve: "crossChain:ops.approved", reject: "crossChain:ops.rejected" })[v.decision],
      }),
    },
  });
}

export default function CrossChainReviewQueue() {
  const { page, status, language } = useLoaderData<typeof loader>();
  const { t } = useTranslation("crossChain");
  return (
    <div className="space-y-4">
      <h2 className="text-lg font-semibold">{t("ops.title")}</h2>
      <p className="text-sm text-slate-600">{t("ops.intro")}</p>
      <FilterPills
        label={t("index.filterLabel")}
        links={[
          { key: "all", to: QUEUE, label: t("index.all"), current: status === null },
          ...PENDING.map((s) => ({
            key: s,
            to: `${QUEUE}?status=${s}`,
            label: t(`status.${s}`),
            current: status === s,
          })),
        ]}
      />
      {page.rows.length === 0 ? (
        <EmptyState message={t("ops.empty")} testId="empty" />
      ) : (
        <ul className="space-y-4">
          {page.rows.map((s) => (
            <li
              key={s.appId}
              className="card space-y-3"
              data-testid="cross-review"
              aria-labelledby={`cross-review-${s.appId}`}
            >
              <div className="flex flex-wrap items-center justify-between gap-2">
                <h3 id={`cross-review-${s.appId}`} className="font-semibold" data-user-content="">
                  {s.name} <span className="font-mono text-xs font-normal text-slate-600">{s.appCode}</span>
                </h3>
                <CrossStatusBadge status={s.crossStatus} />
              </div>
              <p className="text-xs text-slate-600">
                {t("ops.owner")}: <span data-user-content="">{s.owner}</span> · {t("detail.protocol")}:{" "}
                {s.protocol ? t(`protocols.${s.protocol}.name`) : "—"}
                {s.crossAppCode ? (
                  <>
                    {" "}
                    · {t("dredge.appCode")}:{" "}
                    <span className="font-mono" data-user-content="">
                      {s.crossAppCode}
                    </span>
                  </>
                ) : null}
                {" · "}
                {t("detail.chain")}: <span className="font-mono">{s.chainName ?? "—"}</span> · {t("ops.requested")}:{" "}
                {formatDate(s.updatedAt, language, true)}
              </p>
              <DecisionForm
                id={`cross-review-${s.appId}-decision`}
                intent="review"
                idName="appId"
                idValue={s.appId}
                subject={s.name}
                decisions={approveReject(t)}
                comments={{ label: t("ops.comments"), hint: t("ops.commentsHint") }}
              />
            </li>
          ))}
        </ul>
      )}
      <Pagination pageIndex={page.pageIndex} pageSize={page.pageSize} total={page.total} />
    </div>
  );
}
