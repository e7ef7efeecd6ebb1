import billing from "#backend/domains/billing/index.ts";
import { and, asc, count, desc, eq, inArray } from "drizzle-orm";
import type { z } from "zod";
import { Msg } from "#contract/messages.ts";
import {
  BANK_TRANSFER_PAY_TYPES,
  PaymentStatus,
  WithdrawalState,
  type remittanceReviewSchema,
  type withdrawalReviewSchema,
} from "#contract/payments.ts";
import type { pageRequestSchema } from "#contract/platform.ts";
import { users } from "#backend/db/tables.ts";
import { ApiError, fieldError } from "#backend/http/errors.ts";
import type { SignedInContext } from "#backend/http/router.ts";
import { amountParam, pageWindow, toPaymentRecord, toWithdrawalRecord } from "#backend/domains/payments/records.ts";
import { payments, withdrawals } from "#backend/domains/payments/tables.ts";
import { commentsRequiredFor, remittanceMachine, withdrawalMachine } from "#backend/domains/payments/machine.ts";
import { expectedArrival } from "./shared.ts";
import inbox from "#backend/domains/inbox/index.ts";

/* ------------------------------------------------------------------------------------------------
 * Offline remittance queue (operators).
 * ---------------------------------------------------------------------------------------------- */

export async function listRemittances(input: z.output<typeof pageRequestSchema>, { deps }: SignedInContext) {
  const all = input.page.condition.status === "all";
  const where = all
    ? inArray(payments.payType, [...BANK_TRANSFER_PAY_TYPES])
    : and(inArray(payments.payType, [...BANK_TRANSFER_PAY_TYPES]), eq(payments.status, PaymentStatus.IN_PAYMENT));
  const { limit, offset } = pageWindow(input.page);
  const [rows, [{ total }]] = await Promise.all([
    deps.db
      .select({ payment: payments, userName: users.userName, realName: users.realName })
      .from(payments)
      .innerJoin(users, eq(users.id, payments.userId))
      .where(where)
      .orderBy(all ? desc(payments.createdAt) : asc(payments.createdAt), asc(payments.id))
      .limit(limit)
      .offset(offset),
    deps.db.select({ total: count() }).from(payments).where(where),
  ]);
  return {
    page: {
      rows: rows.map((r) => ({ ...toPaymentRecord(r.payment), userName: r.userName, realName: r.realName })),
      total,
      pageIndex: input.page.pageIndex,
      pageSize: input.page.pageSize,
    },
  };
}

export async function reviewRemittance(
  input: z.output<typeof remittanceReviewSchema>,
  { deps, user }: SignedInContext,
) {
  const operator = user;
  if (commentsRequiredFor(remittanceMachine, input.decision, "operator") && !input.comments)
    throw fieldError("comments", "payments:validation.commentsRequired", Msg.COMMENTS_REQUIRED);
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const [payment] = await tx
      .select()
      .from(payments)
      .where(and(eq(payments.paymentNo, input.paymentNo), inArray(payments.payType, [...BANK_TRANSFER_PAY_TYPES])))
      .for("update");
    if (!payment) throw new ApiError(Msg.NOT_FOUND);
    const decided = remittanceMachine.transition(payment.status, input.decision, "operator", {
      comments: input.comments,
    });
    if (!decided.ok) throw new ApiError(decided.messageKey);
    const review = { reviewedBy: operator.id, reviewedAt: now, reviewComments: input.comments ?? null };
    const params = {
      paymentNo: payment.paymentNo,
      amount: amountParam(payment.amountCents),
      comments: input.comments ?? "",
    };
    if (input.decision === "confirm") {
      await billing.api.post(
        tx,
        {
          userId: payment.userId,
          kind: "recharge",
          amountCents: payment.amountCents,
          refType: "payment",
          refId: payment.id,
          idempotencyKey: `payment:${payment.id}`,
        },
        now,
      );
      await tx
        .update(payments)
        .set({ ...review, status: decided.to, paidAt: now })
        .where(eq(payments.id, payment.id));
      await inbox.api.notify(tx, { userId: payment.userId, textKey: "messages.remittanceConfirmed", params, at: now });
    } else {
      await tx
        .update(payments)
        .set({ ...review, status: decided.to, failureReason: "rejected" })
        .where(eq(payments.id, payment.id));
      await inbox.api.notify(tx, { userId: payment.userId, textKey: "messages.remittanceRejected", params, at: now });
    }
  });
  return null;
}

