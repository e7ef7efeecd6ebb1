import billing from "#backend/domains/billing/index.ts";
import { TZDate } from "@date-fns/tz";
import { addBusinessDays, format } from "date-fns";
import { and, asc, count, desc, eq, inArray, isNull } from "drizzle-orm";
import type { z } from "zod";
import { Msg } from "#contract/messages.ts";
import {
  OFFLINE_PAY_TYPE,
  PAYMENT_OPEN_MINUTES,
  PaymentStatus,
  REMITTANCE_OPEN_DAYS,
  WITHDRAWAL_WORKING_DAYS,
  WithdrawalState,
  type callbackSchema,
  type rechargeSchema,
  type remittanceReviewSchema,
  type withdrawalReviewSchema,
  type withdrawSchema,
} from "#contract/payments.ts";
import type { pageRequestSchema } from "#contract/platform.ts";
import { toCents } from "#contract/rules.ts";
import type { Db } from "#backend/db/client.ts";
import { users } from "#backend/db/tables.ts";
import type { Deps } from "#backend/deps.ts";
import { ApiError, fieldError } from "#backend/http/errors.ts";
import type { CallContext, SignedInContext } from "#backend/http/router.ts";
import { schedule, type JobEntry, type JobHandler, type JobOwner } from "#backend/jobs/runner.ts";
import { CallbackRejected, verifyCallback } from "./checkout.ts";
import { callbackSecret, providerFor } from "./provider.ts";
import {
  amountParam,
  notify,
  pageWindow,
  recordNo,
  toPaymentRecord,
  toWithdrawalRecord,
  type PaymentRow,
} from "./records.ts";
import { applyCheckoutState, expirePayment, inReview, receiveProviderEvent, reviewOf } from "./settle.ts";
import { cards, paymentReviews, payments, withdrawals } from "./tables.ts";

const MINUTE = 60 * 1000;

const DAY = 24 * 60 * MINUTE;

/** SPEC §4 "Status refreshes within 10 minutes after payment": the provider is asked after 5 and 10 minutes. */
const POLL_AFTER_MINUTES = [5, 10];

export const RECHARGE_RETURN_PATH = "/g/home/userCenter/MyAccount/Recharge/Return";

export const CARD_PAGE_PATH = "/g/home/userCenter/MyAccount/Update";

function callbackUrl(services: Deps) {
  return `${services.env.publicUrl}/vueapi/pay/callback`;
}

async function findByKey(services: Deps, userId: number, key: string) {
  const [row] = await services.db
    .select()
    .from(payments)
    .where(and(eq(payments.userId, userId), eq(payments.idempotencyKey, key)))
    .limit(1);
  return row;
}

/** A recharge as created (or found again by its idempotency key), with the way to its open checkout. */
async function answer(services: Deps, row: PaymentRow) {
  const open = row.status === PaymentStatus.IN_PAYMENT && row.payType !== OFFLINE_PAY_TYPE && row.providerRef;
  let redirectUrl: string | null = null;
  if (open) {
    try {
      redirectUrl = await providerFor(services).checkoutUrl(row.providerRef!);
    } catch (error) {
      // The payment is shown without the way back to its checkout; its status still comes in.
      console.warn(
        `payment provider did not give the checkout of ${row.paymentNo}:`,
        error instanceof Error ? error.message : error,
      );
    }
  }
  return { payment: toPaymentRecord(row, await inReview(services.db, row.id)), redirectUrl };
}

/**
 * POST /sys/account/recharge (SPEC §5 Money, §9 Payment methods). Provider types (GT0001-GT0003) create
 * a payment "in payment" and a provider checkout the browser is sent to; GT0004 records an offline
 * remittance awaiting an operator. The idempotency key makes a double submit one payment.
 */
