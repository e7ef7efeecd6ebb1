import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { remittanceReviewSchema } from "@contract/payments";
import { Pagination } from "~/components/Pagination";
import { PaymentStatusBadge } from "~/components/PaymentBits";
import { ConfirmStep, ReviewForm, QueueHeader } from "~/components/ReviewRow";
import { apiFor, requireOperator } from "~/lib/api.server";
import { formatDate, formatUsd } from "~/lib/format";
import { pageTitle } from "~/lib/meta";
import { commentsMissing, failureKey, parseReview, rowError } from "~/lib/operations-review.server";
import { pageParam } from "~/lib/params";
import { redirectWithFlash } from "~/lib/session.server";

export const handle = { i18n: ["payments"], breadcrumb: [{ key: "titles.remittances" }] };
export const meta = pageTitle("remittances");

const PAGE_SIZE = 20;

/** Operators: offline remittances awaiting confirmation (SPEC §9 GT0004, 1-3 working days), or all. */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireOperator(request);
  const url = new URL(request.url);
  const status = url.searchParams.get("status") === "all" ? "all" : "open";
  const data = await apiFor(request, viewer).load("/ops/remittances/list", { page: { pageSize: PAGE_SIZE, pageIndex: pageParam(url), condition: { status } } });
  return json({ ...data, status, language: viewer.language });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireOperator(request);
  const { review, no, confirmed } = parseReview(remittanceReviewSchema, await request.formData(), "paymentNo");
  if (commentsMissing(review)) return rowError(no, review.comments, "payments:validation.commentsRequired");
  if (!confirmed) return json({ kind: "confirm" as const, review });
  const result = await apiFor(request, viewer).call("/ops/remittances/review", review);
  if (!result.ok) return rowError(no, review.comments, failureKey(result));
  const url = new URL(request.url);
  const key = review.decision === "confirm" ? "payments:ops.remittances.confirmed" : "payments:ops.remittances.rejected";
  return redirectWithFlash(request, url.pathname + url.search, { kind: "success", key, params: { no } });
}

export default function RemittancesQueue() {
  const { page, status, language } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("payments");
  const labels = { confirm: t("ops.remittances.confirm"), reject: t("ops.remittances.reject") };
  const confirming = actionData?.kind === "confirm" ? actionData.review : null;
  const confirmingRow = confirming ? page.rows.find((r) => r.paymentNo === confirming.paymentNo) : undefined;
  return (
    <section className="space-y-4">
      <QueueHeader title={t("ops.remittances.title")} status={status} />
      {confirming ? (
        <ConfirmStep noField="paymentNo" no={confirming.paymentNo} decision={confirming.decision} label={labels[confirming.decision]}
          comments={confirming.comments} summary={confirmingRow ? formatUsd(confirmingRow.amountCents, language) : ""} />
      ) : null}
      {page.rows.length === 0 ? (
        <p className="card text-center text-slate-500">{t("ops.remittances.empty")}</p>
      ) : (
        <ul className="space-y-3">
          {page.rows.map((r) => (
            <li key={r.paymentNo} className="card grid gap-4 p-4 md:grid-cols-2" data-testid="remittance" data-payment-no={r.paymentNo}>
              <div className="space-y-1 text-sm">
                <p className="flex items-center gap-2"><span className="font-mono">{r.paymentNo}</span> <PaymentStatusBadge status={r.status} payType={r.payType} /></p>
                <p className="text-lg font-semibold">{formatUsd(r.amountCents, language)}</p>
                <p>{t("ops.user")}: {r.userName} ({r.realName})</p>
                <p>{t("ops.remittances.ref")}: <span className="font-mono">{r.remittanceRef}</span></p>
                <p className="text-slate-500">{formatDate(r.createdAt, language, true)}</p>
                {r.reviewedAt ? <p className="text-slate-500">{formatDate(r.reviewedAt, language, true)} {r.reviewComments ?? ""}</p> : null}
              </div>
              {r.status === 2 ? (
                <ReviewForm id={`review-${r.paymentNo}`} noField="paymentNo" no={r.paymentNo} summary={formatUsd(r.amountCents, language)}
                  decisions={[{ value: "confirm", label: labels.confirm }, { value: "reject", label: labels.reject, danger: true }]}
                  error={actionData?.kind === "error" && actionData.no === r.paymentNo ? actionData : null} />
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <Pagination pageIndex={page.pageIndex} pageSize={page.pageSize} total={page.total} />
    </section>
  );
}
