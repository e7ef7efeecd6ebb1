import { useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { auditDecisionSchema } from "@contract/participation";
import type { DataOf } from "@contract/paths";
import { DecisionForm } from "~/components/DecisionForm";
import { Pagination } from "~/components/Pagination";
import { AuditBadge } from "~/components/participation";
import { apiFor, badRequest, requireOperator } from "~/lib/api.server";
import { formatDate } from "~/lib/format";
import { replyWithFailure } from "~/lib/forms.server";
import type { Language } from "~/lib/i18n";
import { pageTitle } from "~/lib/meta";
import { redirectWithFlash } from "~/lib/session.server";

export const handle = {
  i18n: ["participation"],
  breadcrumb: [{ key: "menu.operations", to: "/g/home/operations" }, { key: "titles.participationReviews" }],
};
export const meta = pageTitle("participationReviews");

type Item = DataOf<"/sys/ops/participations/list">["page"]["rows"][number];

/**
 * Operations: requests to join a service that its publisher approved (audit state 1), oldest first. Approve
 * (→ 3, then the node order or the work order starts) or reject with comments (→ 4). Operators only.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireOperator(request);
  const page = Math.max(1, Number.parseInt(new URL(request.url).searchParams.get("page") ?? "1", 10) || 1);
  const data = await apiFor(request, viewer).load("/sys/ops/participations/list", { pageIndex: page, pageSize: 10 });
  return json({ ...data, language: viewer.language });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireOperator(request);
  const formData = await request.formData();
  // House habit 2: an unknown intent is a 400.
  if (formData.get("intent") !== "review") throw badRequest();
  const submission = parseWithZod(formData, { schema: auditDecisionSchema });
  const id = Number(formData.get("appJoinAuditId"));
  if (submission.status !== "success") return json({ id, result: submission.reply() }, { status: 400 });
  const v = submission.value;
  const result = await apiFor(request, viewer).call("/sys/ops/participations/decide", { appJoinAuditId: v.appJoinAuditId, decision: v.decision, comments: v.comments });
  if (!result.ok) return json({ id, result: replyWithFailure(submission, result) }, { status: 400 });
  const url = new URL(request.url);
  return redirectWithFlash(request, url.pathname + url.search, { kind: "success", key: v.decision === "approve" ? "participation:flash.approved" : "participation:flash.rejected" });
}

function ReviewItem({ item, language }: { item: Item; language: Language }) {
  const { t } = useTranslation("participation");
  const actionData = useActionData<typeof action>();
  const [form, fields] = useForm({
    id: `join-review-${item.appJoinAuditId}`,
    lastResult: actionData && actionData.id === item.appJoinAuditId ? actionData.result : undefined,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: auditDecisionSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  return (
    <li className="card space-y-3" data-testid="join-review-item" aria-labelledby={`jr-${item.appJoinAuditId}`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={`jr-${item.appJoinAuditId}`} className="font-semibold">{item.name} · {item.applicant}</h2>
        <AuditBadge auditState={item.auditState} />
      </div>
      <p className="text-sm text-slate-600">
        {t("ops.publisher")}: {item.publisher} · {t("detail.role")}: {item.roleName} · {t("ops.nodes")}: {item.cityNodes.join(", ")} · {formatDate(item.createdAt, language, true)}
      </p>
      <DecisionForm form={form} comments={fields.comments} intent="review" idName="appJoinAuditId" idValue={item.appJoinAuditId} ns="participation" />
    </li>
  );
}

export default function ParticipationReviews() {
  const { page, language } = useLoaderData<typeof loader>();
  const { t } = useTranslation("participation");
  return (
    <div className="space-y-4">
      <h2 className="text-lg font-semibold">{t("ops.title")}</h2>
      {page.rows.length === 0 ? <p className="card text-center text-slate-500">{t("ops.empty")}</p> : (
        <ul className="space-y-4">{page.rows.map((item) => <ReviewItem key={item.appJoinAuditId} item={item} language={language} />)}</ul>
      )}
      <Pagination pageIndex={page.pageIndex} pageSize={page.pageSize} total={page.total} />
    </div>
  );
}