/** Operators: requests still to decide or to pay out (states 1 and 10), or every request. */
export async function listWithdrawalQueue(input: z.output<typeof pageRequestSchema>, { deps }: SignedInContext) {
  const all = input.page.condition.status === "all";
  const where = all ? undefined : inArray(withdrawals.state, [WithdrawalState.PENDING, WithdrawalState.APPROVED]);
  const { limit, offset } = pageWindow(input.page);
  const [rows, [{ total }]] = await Promise.all([
    deps.db
      .select({ withdrawal: withdrawals, userName: users.userName, realName: users.realName })
      .from(withdrawals)
      .innerJoin(users, eq(users.id, withdrawals.userId))
      .where(where)
      .orderBy(all ? desc(withdrawals.createdAt) : asc(withdrawals.createdAt), asc(withdrawals.id))
      .limit(limit)
      .offset(offset),
    deps.db.select({ total: count() }).from(withdrawals).where(where),
  ]);
  return {
    page: {
      rows: rows.map((r) => ({ ...toWithdrawalRecord(r.withdrawal), userName: r.userName, realName: r.realName })),
      total,
      pageIndex: input.page.pageIndex,
      pageSize: input.page.pageSize,
    },
  };
}

/**
 * Operators decide (SPEC §4 Refund review): approve 1 → 10 with the expected arrival; reject 1 → 5 with
 * required comments (MSG_30014), the held money released; confirm 10 → 15 once paid out.
 */
export async function reviewWithdrawal(
  input: z.output<typeof withdrawalReviewSchema>,
  { deps, user }: SignedInContext,
) {
  const operator = user;
  if (commentsRequiredFor(withdrawalMachine, input.decision, "operator") && !input.comments)
    throw fieldError("comments", "payments:validation.commentsRequired", Msg.COMMENTS_REQUIRED);
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(withdrawals)
      .where(eq(withdrawals.withdrawalNo, input.withdrawalNo))
      .for("update");
    if (!row) throw new ApiError(Msg.NOT_FOUND);
    const decided = withdrawalMachine.transition(row.state, input.decision, "operator", { comments: input.comments });
    if (!decided.ok) throw new ApiError(decided.messageKey);
    const review = {
      reviewedBy: operator.id,
      reviewedAt: now,
      reviewComments: input.comments ?? row.reviewComments ?? null,
    };
    const params = {
      withdrawalNo: row.withdrawalNo,
      amount: amountParam(row.amountCents),
      comments: input.comments ?? "",
    };
    if (input.decision === "approve") {
      const arrival = expectedArrival(now);
      await tx
        .update(withdrawals)
        .set({ ...review, state: decided.to, expectedArrival: arrival })
        .where(eq(withdrawals.id, row.id));
      await inbox.api.notify(tx, {
        userId: row.userId,
        textKey: "messages.withdrawalApproved",
        params: { ...params, arrival },
        at: now,
      });
    } else if (input.decision === "reject") {
      await billing.api.post(
        tx,
        {
          userId: row.userId,
          kind: "withdrawal_release",
          amountCents: row.amountCents,
          refType: "withdrawal",
          refId: row.id,
          idempotencyKey: `withdrawal-release:${row.id}`,
        },
        now,
      );
      await tx
        .update(withdrawals)
        .set({ ...review, state: decided.to })
        .where(eq(withdrawals.id, row.id));
      await inbox.api.notify(tx, { userId: row.userId, textKey: "messages.withdrawalRejected", params, at: now });
    } else {
      await tx
        .update(withdrawals)
        .set({ ...review, state: decided.to })
        .where(eq(withdrawals.id, row.id));
      await inbox.api.notify(tx, { userId: row.userId, textKey: "messages.withdrawalConfirmed", params, at: now });
    }
  });
  return null;
}
