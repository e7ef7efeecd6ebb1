import billing from "#backend/domains/billing/index.ts";
import { and, count, desc, eq, isNull } from "drizzle-orm";
import type { z } from "zod";
import { Msg } from "#contract/messages.ts";
import {
  isBankTransfer,
  NET_BANKING_PAY_TYPE,
  offeredPayTypes,
  PAYMENT_OPEN_MINUTES,
  PaymentStatus,
  REMITTANCE_OPEN_DAYS,
  WithdrawalState,
  type rechargeSchema,
  type withdrawSchema,
} from "#contract/payments.ts";
import type { pageRequestSchema } from "#contract/platform.ts";
import { toCents } from "#contract/rules.ts";
import { providerMethodOf } from "#contract/payments-codes.ts";
import type { Deps } from "#backend/deps.ts";
import { ApiError, fieldError } from "#backend/http/errors.ts";
import type { SignedInContext } from "#backend/http/router.ts";
import { schedule } from "#backend/jobs/runner.ts";
import { providerFor } from "#backend/domains/payments/provider.ts";
import {
  pageWindow,
  recordNo,
  toPaymentRecord,
  toWithdrawalRecord,
  type PaymentRow,
} from "#backend/domains/payments/records.ts";
import { applyCheckoutState, inReview } from "#backend/domains/payments/settle.ts";
import { cards, paymentReviews, payments, withdrawals } from "#backend/domains/payments/tables.ts";
import { POLL_AFTER_MINUTES, refreshFromProvider } from "#backend/domains/payments/jobs.ts";

const MINUTE = 60 * 1000;

const DAY = 24 * 60 * MINUTE;

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
  const open = row.status === PaymentStatus.IN_PAYMENT && !isBankTransfer(row.payType) && row.providerRef;
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

/** The payment types this server offers: its provider's methods (STRIPE_PAYMENT_METHODS) and the bank transfers. */
export function offeredHere(deps: Deps) {
  return offeredPayTypes(deps.env.paymentMethods);
}

/**
 * POST /sys/account/recharge (SPEC §5 Money, §9 Payment methods; docs/decisions/072). Provider types (GT0001
 * WeChat Pay, GT0002 UnionPay card, GT0005 Alipay) create a payment "in payment" and a provider checkout for
 * that one method, where the browser is sent; the bank transfers await an operator: GT0004 an offline
 * remittance with the payer's bank reference, GT0003 enterprise net banking with the payment number as the
 * reference the transfer quotes. A type this server does not offer is refused. The idempotency key makes a
 * double submit one payment.
 */
