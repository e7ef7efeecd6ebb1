import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { auditDecisionSchema } from "#contract/participation.ts";
import type { DataOf } from "#contract/paths.ts";
import { approveReject, DecisionForm } from "#app/components/ReviewRow.tsx";
import { Pagination } from "#app/components/Pagination.tsx";
import { AuditBadge } from "#app/components/participation/status.tsx";
import { apiFor, requireOperator } from "#app/lib/api.server.ts";
import { formatDate } from "#app/lib/format.ts";
import type { Language } from "#app/lib/i18n.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { decideQueueItem, queueDecision } from "#app/lib/operations-review.server.ts";
import { pageParam } from "#app/lib/params.ts";
import { EmptyState } from "#app/components/EmptyState.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["participation", "payments"],
  breadcrumb: [{ key: "menu.operations", to: "/g/home/operations" }, { key: "titles.participationReviews" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("participationReviews");

type Item = DataOf<"/sys/ops/participations/list">["page"]["rows"][number];

/**
 * Operations: requests to join a service that its publisher approved (audit state 1), oldest first. Approve
 * (→ 3, then the node order or the work order starts) or reject with comments (→ 4). Operators only.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireOperator(request);
  const page = pageParam(new URL(request.url));
  const data = await apiFor(request, viewer).load("/sys/ops/participations/list", { pageIndex: page, pageSize: 10 });
  return json({ ...data, language: viewer.language });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireOperator(request);
  return decideQueueItem(request, {
    idName: "appJoinAuditId",
    confirm: true,
    decisions: {
      review: queueDecision({
        schema: auditDecisionSchema,
        decide: (v) => apiFor(request, viewer).call("/sys/ops/participations/decide", v),
        flash: (v) => ({ approve: "participation:flash.approved", reject: "participation:flash.rejected" })[v.decision],
      }),
    },
  });
}

function ReviewItem({ item, language }: { item: Item; language: Language }) {
  const { t } = useTranslation("participation");
  return (
    <li className="card space-y-3" data-testid="join-review-item" aria-labelledby={`jr-${item.appJoinAuditId}`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={`jr-${item.appJoinAuditId}`} className="font-semibold" data-user-content="">
          {item.name} · {item.applicant}
        </h2>
        <AuditBadge auditState={item.auditState} />
      </div>
      <p className="text-sm text-slate-600">
        {t("ops.publisher")}: {item.publisher} · {t("detail.role")}: {item.roleName} · {t("ops.nodes")}:{" "}
        {item.cityNodes.join(", ")} · {formatDate(item.createdAt, language, true)}
      </p>
      <DecisionForm
        id={`join-review-${item.appJoinAuditId}`}
        intent="review"
        idName="appJoinAuditId"
        idValue={item.appJoinAuditId}
        subject={item.applicant}
        decisions={approveReject(t)}
        comments={{ label: t("ops.comments"), hint: t("ops.commentsHint") }}
      />
    </li>
  );
}

export default function ParticipationReviews() {
  const { page, language } = useLoaderData<typeof loader>();
  const { t } = useTranslation("participation");
  return (
    <div className="space-y-4">
      <h2 className="text-lg font-semibold">{t("ops.title")}</h2>
      {page.rows.length === 0 ? (
        <EmptyState message={t("ops.empty")} />
      ) : (
        <ul className="space-y-4">
          {page.rows.map((item) => (
            <ReviewItem key={item.appJoinAuditId} item={item} language={language} />
          ))}
        </ul>
      )}
      <Pagination pageIndex={page.pageIndex} pageSize={page.pageSize} total={page.total} />
    </div>
  );
}
