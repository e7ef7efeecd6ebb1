import { date, index, integer, jsonb, pgTable, serial, smallint, text, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "#backend/db/tables.ts";
import { ts, cents } from "#backend/db/columns.ts";

/** The Drizzle tables of the payments domain (migrations: backend/db/migrations). */

/**
 * Payments through the card payment provider or by offline remittance (SPEC §9 Payment methods):
 * recharges of the balance. Status is §4 Payment status.
 */
export const payments = pgTable(
  "payments",
  {
    id: serial("id").primaryKey(),
    paymentNo: text("payment_no").notNull().unique(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    purpose: text("purpose").notNull().default("recharge"),
    amountCents: cents("amount_cents").notNull(),
    /** §9 payment type GT0001-GT0005 (GT0003 and GT0004 bank transfers; docs/decisions/072). */
    payType: text("pay_type").notNull(),
    status: smallint("status").notNull().default(1),
    provider: text("provider"),
    providerRef: text("provider_ref").unique(),
    /** Offline remittance: the payer's bank reference, for the operator to match. */
    remittanceRef: text("remittance_ref"),
    failureReason: text("failure_reason"),
    idempotencyKey: text("idempotency_key"),
    createdAt: ts("created_at").notNull().defaultNow(),
    expiresAt: ts("expires_at").notNull(),
    paidAt: ts("paid_at"),
    reviewedBy: integer("reviewed_by").references(() => users.id),
    reviewedAt: ts("reviewed_at"),
    reviewComments: text("review_comments"),
  },
  (t) => [
    index("payments_user_time").on(t.userId, t.createdAt),
    index("payments_status").on(t.status, t.expiresAt),
    uniqueIndex("payments_user_idempotency").on(t.userId, t.idempotencyKey),
  ],
);

/**
 * Payments held for an operator (docs/decisions/019): a provider said it took an amount or a currency that
 * differs from the checkout. Nothing is credited until an operator credits the checkout's amount or
 * rejects the payment with comments; the row keeps what the provider said and the decision.
 */
export const paymentReviews = pgTable(
  "payment_reviews",
  {
    id: serial("id").primaryKey(),
    paymentId: integer("payment_id")
      .notNull()
      .unique()
      .references(() => payments.id),
    provider: text("provider").notNull(),
    /** The provider's event that brought it (null: learnt from a status request). */
    eventId: text("event_id"),
    /** amount_mismatch | currency_mismatch */
    reason: text("reason").notNull(),
    reportedAmountCents: cents("reported_amount_cents"),
    reportedCurrency: text("reported_currency"),
    createdAt: ts("created_at").notNull().defaultNow(),
    /** credit | reject, once decided. */
    decision: text("decision"),
    decidedBy: integer("decided_by").references(() => users.id),
    decidedAt: ts("decided_at"),
    comments: text("comments"),
  },
  (t) => [index("payment_reviews_open").on(t.decision, t.createdAt)],
);

/** Callbacks received from the payment provider, by its event id: a replayed event is recognised. */
export const providerEvents = pgTable("provider_events", {
  eventId: text("event_id").primaryKey(),
  provider: text("provider").notNull(),
  kind: text("kind").notNull(),
  reference: text("reference").notNull(),
  payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
  receivedAt: ts("received_at").notNull().defaultNow(),
  timesReceived: integer("times_received").notNull().default(1),
});

/**
 * The embedded sandbox card provider's own records (a third party of its own: the portal knows only its
 * API). Checkout sessions for payments and for saving a card.
 */
export const sandboxCheckouts = pgTable("sandbox_checkouts", {
  id: text("id").primaryKey(),
  /** payment | setup */
  mode: text("mode").notNull(),
  /** card | wechat_pay | alipay: the method's own page is simulated (docs/decisions/072). */
  method: text("method").notNull().default("card"),
  merchantRef: text("merchant_ref").notNull(),
  amountCents: cents("amount_cents"),
  currency: text("currency").notNull().default("USD"),
  description: text("description"),
  returnUrl: text("return_url").notNull(),
  callbackUrl: text("callback_url").notNull(),
  /** open | succeeded | declined | expired */
  status: text("status").notNull().default("open"),
  cardBrand: text("card_brand"),
  cardLast4: text("card_last4"),
  cardExpMonth: smallint("card_exp_month"),
  cardExpYear: smallint("card_exp_year"),
  declineReason: text("decline_reason"),
  createdAt: ts("created_at").notNull().defaultNow(),
  expiresAt: ts("expires_at").notNull(),
  completedAt: ts("completed_at"),
  callbackDeliveredAt: ts("callback_delivered_at"),
});

/** SPEC §3 Account card: only the brand and last 4 digits are kept; the provider holds the card. */
export const cards = pgTable("cards", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id),
  brand: text("brand").notNull(),
  last4: text("last4").notNull(),
  expMonth: smallint("exp_month"),
  expYear: smallint("exp_year"),
  providerRef: text("provider_ref").notNull(),
  updatedAt: ts("updated_at").notNull().defaultNow(),
});

/** Withdrawal requests; state is §4 Refund review: 1 pending, 5 not approved, 10 approved, 15 confirmed. */
export const withdrawals = pgTable(
  "withdrawals",
  {
    id: serial("id").primaryKey(),
    withdrawalNo: text("withdrawal_no").notNull().unique(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    amountCents: cents("amount_cents").notNull(),
    state: smallint("state").notNull().default(1),
    idempotencyKey: text("idempotency_key"),
    createdAt: ts("created_at").notNull().defaultNow(),
    reviewedBy: integer("reviewed_by").references(() => users.id),
    reviewedAt: ts("reviewed_at"),
    reviewComments: text("review_comments"),
    /** Approved withdrawals arrive within 7 working days (§9). */
    expectedArrival: date("expected_arrival", { mode: "string" }),
  },
  (t) => [
    index("withdrawals_user_time").on(t.userId, t.createdAt),
    uniqueIndex("withdrawals_user_idempotency").on(t.userId, t.idempotencyKey),
  ],
);