export async function createRecharge(input: z.output<typeof rechargeSchema>, { services, user }: SignedInContext) {
  const me = user;
  const amountCents = toCents(input.amount);
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0)
    throw fieldError("amount", "validation.amount.positive", Msg.AMOUNT_INVALID);
  const replay = await findByKey(services, me.id, input.idempotencyKey);
  if (replay) return answer(services, replay);
  const now = services.now();
  const offline = input.payType === OFFLINE_PAY_TYPE;
  const expiresAt = new Date(now.getTime() + (offline ? REMITTANCE_OPEN_DAYS * DAY : PAYMENT_OPEN_MINUTES * MINUTE));
  const created = await services.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(payments)
      .values({
        paymentNo: recordNo("RC", now),
        userId: me.id,
        purpose: "recharge",
        amountCents,
        payType: input.payType,
        status: PaymentStatus.IN_PAYMENT,
        provider: offline ? null : providerFor(services).name,
        remittanceRef: offline ? (input.remittanceRef ?? null) : null,
        idempotencyKey: input.idempotencyKey,
        createdAt: now,
        expiresAt,
      })
      .onConflictDoNothing()
      .returning();
    if (!row) return undefined;
    await schedule(
      tx,
      "payments.expire",
      { paymentId: row.id },
      { runAt: expiresAt, dedupeKey: `payments.expire:${row.id}` },
    );
    if (!offline) {
      for (const minutes of POLL_AFTER_MINUTES) {
        await schedule(
          tx,
          "payments.poll",
          { paymentId: row.id },
          { runAt: new Date(now.getTime() + minutes * MINUTE), dedupeKey: `payments.poll:${row.id}:${minutes}` },
        );
      }
    }
    return row;
  });
  // A concurrent submit with the same key won the insert: answer its payment.
  if (!created) return answer(services, (await findByKey(services, me.id, input.idempotencyKey))!);
  if (offline) return answer(services, created);
  try {
    const checkout = await providerFor(services).createCheckout({
      mode: "payment",
      merchantRef: created.paymentNo,
      amountCents,
      description: `Balance recharge ${created.paymentNo}`,
      returnUrl: `${services.env.publicUrl}${RECHARGE_RETURN_PATH}?paymentNo=${encodeURIComponent(created.paymentNo)}`,
      callbackUrl: callbackUrl(services),
      expiresAt,
    });
    const [row] = await services.db
      .update(payments)
      .set({ providerRef: checkout.reference })
      .where(eq(payments.id, created.id))
      .returning();
    return { payment: toPaymentRecord(row), redirectUrl: checkout.redirectUrl };
  } catch (error) {
    console.error("payment provider refused a checkout", error);
    await services.db
      .update(payments)
      .set({ status: PaymentStatus.FAILED, failureReason: "provider_unavailable" })
      .where(and(eq(payments.id, created.id), eq(payments.status, PaymentStatus.IN_PAYMENT)));
    throw new ApiError(Msg.CREATION_FAILED);
  }
}

/**
 * POST /pay/callback: called by the sandbox provider. Forged or stale → refused and nothing changes; refused
 * too when the sandbox is not this server's provider (docs/decisions/020).
 */
export async function receiveCallback(input: z.output<typeof callbackSchema>, { services }: CallContext) {
  if (services.env.paymentProvider !== "sandbox") throw new ApiError(Msg.CALLBACK_REJECTED);
  let event;
  try {
    event = verifyCallback(callbackSecret(services), input, services.now());
  } catch (error) {
    if (error instanceof CallbackRejected) throw new ApiError(Msg.CALLBACK_REJECTED);
    throw error;
  }
  const status =
    event.type === "checkout.succeeded" ? "succeeded" : event.type === "checkout.declined" ? "declined" : "expired";
  const { duplicate } = await receiveProviderEvent(services, {
    provider: "sandbox",
    eventId: event.id,
    kind: event.type,
    reference: event.data.reference,
    payload: event as unknown as Record<string, unknown>,
    state: { ...event.data, status },
  });
  return { received: true as const, duplicate };
}

/** Asks the provider about one payment still in payment and applies a final answer. */
async function refreshFromProvider(services: Deps, payment: PaymentRow) {
  if (payment.status !== PaymentStatus.IN_PAYMENT || payment.payType === OFFLINE_PAY_TYPE || !payment.providerRef)
    return;
  // Held for an operator: neither the provider nor the clock decides it any more.
  if (await reviewOf(services.db, payment.id)) return;
  const provider = providerFor(services);
  const overdue = payment.expiresAt.getTime() <= services.now().getTime();
  const state = overdue
    ? await provider.expireCheckout(payment.providerRef)
    : await provider.fetchStatus(payment.providerRef);
  if (state && state.status !== "open") {
    await services.db.transaction((tx) =>
      applyCheckoutState(tx, services, state, { provider: provider.name, eventId: null }),
    );
  } else if (!state && overdue) {
    await services.db.transaction(async (tx) => {
      const [locked] = await tx.select().from(payments).where(eq(payments.id, payment.id)).for("update");
      if (locked?.status === PaymentStatus.IN_PAYMENT) await expirePayment(tx, locked, services.now());
    });
  }
}

