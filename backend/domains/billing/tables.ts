import {
  bigint,
  bigserial,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { users, cityNodes } from "#backend/db/tables.ts";
import { ts, cents } from "#backend/db/columns.ts";

/** The Drizzle tables of the billing domain (migrations: backend/db/migrations). */

/**
 * The ledger's running totals, one row per user. Always equal to the sums of the user's ledger deltas
 * (backend/domains/billing/ledger.ts writes both in one transaction; a test checks they agree).
 */
export const wallets = pgTable(
  "wallets",
  {
    userId: integer("user_id")
      .primaryKey()
      .references(() => users.id),
    balanceCents: cents("balance_cents").notNull().default(0),
    withdrawableCents: cents("withdrawable_cents").notNull().default(0),
    invoiceableCents: cents("invoiceable_cents").notNull().default(0),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    check("wallets_balance_nonneg", sql`${t.balanceCents} >= 0`),
    check(
      "wallets_withdrawable_range",
      sql`${t.withdrawableCents} >= 0 AND ${t.withdrawableCents} <= ${t.balanceCents}`,
    ),
    check("wallets_invoiceable_nonneg", sql`${t.invoiceableCents} >= 0`),
  ],
);

/** One ledger: every change of balance, withdrawable or invoiceable amount is an entry here. */
export const ledgerEntries = pgTable(
  "ledger_entries",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    /** recharge | bill_payment | refund | withdrawal_hold | withdrawal_release | invoice_hold | invoice_release | grant */
    kind: text("kind").notNull(),
    balanceDelta: cents("balance_delta").notNull(),
    withdrawableDelta: cents("withdrawable_delta").notNull(),
    invoiceableDelta: cents("invoiceable_delta").notNull(),
    balanceAfter: cents("balance_after").notNull(),
    withdrawableAfter: cents("withdrawable_after").notNull(),
    invoiceableAfter: cents("invoiceable_after").notNull(),
    /** What the entry is about: bill, payment, withdrawal, invoice. */
    refType: text("ref_type").notNull(),
    refId: integer("ref_id").notNull(),
    /** A caller-supplied key: the same operation submitted twice writes one entry. */
    idempotencyKey: text("idempotency_key"),
    /** The member whose action in the account's name made the entry (docs/decisions/080); null: the account's own or a job's. */
    memberUserId: integer("member_user_id").references(() => users.id),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [
    index("ledger_user_time").on(t.userId, t.createdAt),
    index("ledger_member_time").on(t.userId, t.memberUserId, t.createdAt),
    uniqueIndex("ledger_user_idempotency").on(t.userId, t.idempotencyKey),
    index("ledger_ref").on(t.refType, t.refId),
  ],
);

/** Usage detail of a bill (SPEC §3 Bill): data usage per city node and resource usage. */
export type BillDetail = {
  dataUsage?: { nodeCode: string; usedGb: number; pricePerGbCents: number; amountCents: number }[];
  resources?: {
    nodeCode: string;
    tps: number;
    capacityGb: number;
    peers: number;
    monthlyPriceCents: number;
    yearlyPriceCents: number;
    amountCents: number;
  }[];
  nodeCount?: number;
  hostConfiguration?: string;
  dataCapacityGb?: number;
  cloudPlatform?: string;
  region?: string;
};

/** SPEC §3 Bill; types of §9 (1 publish, 2 config upgrade, 15 recharge, 25 withdrawal, 30 refund, ...). */
export const bills = pgTable(
  "bills",
  {
    id: serial("id").primaryKey(),
    billNo: text("bill_no").notNull().unique(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    /** The service (app) the bill is for, when there is one. */
    appId: integer("app_id"),
    serviceName: text("service_name").notNull(),
    billType: smallint("bill_type").notNull(),
    /** §4 Payment status: 1 unpaid, 2 in payment, 5 failed, 10 expired, 15 paid, 20 all refunded, 25 partly refunded. */
    payState: smallint("pay_state").notNull().default(1),
    /** 1 prepaid (resource fees, first period on creation), 2 postpaid (by actual use, weekly). */
    payMode: smallint("pay_mode").notNull(),
    /** How it was paid: BALANCE, or a §9 payment type GT0001-GT0004. */
    payType: text("pay_type"),
    /** §4 Payment cycle: 1 yearly, 2 monthly, 99 weekly. */
    cycle: smallint("cycle").notNull(),
    periodStart: ts("period_start").notNull(),
    periodEnd: ts("period_end").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
    /** Pay before this; after it an unpaid bill expires (§4 status 10) or, for usage, blocks (§5). */
    deadline: ts("deadline").notNull(),
    /** When the resources of an unpaid bill are released. */
    releaseTime: ts("release_time"),
    paidAt: ts("paid_at"),
    totalCents: cents("total_cents").notNull(),
    payCents: cents("pay_cents").notNull(),
    refundNo: text("refund_no"),
    refundCents: cents("refund_cents").notNull().default(0),
    /** §4 Invoicing status: 1 not invoiced, 2 in progress, 5 invoiced. */
    invoiceState: smallint("invoice_state").notNull().default(1),
    detail: jsonb("detail").$type<BillDetail>().notNull().default({}),
    /** Generated bills (weekly traffic) are made once per user and period. */
    dedupeKey: text("dedupe_key").unique(),
    /**
     * Waiting for finance (docs/decisions/080): a member without "pay" charged it above their monthly limit, so
     * it stays unpaid until a member with "pay" pays it; cleared when it is paid.
     */
    awaitsFinance: boolean("awaits_finance").notNull().default(false),
    /** The member whose action the bill is for, or who paid it (docs/decisions/080); null: not recorded. */
    memberUserId: integer("member_user_id").references(() => users.id),
  },
  (t) => [index("bills_user_time").on(t.userId, t.createdAt), index("bills_user_state").on(t.userId, t.payState)],
);

/**
 * Daily data traffic (docs/decisions/057), written by the one meter (billing/meter.ts): per publisher, day, city
 * node, service, participation and JSON-RPC method, the calls and the bytes in and out. The publisher pays for
 * all of it (the weekly bills, on bytes in + out); a participant's rows carry its join and user, so it sees its
 * own use. Rows from before the meter (and the demo's history without a service) have app 0, join 0, method ''.
 */
export const usageDaily = pgTable(
  "usage_daily",
  {
    /** The publisher: the user the traffic is billed to. */
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    day: date("day", { mode: "string" }).notNull(),
    cityNodeId: integer("city_node_id")
      .notNull()
      .references(() => cityNodes.id),
    /** The service (app id); 0 for traffic counted before the meter named services. */
    appId: integer("app_id").notNull().default(0),
    /** The participant's join (app_joins id); 0 for the publisher's own calls. */
    joinId: integer("join_id").notNull().default(0),
    /** The participant's user, who made the calls; null for the publisher's own. */
    callerId: integer("caller_id").references(() => users.id),
    /** The JSON-RPC method; '' for traffic counted before the meter named methods. */
    method: text("method").notNull().default(""),
    calls: bigint("calls", { mode: "number" }).notNull().default(0),
    bytesIn: bigint("bytes_in", { mode: "number" }).notNull().default(0),
    bytesOut: bigint("bytes_out", { mode: "number" }).notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.day, t.cityNodeId, t.appId, t.joinId, t.method] }),
    index("usage_daily_caller_day").on(t.callerId, t.day),
    check("usage_daily_counts_nonneg", sql`${t.calls} >= 0 AND ${t.bytesIn} >= 0 AND ${t.bytesOut} >= 0`),
  ],
);

/**
 * The account's billing settings (docs/decisions/059), one row per user, kept by billing rather than on `users`
 * (accounts owns that table, ADR 051). No row means the defaults of an account made after ADR 059: auto-pay on.
 */
export const billingSettings = pgTable("billing_settings", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id),
  /** Weekly usage bills (data traffic, IPFS traffic, cross-chain calls) are paid from the balance when issued. */
  autoPay: boolean("auto_pay").notNull(),
  /** The one-time inbox message offering auto-pay is still to be sent (accounts that existed before ADR 059). */
  offerPending: boolean("offer_pending").notNull().default(false),
  updatedAt: ts("updated_at").notNull().defaultNow(),
});
