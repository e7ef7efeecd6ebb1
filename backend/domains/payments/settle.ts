import billing from "#backend/domains/billing/index.ts";
import { and, count, eq, isNull, sql } from "drizzle-orm";
import { PaymentStatus } from "#contract/payments.ts";
import { PLATFORM_CURRENCY } from "#contract/payments-codes.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { messages } from "#backend/db/tables.ts";
import type { Deps } from "#backend/deps.ts";
import type { CheckoutState } from "./checkout.ts";
import { amountParam, type PaymentRow } from "./records.ts";
import { cards, paymentReviews, payments, providerEvents } from "./tables.ts";
import inbox from "#backend/domains/inbox/index.ts";

/**
 * What the payment provider says about a checkout, applied to the merchant's records (docs/decisions/007,
 * 019): from a verified callback or webhook, or from a status request. One function for every provider.
 */

/** Where an outcome came from: the provider, and its event when a callback brought it. */
export type Source = { provider: string; eventId: string | null };

/** The payment's review row, if it ever went to review (then only an operator decides it). */
export async function reviewOf(db: Db | Tx, paymentId: number) {
  const [row] = await db.select().from(paymentReviews).where(eq(paymentReviews.paymentId, paymentId)).limit(1);
  return row;
}

/** Whether the payment waits for an operator's decision (held, not decided yet). */
export async function inReview(db: Db | Tx, paymentId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: paymentReviews.id })
    .from(paymentReviews)
    .where(and(eq(paymentReviews.paymentId, paymentId), isNull(paymentReviews.decision)))
    .limit(1);
  return row !== undefined;
}

/** Credits a payment's own amount once (ledger key `payment:<id>`), marks it paid and tells the user. */
export async function creditPayment(
  tx: Tx,
  payment: PaymentRow,
  now: Date,
  message: { key: string; params?: Record<string, string> },
  review: { reviewedBy: number; reviewedAt: Date; reviewComments: string | null } | null = null,
) {
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
    .set({ status: PaymentStatus.PAID, paidAt: now, failureReason: null, ...review })
    .where(eq(payments.id, payment.id));
  await inbox.api.notify(tx, {
    userId: payment.userId,
    textKey: message.key,
    params: { paymentNo: payment.paymentNo, amount: amountParam(payment.amountCents), ...message.params },
    at: now,
  });
}

/**
 * Holds a payment for an operator: the provider says it took another amount or currency than the checkout
 * asked for. Nothing is credited; the user sees the payment "in review" and gets a message.
 */
async function holdForReview(
  tx: Tx,
  payment: PaymentRow,
  state: CheckoutState,
  reason: "amount_mismatch" | "currency_mismatch",
  source: Source,
  now: Date,
) {
  const [held] = await tx
    .insert(paymentReviews)
    .values({
      paymentId: payment.id,
      provider: source.provider,
      eventId: source.eventId,
      reason,
      reportedAmountCents: state.amountCents,
      reportedCurrency: state.currency,
      createdAt: now,
    })
    .onConflictDoNothing()
    .returning({ id: paymentReviews.id });
  if (!held) return;
  console.warn(
    `payment ${payment.paymentNo} held for review (${reason}): ${source.provider} reported ${state.amountCents ?? "no amount"} ${state.currency ?? "no currency"}, ` +
      `the checkout asked for ${payment.amountCents} ${PLATFORM_CURRENCY} (cents)`,
  );
  await inbox.api.notify(tx, {
    userId: payment.userId,
    textKey: "messages.rechargeInReview",
    params: { paymentNo: payment.paymentNo, amount: amountParam(payment.amountCents) },
    at: now,
  });
}

/**
 * Applies what the provider says about a checkout, in the caller's transaction, under a lock of the payment
 * row. Paid credits the balance once, unless the amount or currency differs from the checkout: then the
 * payment is held for an operator. Declined fails the payment with its reason; closed expires it. A payment
 * that went to review is the operator's to decide: the provider's later word changes nothing.
 */
export async function applyCheckoutState(tx: Tx, services: Deps, state: CheckoutState, source: Source): Promise<void> {
  const now = services.now();
  if (state.mode === "setup") return applyCardSetup(tx, state, now);
  const [payment] = await tx.select().from(payments).where(eq(payments.providerRef, state.reference)).for("update");
  if (!payment || state.status === "open") return;
  if (await reviewOf(tx, payment.id)) return;
  if (state.status === "succeeded") {
    // A payment closed here a moment before the payer finished still gets the money it took.
    if (payment.status !== PaymentStatus.IN_PAYMENT && payment.status !== PaymentStatus.EXPIRED) return;
    if (state.currency !== PLATFORM_CURRENCY)
      return holdForReview(tx, payment, state, "currency_mismatch", source, now);
    if (state.amountCents !== payment.amountCents)
      return holdForReview(tx, payment, state, "amount_mismatch", source, now);
    return creditPayment(tx, payment, now, { key: "messages.rechargePaid" });
  }
  if (payment.status !== PaymentStatus.IN_PAYMENT) return;
  if (state.status === "declined" || state.reason === "canceled") {
    const reason = state.reason ?? "card_declined";
    await tx
      .update(payments)
      .set({ status: PaymentStatus.FAILED, failureReason: reason })
      .where(eq(payments.id, payment.id));
    await inbox.api.notify(tx, {
      userId: payment.userId,
      // SPEC §8 "Payment failed" (MSG_30003) when the provider declined it; a payer's cancel is not a decline.
      textKey: state.status === "declined" ? "messages.paymentFailed" : "messages.rechargeFailed",
      params: { paymentNo: payment.paymentNo, amount: amountParam(payment.amountCents), reason },
      at: now,
    });
    return;
  }
  await expirePayment(tx, payment, now);
}