async function paymentById(services: Deps, id: unknown) {
  const [row] = await services.db
    .select()
    .from(payments)
    .where(eq(payments.id, Number(id)))
    .limit(1);
  return row;
}

const pollPayment: JobHandler = async (payload, services) => {
  const payment = await paymentById(services, payload.paymentId);
  if (payment) await refreshFromProvider(services, payment);
};

/** At its end a payment still in payment expires (§4 status 10); an offline remittance nobody confirmed too. */
const expireJob: JobHandler = async (payload, services) => {
  const payment = await paymentById(services, payload.paymentId);
  if (!payment || payment.status !== PaymentStatus.IN_PAYMENT) return;
  if (payment.payType !== OFFLINE_PAY_TYPE) return refreshFromProvider(services, payment);
  await services.db.transaction(async (tx) => {
    const [locked] = await tx.select().from(payments).where(eq(payments.id, payment.id)).for("update");
    if (locked?.status === PaymentStatus.IN_PAYMENT && locked.expiresAt.getTime() <= services.now().getTime())
      await expirePayment(tx, locked, services.now());
  });
};

/** Whom a payment's job concerns: the payer, told when it dies (docs/decisions/005). */
async function payerOf(payload: Record<string, unknown>, db: Db): Promise<JobOwner | null> {
  const id = Number(payload.paymentId);
  if (!Number.isSafeInteger(id) || id <= 0) return null;
  const [row] = await db
    .select({ userId: payments.userId, paymentNo: payments.paymentNo })
    .from(payments)
    .where(eq(payments.id, id));
  return row ? { userId: row.userId, subject: row.paymentNo } : null;
}

export const paymentJobHandlers: Record<string, JobEntry> = {
  "payments.poll": { run: pollPayment, ownerOf: payerOf },
  "payments.expire": { run: expireJob, ownerOf: payerOf },
};

/** POST /sys/account/payment: one of the caller's own payments (another user's is not found). */
export async function getPayment(input: { paymentNo: string; refresh: boolean }, { services, user }: SignedInContext) {
  const me = user;
  const find = async () =>
    (
      await services.db
        .select()
        .from(payments)
        .where(and(eq(payments.userId, me.id), eq(payments.paymentNo, input.paymentNo)))
        .limit(1)
    )[0];
  let row = await find();
  if (!row) throw new ApiError(Msg.NOT_FOUND);
  if (input.refresh && row.status === PaymentStatus.IN_PAYMENT) {
    await refreshFromProvider(services, row);
    row = (await find())!;
  }
  return {
    payment: toPaymentRecord(row, await inReview(services.db, row.id)),
    totals: await billing.api.totalsOf(services.db, me.id),
  };
}

/** POST /sys/account/rechargeList: the caller's recharge records, newest first, with the wallet totals. */
export async function listRecharges(input: z.output<typeof pageRequestSchema>, { services, user }: SignedInContext) {
  const me = user;
  const where = and(eq(payments.userId, me.id), eq(payments.purpose, "recharge"));
  const { limit, offset } = pageWindow(input.page);
  const [rows, [{ total }], totals] = await Promise.all([
    services.db
      .select({ payment: payments, reviewId: paymentReviews.id })
      .from(payments)
      .leftJoin(paymentReviews, and(eq(paymentReviews.paymentId, payments.id), isNull(paymentReviews.decision)))
      .where(where)
      .orderBy(desc(payments.createdAt), desc(payments.id))
      .limit(limit)
      .offset(offset),
    services.db.select({ total: count() }).from(payments).where(where),
    billing.api.totalsOf(services.db, me.id),
  ]);
  const records = rows.map((r) => toPaymentRecord(r.payment, r.reviewId !== null));
  return { page: { rows: records, total, pageIndex: input.page.pageIndex, pageSize: input.page.pageSize }, totals };
}

