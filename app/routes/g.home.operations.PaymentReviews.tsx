import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { paymentReviewMachine, paymentReviewState } from "#contract/payment-machines.ts";
import { eventsFrom } from "#contract/state-machine.ts";
import { paymentReviewSchema } from "#contract/payments.ts";
import { PaymentStatusBadge } from "#app/components/payments/wallet.tsx";
import { ReviewQueue } from "#app/components/ReviewRow.tsx";
import { apiFor, requireOperator } from "#app/lib/api.server.ts";
import { formatDate, formatMinorUnits, formatUsd } from "#app/lib/format.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { decideQueueItem, loadMoneyQueue, queueDecision } from "#app/lib/operations-review.server.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = { i18n: ["payments"], breadcrumb: [{ key: "titles.paymentReviews" }] };
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("paymentReviews");

/**
 * Operators: payments held because the provider's signed answer differs from the checkout in amount or
 * currency (docs/decisions/019), to credit the checkout's amount or reject with comments; or all of them.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  return loadMoneyQueue(request, "/ops/paymentReviews/list");
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireOperator(request);
  return decideQueueItem(request, {
    idName: "paymentNo",
    confirm: true,
    machine: paymentReviewMachine,
    decisions: {
      review: queueDecision({
        schema: paymentReviewSchema,
        decide: (review) => apiFor(request, viewer).call("/ops/paymentReviews/review", review),
        flash: (review) =>
          review.decision === "credit"
            ? "payments:ops.paymentReviews.credited"
            : "payments:ops.paymentReviews.rejected",
      }),
    },
  });
}

export default function PaymentReviewsQueue() {
  const { page, status, language } = useLoaderData<typeof loader>();
  const { t } = useTranslation("payments");
  return (
    <div className="space-y-3">
      <p className="max-w-3xl text-sm text-slate-600">{t("ops.paymentReviews.intro")}</p>
      <ReviewQueue
        title={t("ops.paymentReviews.title")}
        status={status}
        page={page}
        empty={t("ops.paymentReviews.empty")}
        language={language}
        noField="paymentNo"
        noOf={(r) => r.paymentNo}
        itemTestId="payment-review"
        itemNoAttribute="data-payment-no"
        labels={{ credit: t("ops.paymentReviews.credit"), reject: t("ops.paymentReviews.reject") }}
        decisionsOf={(r) => eventsFrom(paymentReviewMachine, paymentReviewState(r.review.decision), "operator")}
        badge={(r) => <PaymentStatusBadge status={r.status} payType={r.payType} inReview={r.inReview} />}
        extra={(r) => (
          <dl className="grid grid-cols-[auto_1fr] gap-x-3" data-testid="review-details">
            <dt className="text-slate-500">{t("ops.paymentReviews.reason")}</dt>
            <dd>{t(`ops.paymentReviews.reasons.${r.review.reason}`)}</dd>
            <dt className="text-slate-500">{t("ops.paymentReviews.checkout")}</dt>
            <dd>{formatUsd(r.amountCents, language)}</dd>
            <dt className="text-slate-500">{t("ops.paymentReviews.reported")}</dt>
            <dd data-testid="reported">
              {r.review.reportedAmountCents === null
                ? t("ops.paymentReviews.unknownAmount")
                : formatMinorUnits(r.review.reportedAmountCents, r.review.reportedCurrency ?? "USD", language)}
              {r.review.reportedCurrency ? ` (${r.review.reportedCurrency})` : null}
            </dd>
            <dt className="text-slate-500">{t("ops.paymentReviews.provider")}</dt>
            <dd>
              {r.review.provider} · {formatDate(r.review.createdAt, language, true)}
            </dd>
            {r.review.decision ? (
              <>
                <dt className="text-slate-500">{t("ops.paymentReviews.decisionLabel")}</dt>
                <dd>{t(`ops.paymentReviews.decision.${r.review.decision}`)}</dd>
              </>
            ) : null}
          </dl>
        )}
      />
    </div>
  );
}
