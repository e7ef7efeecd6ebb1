import { asc, count, desc, eq, isNull } from "drizzle-orm";
import type { z } from "zod";
import { Msg } from "#contract/messages.ts";
import { PaymentStatus, type paymentReviewSchema } from "#contract/payments.ts";
import type { pageRequestSchema } from "#contract/platform.ts";
import { users } from "#backend/db/tables.ts";
import { ApiError, fieldError } from "#backend/http/errors.ts";
import type { SignedInContext } from "#backend/http/router.ts";
import { amountParam, pageWindow, toPaymentRecord } from "./records.ts";
import { commentsRequiredFor, paymentReviewMachine, paymentReviewState } from "./machine.ts";
import { creditPayment } from "./settle.ts";
import { paymentReviews, payments } from "./tables.ts";
import inbox from "#backend/domains/inbox/index.ts";

/**
 * The operations queue of payments held for review (docs/decisions/019): a provider's signed word whose
 * amount or currency differs from the checkout. An operator credits the checkout's amount or rejects the
 * payment with comments; the decision is kept on the review row and on the payment, and the user is told.
 */

export async function listPaymentReviews(input: z.output<typeof pageRequestSchema>, { deps }: SignedInContext) {
  const all = input.page.condition.status === "all";
  const where = all ? undefined : isNull(paymentReviews.decision);
  const { limit, offset } = pageWindow(input.page);
  const [rows, [{ total }]] = await Promise.all([
    deps.db
      .select({ review: paymentReviews, payment: payments, userName: users.userName, realName: users.realName })
      .from(paymentReviews)
      .innerJoin(payments, eq(payments.id, paymentReviews.paymentId))
      .innerJoin(users, eq(users.id, payments.userId))
      .where(where)
      .orderBy(all ? desc(paymentReviews.createdAt) : asc(paymentReviews.createdAt), asc(paymentReviews.id))
      .limit(limit)
      .offset(offset),
    deps.db.select({ total: count() }).from(paymentReviews).where(where),
  ]);
  return {
    page: {
      rows: rows.map(({ review, payment, userName, realName }) => ({
        ...toPaymentRecord(payment, review.decision === null),
        userName,
        realName,
        review: {
          provider: review.provider,
          reason: review.reason === "currency_mismatch" ? ("currency_mismatch" as const) : ("amount_mismatch" as const),
          reportedAmountCents: review.reportedAmountCents,
          reportedCurrency: review.reportedCurrency,
          createdAt: review.createdAt.toISOString(),
          decision: review.decision === "credit" || review.decision === "reject" ? review.decision : null,
          decidedAt: review.decidedAt?.toISOString() ?? null,
          comments: review.comments,
        },
      })),
      total,
      pageIndex: input.page.pageIndex,
      pageSize: input.page.pageSize,
    },
  };
}

/** Credit: the checkout's own amount, once (ledger key `payment:<id>`). Reject: failed, comments required (MSG_30014). */
export async function reviewPayment(input: z.output<typeof paymentReviewSchema>, { deps, user }: SignedInContext) {
  const operator = user;
  if (commentsRequiredFor(paymentReviewMachine, input.decision, "operator") && !input.comments)
    throw fieldError("comments", "payments:validation.commentsRequired", Msg.COMMENTS_REQUIRED);
  const now = deps.now();
  const comments = input.comments ?? null;
  await deps.db.transaction(async (tx) => {
    const [payment] = await tx.select().from(payments).where(eq(payments.paymentNo, input.paymentNo)).for("update");
    if (!payment) throw new ApiError(Msg.NOT_FOUND);
    const [review] = await tx
      .select()
      .from(paymentReviews)
      .where(eq(paymentReviews.paymentId, payment.id))
      .for("update");
    if (!review) throw new ApiError(Msg.NOT_FOUND);
    const decided = paymentReviewMachine.transition(paymentReviewState(review.decision), input.decision, "operator", {
      comments,
    });
    if (!decided.ok) throw new ApiError(decided.messageKey);
    await tx
      .update(paymentReviews)
      .set({ decision: input.decision, decidedBy: operator.id, decidedAt: now, comments })
      .where(eq(paymentReviews.id, review.id));
    const reviewed = { reviewedBy: operator.id, reviewedAt: now, reviewComments: comments };
    if (input.decision === "credit") {
      await creditPayment(
        tx,
        payment,
        now,
        { key: "messages.rechargeReviewCredited", params: { comments: comments ?? "" } },
        reviewed,
      );
    } else {
      await tx
        .update(payments)
        .set({ ...reviewed, status: PaymentStatus.FAILED, failureReason: "review_rejected" })
        .where(eq(payments.id, payment.id));
      await inbox.api.notify(tx, {
        userId: payment.userId,
        textKey: "messages.rechargeReviewRejected",
        params: { paymentNo: payment.paymentNo, amount: amountParam(payment.amountCents), comments: comments ?? "" },
        at: now,
      });
    }
  });
  return null;
}