/* ------------------------------------------------------------------------------------------------
 * Saved card (SPEC §3 Account card; §2 MyAccount/Update).
 * ---------------------------------------------------------------------------------------------- */

function cardAnswer(row: typeof cards.$inferSelect | undefined) {
  return row
    ? {
        brand: row.brand,
        last4: row.last4,
        expMonth: row.expMonth,
        expYear: row.expYear,
        updatedAt: row.updatedAt.toISOString(),
      }
    : null;
}

export async function startCardSetup(_input: unknown, { services, user }: SignedInContext) {
  const me = user;
  const now = services.now();
  const nonce = `${now.getTime().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  try {
    const checkout = await providerFor(services).createCheckout({
      mode: "setup",
      merchantRef: `card:${me.id}:${nonce}`,
      amountCents: null,
      description: "Card for balance recharges",
      returnUrl: `${services.env.publicUrl}${CARD_PAGE_PATH}?setup={CHECKOUT_ID}`,
      callbackUrl: callbackUrl(services),
      expiresAt: new Date(now.getTime() + PAYMENT_OPEN_MINUTES * MINUTE),
    });
    return { redirectUrl: checkout.redirectUrl };
  } catch (error) {
    console.error("payment provider refused a card setup", error);
    throw new ApiError(Msg.CREATION_FAILED);
  }
}

export async function getCard(input: { setupRef?: string }, { services, user }: SignedInContext) {
  const me = user;
  let setup: "open" | "succeeded" | "declined" | "expired" | "unknown" | null = null;
  if (input.setupRef) {
    const state = await providerFor(services).fetchStatus(input.setupRef);
    // Another user's checkout is as unknown as one that does not exist.
    if (!state || state.mode !== "setup" || !state.merchantRef.startsWith(`card:${me.id}:`)) setup = "unknown";
    else {
      setup = state.status;
      if (state.status !== "open")
        await services.db.transaction((tx) =>
          applyCheckoutState(tx, services, state, { provider: providerFor(services).name, eventId: null }),
        );
    }
  }
  const [row] = await services.db.select().from(cards).where(eq(cards.userId, me.id)).limit(1);
  return { card: cardAnswer(row), setup };
}

/* ------------------------------------------------------------------------------------------------
 * Offline remittance queue (operators).
 * ---------------------------------------------------------------------------------------------- */

export async function listRemittances(input: z.output<typeof pageRequestSchema>, { services }: SignedInContext) {
  const all = input.page.condition.status === "all";
  const where = all
    ? eq(payments.payType, OFFLINE_PAY_TYPE)
    : and(eq(payments.payType, OFFLINE_PAY_TYPE), eq(payments.status, PaymentStatus.IN_PAYMENT));
  const { limit, offset } = pageWindow(input.page);
  const [rows, [{ total }]] = await Promise.all([
    services.db
      .select({ payment: payments, userName: users.userName, realName: users.realName })
      .from(payments)
      .innerJoin(users, eq(users.id, payments.userId))
      .where(where)
      .orderBy(all ? desc(payments.createdAt) : asc(payments.createdAt), asc(payments.id))
      .limit(limit)
      .offset(offset),
    services.db.select({ total: count() }).from(payments).where(where),
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
  { services, user }: SignedInContext,
) {
  const operator = user;
  if (input.decision === "reject" && !input.comments)
    throw fieldError("comments", "payments:validation.commentsRequired", Msg.COMMENTS_REQUIRED);
  const now = services.now();
  await services.db.transaction(async (tx) => {
    const [payment] = await tx
      .select()
      .from(payments)
      .where(and(eq(payments.paymentNo, input.paymentNo), eq(payments.payType, OFFLINE_PAY_TYPE)))
      .for("update");
    if (!payment) throw new ApiError(Msg.NOT_FOUND);
    if (payment.status !== PaymentStatus.IN_PAYMENT) throw new ApiError(Msg.ALREADY_REVIEWED);
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
        .set({ ...review, status: PaymentStatus.PAID, paidAt: now })
        .where(eq(payments.id, payment.id));
      await notify(tx, payment.userId, "messages.remittanceConfirmed", params, now);
    } else {
      await tx
        .update(payments)
        .set({ ...review, status: PaymentStatus.FAILED, failureReason: "rejected" })
        .where(eq(payments.id, payment.id));
      await notify(tx, payment.userId, "messages.remittanceRejected", params, now);
    }
  });
  return null;
}

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
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0)
    throw fieldError("amount", "validation.amount.positive", Msg.AMOUNT_INVALID);
  const now = services.now();
  const existing = async () =>
    (
      await services.db
        .select()
        .from(withdrawals)
        .where(and(eq(withdrawals.userId, me.id), eq(withdrawals.idempotencyKey, input.idempotencyKey)))
        .limit(1)
    )[0];
  const replay = await existing();
  if (replay) return { withdrawal: toWithdrawalRecord(replay) };
  try {
    const created = await services.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(withdrawals)
        .values({
          withdrawalNo: recordNo("WD", now),
          userId: me.id,
          amountCents,
          state: WithdrawalState.PENDING,
          idempotencyKey: input.idempotencyKey,
          createdAt: now,
        })
        .onConflictDoNothing()
        .returning();
      if (!row) return undefined;
      await billing.api.post(
        tx,
        {
          userId: me.id,
          kind: "withdrawal_hold",
          amountCents,
          refType: "withdrawal",
          refId: row.id,
          idempotencyKey: `withdrawal:${row.id}`,
        },
        now,
      );
      return row;
    });
    // A concurrent submit with the same key won: answer its request.
    return { withdrawal: toWithdrawalRecord(created ?? (await existing())!) };
  } catch (error) {
    if (error instanceof ApiError && error.messageKey === Msg.OVER_WITHDRAWABLE) {
      throw new ApiError(Msg.OVER_WITHDRAWABLE, {
        fieldErrors: { amount: [`errors:${Msg.OVER_WITHDRAWABLE}`] },
        ...(error.data as object),
      });
    }
    throw error;
  }
}

export async function listWithdrawals(input: z.output<typeof pageRequestSchema>, { services, user }: SignedInContext) {
  const me = user;
  const where = eq(withdrawals.userId, me.id);
  const { limit, offset } = pageWindow(input.page);
  const [rows, [{ total }], totals] = await Promise.all([
    services.db
      .select()
      .from(withdrawals)
      .where(where)
      .orderBy(desc(withdrawals.createdAt), desc(withdrawals.id))
      .limit(limit)
      .offset(offset),
    services.db.select({ total: count() }).from(withdrawals).where(where),
    billing.api.totalsOf(services.db, me.id),
  ]);
  return {
    page: { rows: rows.map(toWithdrawalRecord), total, pageIndex: input.page.pageIndex, pageSize: input.page.pageSize },
    totals,
  };
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
export async function reviewWithdrawal(
  input: z.output<typeof withdrawalReviewSchema>,
  { services, user }: SignedInContext,
) {
  const operator = user;
  if (input.decision === "reject" && !input.comments)
    throw fieldError("comments", "payments:validation.commentsRequired", Msg.COMMENTS_REQUIRED);
  const now = services.now();
  await services.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(withdrawals)
      .where(eq(withdrawals.withdrawalNo, input.withdrawalNo))
      .for("update");
    if (!row) throw new ApiError(Msg.NOT_FOUND);
    const from = input.decision === "confirm" ? WithdrawalState.APPROVED : WithdrawalState.PENDING;
    if (row.state !== from) throw new ApiError(Msg.ALREADY_REVIEWED);
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
        .set({ ...review, state: WithdrawalState.APPROVED, expectedArrival: arrival })
        .where(eq(withdrawals.id, row.id));
      await notify(tx, row.userId, "messages.withdrawalApproved", { ...params, arrival }, now);
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
        .set({ ...review, state: WithdrawalState.REJECTED })
        .where(eq(withdrawals.id, row.id));
      await notify(tx, row.userId, "messages.withdrawalRejected", params, now);
    } else {
      await tx
        .update(withdrawals)
        .set({ ...review, state: WithdrawalState.CONFIRMED })
        .where(eq(withdrawals.id, row.id));
      await notify(tx, row.userId, "messages.withdrawalConfirmed", params, now);
    }
  });
  return null;
}