export async function expirePayment(tx: Tx, payment: PaymentRow, now: Date) {
  await tx
    .update(payments)
    .set({ status: PaymentStatus.EXPIRED, failureReason: "expired" })
    .where(eq(payments.id, payment.id));
  await inbox.api.notify(tx, {
    userId: payment.userId,
    textKey: "messages.rechargeExpired",
    params: { paymentNo: payment.paymentNo, amount: amountParam(payment.amountCents) },
    at: now,
  });
}

/** A card setup for `card:<userId>:<nonce>`: keep only brand, last 4 digits, expiry and the provider reference. */
async function applyCardSetup(tx: Tx, state: CheckoutState, now: Date) {
  const userId = Number(state.merchantRef.match(/^card:([0-9]+):/)?.[1]);
  if (!Number.isSafeInteger(userId) || userId <= 0) return;
  if (state.status === "succeeded" && state.card) {
    const [current] = await tx.select().from(cards).where(eq(cards.userId, userId)).for("update");
    if (current?.providerRef === state.reference) return;
    const values = {
      brand: state.card.brand,
      last4: state.card.last4,
      expMonth: state.card.expMonth,
      expYear: state.card.expYear,
      providerRef: state.reference,
      updatedAt: now,
    };
    await tx
      .insert(cards)
      .values({ userId, ...values })
      .onConflictDoUpdate({ target: cards.userId, set: values });
    await inbox.api.notify(tx, {
      userId,
      textKey: "messages.cardSaved",
      params: { brand: state.card.brand, last4: state.card.last4 },
      at: now,
    });
  } else if (state.status === "declined") {
    // Told once per checkout: the callback and a status refresh may both bring the outcome.
    const [told] = await tx
      .select({ n: count() })
      .from(messages)
      .where(
        and(
          eq(messages.userId, userId),
          eq(messages.textKey, "messages.cardDeclined"),
          sql`${messages.params}->>'ref' = ${state.reference}`,
        ),
      );
    if (told.n === 0)
      await inbox.api.notify(tx, {
        userId,
        textKey: "messages.cardDeclined",
        params: { reason: state.reason ?? "card_declined", ref: state.reference },
        at: now,
      });
  }
}

/**
 * A verified provider event: recorded by its id (a replay counts up `times_received`) and applied, in one
 * transaction. Crediting is idempotent, so a replayed event credits once.
 */
export async function receiveProviderEvent(
  services: Deps,
  event: {
    provider: string;
    eventId: string;
    kind: string;
    reference: string;
    payload: Record<string, unknown>;
    state: CheckoutState;
  },
): Promise<{ duplicate: boolean }> {
  const now = services.now();
  return services.db.transaction(async (tx) => {
    const [logged] = await tx
      .insert(providerEvents)
      .values({
        eventId: event.eventId,
        provider: event.provider,
        kind: event.kind,
        reference: event.reference,
        payload: event.payload,
        receivedAt: now,
      })
      .onConflictDoUpdate({
        target: providerEvents.eventId,
        set: { timesReceived: sql`${providerEvents.timesReceived} + 1` },
      })
      .returning({ timesReceived: providerEvents.timesReceived });
    await applyCheckoutState(tx, services, event.state, { provider: event.provider, eventId: event.eventId });
    return { duplicate: logged.timesReceived > 1 };
  });
}

/**
 * A declined attempt inside a checkout that stays open (Stripe's `payment_intent.payment_failed`: the payer may
 * try another card until the session closes): recorded by its event id, and the payer is told "Payment failed"
 * (SPEC §8, MSG_30003) once per event. The payment stays in payment; the session's own outcome settles it.
 */
export async function receiveDeclinedAttempt(
  services: Deps,
  event: {
    provider: string;
    eventId: string;
    kind: string;
    merchantRef: string;
    reason: string;
    payload: Record<string, unknown>;
  },
): Promise<{ duplicate: boolean }> {
  const now = services.now();
  return services.db.transaction(async (tx) => {
    const [payment] = await tx.select().from(payments).where(eq(payments.paymentNo, event.merchantRef)).for("update");
    const [logged] = await tx
      .insert(providerEvents)
      .values({
        eventId: event.eventId,
        provider: event.provider,
        kind: event.kind,
        reference: payment?.providerRef ?? event.merchantRef,
        payload: event.payload,
        receivedAt: now,
      })
      .onConflictDoUpdate({
        target: providerEvents.eventId,
        set: { timesReceived: sql`${providerEvents.timesReceived} + 1` },
      })
      .returning({ timesReceived: providerEvents.timesReceived });
    const duplicate = logged.timesReceived > 1;
    if (!duplicate && payment && payment.status === PaymentStatus.IN_PAYMENT)
      await inbox.api.notify(tx, {
        userId: payment.userId,
        textKey: "messages.paymentFailed",
        params: { paymentNo: payment.paymentNo, amount: amountParam(payment.amountCents), reason: event.reason },
        at: now,
      });
    return { duplicate };
  });
}
