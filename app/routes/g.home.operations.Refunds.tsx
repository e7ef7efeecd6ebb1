import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { DataOf } from "#contract/paths.ts";
import { RefundState } from "#contract/service-status.ts";
import { refundDecisionSchema } from "#contract/services.ts";
import { approveReject, DecisionForm } from "#app/components/ReviewRow.tsx";
import { Pagination } from "#app/components/Pagination.tsx";
import { StatusBadge } from "#app/components/services/badges.tsx";
import { apiFor, requireOperator } from "#app/lib/api.server.ts";
import { formatDate, formatUsd } from "#app/lib/format.ts";
import type { Language } from "#app/lib/i18n.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { decideQueueItem, queueDecision } from "#app/lib/operations-review.server.ts";
import { oneOf, pageParam } from "#app/lib/params.ts";
import { EmptyState } from "#app/components/EmptyState.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["services", "payments"],
  breadcrumb: [{ key: "menu.operations", to: "/g/home/operations" }, { key: "titles.refundReviews" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("refundReviews");

/** The queue's tabs: pending, not approved, approved. */
const STATES = [RefundState.PENDING, RefundState.NOT_APPROVED, RefundState.APPROVED] as const;
type Item = DataOf<"/sys/ops/refunds/list">["page"]["rows"][number];

/**
 * Operations: unsubscription (refund) requests, SPEC §4 Refund review. Approving uninstalls the service
 * (35), releases its node bookings and refunds the unused part of the publish bill; rejecting needs comments.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireOperator(request);
  const url = new URL(request.url);
  const state = oneOf(STATES, url.searchParams.get("state")) ?? RefundState.PENDING;
  const page = pageParam(url);
  const data = await apiFor(request, viewer).load("/sys/ops/refunds/list", { state, pageIndex: page, pageSize: 10 });
  return json({ ...data, state, language: viewer.language });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireOperator(request);
  return decideQueueItem(request, {
    idName: "refundId",
    confirm: true,
    decisions: {
      refund: queueDecision({
        schema: refundDecisionSchema,
        decide: (v) => apiFor(request, viewer).call("/sys/ops/refunds/decide", v),
        flash: (v) =>
          ({ approve: "services:flash.refundApproved", reject: "services:flash.refundRejected" })[v.decision],
      }),
    },
  });
}

function RefundItem({ item, language }: { item: Item; language: Language }) {
  const { t } = useTranslation("services");
  return (
    <li className="card space-y-2" data-testid="refund-item">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="font-semibold">
          {item.name} <span className="font-normal text-slate-500">{item.version}</span>
        </h2>
        <StatusBadge verState={item.verState} />
      </div>
      <p className="text-sm text-slate-600">
        {t("ops.publisher")}: {item.publisher} · {t("ops.requested")}: {formatDate(item.createdAt, language, true)} ·{" "}
        {t("ops.amount")}: {formatUsd(item.amountCents, language)}
      </p>
      {item.reason ? (
        <p className="text-sm">
          {t("ops.reason")}: {item.reason}
        </p>
      ) : null}
      {item.state === RefundState.PENDING ? (
        <DecisionForm
          id={`refund-${item.refundId}`}
          intent="refund"
          idName="refundId"
          idValue={item.refundId}
          subject={item.name}
          decisions={approveReject(t)}
          comments={{ label: t("ops.comments"), hint: t("ops.commentsHint") }}
        />
      ) : (
        <p className="text-sm text-slate-600">
          {t(`refundState.${item.state}`)} · {t("ops.reviewed")}: {formatDate(item.reviewedAt, language, true)}
          {item.reviewComments ? ` · ${item.reviewComments}` : ""}
        </p>
      )}
    </li>
  );
}

export default function Refunds() {
  const { page, state, language } = useLoaderData<typeof loader>();
  const { t } = useTranslation("services");
  return (
    <div className="space-y-4">
      <h2 className="text-lg font-semibold">{t("ops.refundsTitle")}</h2>
      <nav aria-label={t("ops.refundsTitle")} className="flex gap-2 text-sm">
        {STATES.map((s) => (
          <Link
            key={s}
            to={`?state=${s}`}
            aria-current={state === s ? "page" : undefined}
            className={`rounded-full px-3 py-1 ${state === s ? "bg-brand-600 text-white" : "bg-white text-slate-700 ring-1 ring-slate-200"}`}
          >
            {t(`ops.refundQueues.${s}`)}
          </Link>
        ))}
      </nav>
      {page.rows.length === 0 ? (
        <EmptyState message={t("ops.empty")} />
      ) : (
        <ul className="space-y-4">
          {page.rows.map((item) => (
            <RefundItem key={item.refundId} item={item} language={language} />
          ))}
        </ul>
      )}
      <Pagination pageIndex={page.pageIndex} pageSize={page.pageSize} total={page.total} />
    </div>
  );
}