export async function createRecharge(input: z.output<typeof rechargeSchema>, { deps, user }: SignedInContext) {
  const me = user;
  const amountCents = toCents(input.amount);
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0)
    throw fieldError("amount", "validation.amount.positive", Msg.AMOUNT_INVALID);
  const replay = await findByKey(deps, me.id, input.idempotencyKey);
  if (replay) return answer(deps, replay);
  if (!offeredHere(deps).includes(input.payType)) throw fieldError("payType", "payments:validation.payTypeNotOffered");
  const now = deps.now();
  const offline = isBankTransfer(input.payType);
  const paymentNo = recordNo("RC", now);
  const expiresAt = new Date(now.getTime() + (offline ? REMITTANCE_OPEN_DAYS * DAY : PAYMENT_OPEN_MINUTES * MINUTE));
  const created = await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(payments)
      .values({
        paymentNo,
        userId: me.id,
        purpose: "recharge",
        amountCents,
        payType: input.payType,
        status: PaymentStatus.IN_PAYMENT,
        provider: offline ? null : providerFor(deps).name,
        remittanceRef: !offline
          ? null
          : input.payType === NET_BANKING_PAY_TYPE
            ? paymentNo
            : (input.remittanceRef ?? null),
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
  if (!created) return answer(deps, (await findByKey(deps, me.id, input.idempotencyKey))!);
  if (offline) return answer(deps, created);
  try {
    const checkout = await providerFor(deps).createCheckout({
      mode: "payment",
      method: providerMethodOf(input.payType) ?? "card",
      merchantRef: created.paymentNo,
      amountCents,
      description: `Balance recharge ${created.paymentNo}`,
      returnUrl: `${deps.env.publicUrl}${RECHARGE_RETURN_PATH}?paymentNo=${encodeURIComponent(created.paymentNo)}`,
      callbackUrl: callbackUrl(deps),
      expiresAt,
    });
    const [row] = await deps.db
      .update(payments)
      .set({ providerRef: checkout.reference })
      .where(eq(payments.id, created.id))
      .returning();
    return { payment: toPaymentRecord(row), redirectUrl: checkout.redirectUrl };
  } catch (error) {
    console.error("payment provider refused a checkout", error);
    await deps.db
      .update(payments)
      .set({ status: PaymentStatus.FAILED, failureReason: "provider_unavailable" })
      .where(and(eq(payments.id, created.id), eq(payments.status, PaymentStatus.IN_PAYMENT)));
    throw new ApiError(Msg.CREATION_FAILED);
  }
}

/** POST /sys/account/payment: one of the caller's own payments (another user's is not found). */
export async function getPayment(input: { paymentNo: string; refresh: boolean }, { deps, user }: SignedInContext) {
  const me = user;
  const find = async () =>
    (
      await deps.db
        .select()
        .from(payments)
        .where(and(eq(payments.userId, me.id), eq(payments.paymentNo, input.paymentNo)))
        .limit(1)
    )[0];
  let row = await find();
  if (!row) throw new ApiError(Msg.NOT_FOUND);
  if (input.refresh && row.status === PaymentStatus.IN_PAYMENT) {
    await refreshFromProvider(deps, row);
    row = (await find())!;
  }
  return {
    payment: toPaymentRecord(row, await inReview(deps.db, row.id)),
    totals: await billing.api.totalsOf(deps.db, me.id),
  };
}

/** POST /sys/account/rechargeList: the caller's recharge records, newest first, with the wallet totals. */
export async function listRecharges(input: z.output<typeof pageRequestSchema>, { deps, user }: SignedInContext) {
  const me = user;
  const where = and(eq(payments.userId, me.id), eq(payments.purpose, "recharge"));
  const { limit, offset } = pageWindow(input.page);
  const [rows, [{ total }], totals] = await Promise.all([
    deps.db
      .select({ payment: payments, reviewId: paymentReviews.id })
      .from(payments)
      .leftJoin(paymentReviews, and(eq(paymentReviews.paymentId, payments.id), isNull(paymentReviews.decision)))
      .where(where)
      .orderBy(desc(payments.createdAt), desc(payments.id))
      .limit(limit)
      .offset(offset),
    deps.db.select({ total: count() }).from(payments).where(where),
    billing.api.totalsOf(deps.db, me.id),
  ]);
  const records = rows.map((r) => toPaymentRecord(r.payment, r.reviewId !== null));
  return {
    page: { rows: records, total, pageIndex: input.page.pageIndex, pageSize: input.page.pageSize },
    totals,
    offered: offeredHere(deps),
  };
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

export async function startCardSetup(_input: unknown, { deps, user }: SignedInContext) {
  const me = user;
  const now = deps.now();
  const nonce = `${now.getTime().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  try {
    const checkout = await providerFor(deps).createCheckout({
      mode: "setup",
      method: "card",
      merchantRef: `card:${me.id}:${nonce}`,
      amountCents: null,
      description: "Card for balance recharges",
      returnUrl: `${deps.env.publicUrl}${CARD_PAGE_PATH}?setup={CHECKOUT_ID}`,
      callbackUrl: callbackUrl(deps),
      expiresAt: new Date(now.getTime() + PAYMENT_OPEN_MINUTES * MINUTE),
    });
    return { redirectUrl: checkout.redirectUrl };
  } catch (error) {
    console.error("payment provider refused a card setup", error);
    throw new ApiError(Msg.CREATION_FAILED);
  }
}

export async function getCard(input: { setupRef?: string }, { deps, user }: SignedInContext) {
  const me = user;
  let setup: "open" | "succeeded" | "declined" | "expired" | "unknown" | null = null;
  if (input.setupRef) {
    const state = await providerFor(deps).fetchStatus(input.setupRef);
    // Another user's checkout is as unknown as one that does not exist.
    if (!state || state.mode !== "setup" || !state.merchantRef.startsWith(`card:${me.id}:`)) setup = "unknown";
    else {
      setup = state.status;
      if (state.status !== "open")
        await deps.db.transaction((tx) =>
          applyCheckoutState(tx, deps, state, { provider: providerFor(deps).name, eventId: null }),
        );
    }
  }
  const [row] = await deps.db.select().from(cards).where(eq(cards.userId, me.id)).limit(1);
  return { card: cardAnswer(row), setup };
}

/**
 * POST /sys/account/h5cashOutAmount (SPEC §5 Money): amount > 0 and ≤ withdrawable (MSG_30008). One
 * transaction creates the request (state 1 pending review) and holds the money (ledger withdrawal_hold).
 */
export async function requestWithdrawal(input: z.output<typeof withdrawSchema>, { deps, user }: SignedInContext) {
  const me = user;
  const amountCents = toCents(input.amount);
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0)
    throw fieldError("amount", "validation.amount.positive", Msg.AMOUNT_INVALID);
  const now = deps.now();
  const existing = async () =>
    (
      await deps.db
        .select()
        .from(withdrawals)
        .where(and(eq(withdrawals.userId, me.id), eq(withdrawals.idempotencyKey, input.idempotencyKey)))
        .limit(1)
    )[0];
  const replay = await existing();
  if (replay) return { withdrawal: toWithdrawalRecord(replay) };
  try {
    const created = await deps.db.transaction(async (tx) => {
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

export async function listWithdrawals(input: z.output<typeof pageRequestSchema>, { deps, user }: SignedInContext) {
  const me = user;
  const where = eq(withdrawals.userId, me.id);
  const { limit, offset } = pageWindow(input.page);
  const [rows, [{ total }], totals] = await Promise.all([
    deps.db
      .select()
      .from(withdrawals)
      .where(where)
      .orderBy(desc(withdrawals.createdAt), desc(withdrawals.id))
      .limit(limit)
      .offset(offset),
    deps.db.select({ total: count() }).from(withdrawals).where(where),
    billing.api.totalsOf(deps.db, me.id),
  ]);
  return {
    page: { rows: rows.map(toWithdrawalRecord), total, pageIndex: input.page.pageIndex, pageSize: input.page.pageSize },
    totals,
  };
}
