import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { withdrawalReviewSchema } from "@contract/payments";
import { Pagination } from "~/components/Pagination";
import { WithdrawalStateBadge } from "~/components/PaymentBits";
import { ConfirmStep, ReviewForm, QueueHeader } from "~/components/ReviewRow";
import { apiFor, requireOperator } from "~/lib/api.server";
import { formatDate, formatUsd } from "~/lib/format";
import { pageTitle } from "~/lib/meta";
import { commentsMissing, failureKey, parseReview, rowError } from "~/lib/operations-review.server";
import { pageParam } from "~/lib/params";
import { redirectWithFlash } from "~/lib/session.server";

export const handle = { i18n: ["payments"], breadcrumb: [{ key: "titles.withdrawals" }] };
export const meta = pageTitle("withdrawals");

const PAGE_SIZE = 20;
const DONE_KEYS = { approve: "payments:ops.withdrawals.approved", reject: "payments:ops.withdrawals.rejectedDone", confirm: "payments:ops.withdrawals.confirmedDone" };

/** Operators: withdrawals to review (state 1) or to mark paid out (state 10), or all (SPEC §4 Refund review). */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireOperator(request);
  const url = new URL(request.url);
  const status = url.searchParams.get("status") === "all" ? "all" : "open";
  const data = await apiFor(request, viewer).load("/ops/withdrawals/list", { page: { pageSize: PAGE_SIZE, pageIndex: pageParam(url), condition: { status } } });
  return json({ ...data, status, language: viewer.language });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireOperator(request);
  const { review, no, confirmed } = parseReview(withdrawalReviewSchema, await request.formData(), "withdrawalNo");
  if (commentsMissing(review)) return rowError(no, review.comments, "payments:validation.commentsRequired");
  if (!confirmed) return json({ kind: "confirm" as const, review });
  const result = await apiFor(request, viewer).call("/ops/withdrawals/review", review);
  if (!result.ok) return rowError(no, review.comments, failureKey(result));
  const url = new URL(request.url);
  return redirectWithFlash(request, url.pathname + url.search, { kind: "success", key: DONE_KEYS[review.decision], params: { no } });
}

export default function WithdrawalsQueue() {
  const { page, status, language } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("payments");
  const labels = { approve: t("ops.withdrawals.approve"), reject: t("ops.withdrawals.reject"), confirm: t("ops.withdrawals.confirm") };
  const confirming = actionData?.kind === "confirm" ? actionData.review : null;
  const confirmingRow = confirming ? page.rows.find((r) => r.withdrawalNo === confirming.withdrawalNo) : undefined;
  return (
    <section className="space-y-4">
      <QueueHeader title={t("ops.withdrawals.title")} status={status} />
      {confirming ? (
        <ConfirmStep noField="withdrawalNo" no={confirming.withdrawalNo} decision={confirming.decision} label={labels[confirming.decision]}
          comments={confirming.comments} summary={confirmingRow ? formatUsd(confirmingRow.amountCents, language) : ""} />
      ) : null}
      {page.rows.length === 0 ? (
        <p className="card text-center text-slate-500">{t("ops.withdrawals.empty")}</p>
      ) : (
        <ul className="space-y-3">
          {page.rows.map((w) => (
            <li key={w.withdrawalNo} className="card grid gap-4 p-4 md:grid-cols-2" data-testid="withdrawal" data-withdrawal-no={w.withdrawalNo}>
              <div className="space-y-1 text-sm">
                <p className="flex items-center gap-2"><span className="font-mono">{w.withdrawalNo}</span> <WithdrawalStateBadge state={w.state} /></p>
                <p className="text-lg font-semibold">{formatUsd(w.amountCents, language)}</p>
                <p>{t("ops.user")}: {w.userName} ({w.realName})</p>
                <p className="text-slate-500">{formatDate(w.createdAt, language, true)}</p>
                {w.expectedArrival ? <p>{t("withdraw.columns.arrival")}: {formatDate(`${w.expectedArrival}T12:00:00+08:00`, language)}</p> : null}
                {w.reviewedAt ? <p className="text-slate-500">{formatDate(w.reviewedAt, language, true)} {w.reviewComments ?? ""}</p> : null}
              </div>
              {w.state === 1 || w.state === 10 ? (
                <ReviewForm id={`review-${w.withdrawalNo}`} noField="withdrawalNo" no={w.withdrawalNo} summary={formatUsd(w.amountCents, language)}
                  decisions={w.state === 1 ? [{ value: "approve", label: labels.approve }, { value: "reject", label: labels.reject, danger: true }] : [{ value: "confirm", label: labels.confirm }]}
                  error={actionData?.kind === "error" && actionData.no === w.withdrawalNo ? actionData : null} />
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <Pagination pageIndex={page.pageIndex} pageSize={page.pageSize} total={page.total} />
    </section>
  );
}
