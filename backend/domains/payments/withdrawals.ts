import { TZDate } from "@date-fns/tz";
import { addBusinessDays, format } from "date-fns";
import { and, asc, count, desc, eq, inArray } from "drizzle-orm";
import type { z } from "zod";
import { Msg } from "../../../contract/messages";
import { WITHDRAWAL_WORKING_DAYS, WithdrawalState, type withdrawalReviewSchema, type withdrawSchema } from "../../../contract/payments";
import type { pageRequestSchema } from "../../../contract/platform";
import { toCents } from "../../../contract/rules";
import { post, totalsOf } from "../billing/ledger";
import { users } from "../../db/tables";
import { withdrawals } from "./tables";
import { ApiError, fieldError } from "../../http/errors";
import type { SignedInContext } from "../../http/router";
import { amountParam, notify, pageWindow, recordNo, toWithdrawalRecord } from "./records";

/** Calendar days are those of UTC+8, as shown (SPEC §9 Dates). */
const TIME_ZONE = "Asia/Shanghai";

/** SPEC §9: an approved withdrawal arrives within 7 working days (Monday to Friday). */
export function expectedArrival(now: Date): string {
  return format(addBusinessDays(new TZDate(now.getTime(), TIME_ZONE), WITHDRAWAL_WORKING_DAYS), "yyyy-MM-dd");
}

/**
 * POST /sys/account/h5cashOutAmount (SPEC §5 Money): amount > 0 and ≤ withdrawable (MSG_30008). One
 * transaction creates the request (state 1 pending review) and holds the money (ledger withdrawal_hold).
 */
export async function requestWithdrawal(input: z.output<typeof withdrawSchema>, { services, user }: SignedInContext) {
  const me = user;
  const amountCents = toCents(input.amount);
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0) throw fieldError("amount", "validation.amount.positive", Msg.AMOUNT_INVALID);
  const now = services.now();
  const existing = async () =>
    (await services.db.select().from(withdrawals).where(and(eq(withdrawals.userId, me.id), eq(withdrawals.idempotencyKey, input.idempotencyKey))).limit(1))[0];
  const replay = await existing();
  if (replay) return { withdrawal: toWithdrawalRecord(replay) };
  try {
    const created = await services.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(withdrawals)
        .values({ withdrawalNo: recordNo("WD", now), userId: me.id, amountCents, state: WithdrawalState.PENDING, idempotencyKey: input.idempotencyKey, createdAt: now })
        .onConflictDoNothing()
        .returning();
      if (!row) return undefined;
      await post(tx, { userId: me.id, kind: "withdrawal_hold", amountCents, refType: "withdrawal", refId: row.id, idempotencyKey: `withdrawal:${row.id}` }, now);
      return row;
    });
    // A concurrent submit with the same key won: answer its request.
    return { withdrawal: toWithdrawalRecord(created ?? (await existing())!) };
  } catch (error) {
    if (error instanceof ApiError && error.messageKey === Msg.OVER_WITHDRAWABLE) {
      throw new ApiError(Msg.OVER_WITHDRAWABLE, { fieldErrors: { amount: [`errors:${Msg.OVER_WITHDRAWABLE}`] }, ...(error.data as object) });
    }
    throw error;
  }
}

export async function listWithdrawals(input: z.output<typeof pageRequestSchema>, { services, user }: SignedInContext) {
  const me = user;
  const where = eq(withdrawals.userId, me.id);
  const { limit, offset } = pageWindow(input.page);
  const [rows, [{ total }], totals] = await Promise.all([
    services.db.select().from(withdrawals).where(where).orderBy(desc(withdrawals.createdAt), desc(withdrawals.id)).limit(limit).offset(offset),
    services.db.select({ total: count() }).from(withdrawals).where(where),
    totalsOf(services.db, me.id),
  ]);
  return { page: { rows: rows.map(toWithdrawalRecord), total, pageIndex: input.page.pageIndex, pageSize: input.page.pageSize }, totals };
}

/** Operators: requests still to decide or to pay out (states 1 and 10), or every request. */
export async function listWithdrawalQueue(input: z.output<typeof pageRequestSchema>, { services }: SignedInContext) {
  const all = input.page.condition.status === "all";
  const where = all ? undefined : inArray(withdrawals.state, [WithdrawalState.PENDING, WithdrawalState.APPROVED]);
  const { limit, offset } = pageWindow(input.page);
  const [rows, [{ total }]] = await Promise.all([
    services.db
      .select({ withdrawal: withdrawals, userName: users.userName, realName: users.realName })
      .from(withdrawals)
      .innerJoin(users, eq(users.id, withdrawals.userId))
      .where(where)
      .orderBy(all ? desc(withdrawals.createdAt) : asc(withdrawals.createdAt), asc(withdrawals.id))
      .limit(limit)
      .offset(offset),
    services.db.select({ total: count() }).from(withdrawals).where(where),
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
export async function reviewWithdrawal(input: z.output<typeof withdrawalReviewSchema>, { services, user }: SignedInContext) {
  const operator = user;
  if (input.decision === "reject" && !input.comments) throw fieldError("comments", "payments:validation.commentsRequired", Msg.COMMENTS_REQUIRED);
  const now = services.now();
  await services.db.transaction(async (tx) => {
    const [row] = await tx.select().from(withdrawals).where(eq(withdrawals.withdrawalNo, input.withdrawalNo)).for("update");
    if (!row) throw new ApiError(Msg.NOT_FOUND);
    const from = input.decision === "confirm" ? WithdrawalState.APPROVED : WithdrawalState.PENDING;
    if (row.state !== from) throw new ApiError(Msg.ALREADY_REVIEWED);
    const review = { reviewedBy: operator.id, reviewedAt: now, reviewComments: input.comments ?? row.reviewComments ?? null };
    const params = { withdrawalNo: row.withdrawalNo, amount: amountParam(row.amountCents), comments: input.comments ?? "" };
    if (input.decision === "approve") {
      const arrival = expectedArrival(now);
      await tx.update(withdrawals).set({ ...review, state: WithdrawalState.APPROVED, expectedArrival: arrival }).where(eq(withdrawals.id, row.id));
      await notify(tx, row.userId, "messages.withdrawalApproved", { ...params, arrival }, now);
    } else if (input.decision === "reject") {
      await post(tx, { userId: row.userId, kind: "withdrawal_release", amountCents: row.amountCents, refType: "withdrawal", refId: row.id, idempotencyKey: `withdrawal-release:${row.id}` }, now);
      await tx.update(withdrawals).set({ ...review, state: WithdrawalState.REJECTED }).where(eq(withdrawals.id, row.id));
      await notify(tx, row.userId, "messages.withdrawalRejected", params, now);
    } else {
      await tx.update(withdrawals).set({ ...review, state: WithdrawalState.CONFIRMED }).where(eq(withdrawals.id, row.id));
      await notify(tx, row.userId, "messages.withdrawalConfirmed", params, now);
    }
  });
  return null;
}
