import * as z from "zod";
import { pageOf } from "./platform.ts";
import { idempotencyKey } from "./rules.ts";
import type { PathSpec } from "./path-spec.ts";
import { LEDGER_ENTRY_KINDS, PAY_STATES } from "./billing-codes.ts";

/**
 * Bills, the account summary, transactions, usage and the unpaid-bill guard (SPEC §3 Bill and Account,
 * §4 payment and invoicing statuses, §5 "Blocking by bills", §7 h5isHasNoPayBillV2, §9 Billing).
 * Money is integer USD cents; dates are ISO strings (the portal shows them in UTC+8, §9).
 * See docs/decisions/006-bills-and-the-unpaid-bill-guard.md.
 */

export * from "./billing-codes.ts";

/** At most this many bills in one CSV export. */
export const EXPORT_LIMIT = 10_000;

/** A calendar day (YYYY-MM-DD) in UTC+8, the time zone of every date the portal shows (§9). */
export const dayString = () =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "validation.invalid")
    .refine(
      (v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v),
      "validation.invalid",
    );

export const billFilterSchema = z.object({
  billType: z.number().int().min(1).max(999).optional(),
  payState: z
    .number()
    .int()
    .refine((v) => PAY_STATES.includes(v), "validation.invalid")
    .optional(),
  /** Created on or after this UTC+8 day. */
  dateFrom: dayString().optional(),
  /** Created on or before this UTC+8 day. */
  dateTo: dayString().optional(),
});
export type BillFilter = z.infer<typeof billFilterSchema>;

/** SPEC §7 paged request page{pageSize,pageIndex,condition}. */
const pageSize = () => z.number().int().min(1).max(100).default(10);
const pageIndex = () => z.number().int().min(1).default(1);

export const billListPayloadSchema = z.object({
  page: z
    .object({ pageSize: pageSize(), pageIndex: pageIndex(), condition: billFilterSchema.prefault({}) })
    .prefault({}),
});

export const billRowSchema = z.object({
  billId: z.number().int(),
  billNo: z.string(),
  appId: z.number().int().nullable(),
  /** Empty for platform bills that belong to no service (weekly data traffic): show the bill type. */
  serviceName: z.string(),
  billType: z.number().int(),
  payState: z.number().int(),
  /** 1 prepaid (resource fees, first period on creation), 2 postpaid (by actual use, weekly). */
  payMode: z.number().int(),
  /** BALANCE, or a §9 payment type. */
  payType: z.string().nullable(),
  /** §4 Payment cycle: 1 yearly, 2 monthly, 99 weekly. */
  cycle: z.number().int(),
  createdAt: z.string(),
  deadline: z.string(),
  paidAt: z.string().nullable(),
  totalCents: z.number().int(),
  payCents: z.number().int(),
  refundCents: z.number().int(),
  invoiceState: z.number().int(),
  /** Waiting for finance: a member without "pay" charged it above their monthly spending limit (ADR 080). */
  awaitsFinance: z.boolean(),
});
export type BillRow = z.infer<typeof billRowSchema>;

export const billListSchema = pageOf(billRowSchema);

export const billExportSchema = z.object({
  rows: z.array(billRowSchema),
  total: z.number().int(),
  /** More bills matched than EXPORT_LIMIT: only the newest are in `rows`. */
  truncated: z.boolean(),
});

export const dataUsageLineSchema = z.object({
  nodeCode: z.string(),
  /** The city node's name in the caller's language. */
  nodeName: z.string(),
  usedGb: z.number(),
  pricePerGbCents: z.number().int(),
  amountCents: z.number().int(),
});
export const resourceLineSchema = z.object({
  nodeCode: z.string(),
  nodeName: z.string(),
  tps: z.number().int(),
  capacityGb: z.number().int(),
  peers: z.number().int(),
  monthlyPriceCents: z.number().int(),
  yearlyPriceCents: z.number().int(),
  amountCents: z.number().int(),
});

export const billDetailSchema = billRowSchema.extend({
  periodStart: z.string(),
  periodEnd: z.string(),
  releaseTime: z.string().nullable(),
  refundNo: z.string().nullable(),
  dataUsage: z.array(dataUsageLineSchema),
  resources: z.array(resourceLineSchema),
  nodeCount: z.number().int().nullable(),
  hostConfiguration: z.string().nullable(),
  dataCapacityGb: z.number().nullable(),
  cloudPlatform: z.string().nullable(),
  region: z.string().nullable(),
  /** The caller may pay it from the balance now. */
  payable: z.boolean(),
  /** Unpaid past its deadline (postpaid usage bills stay payable and keep blocking, ADR 006). */
  overdue: z.boolean(),
  /** The member whose action the bill is for, or who paid it (login name; ADR 080); null when not recorded. */
  memberName: z.string().nullable(),
});
export type BillDetail = z.infer<typeof billDetailSchema>;

export const billPayPayloadSchema = z.object({
  billId: z.number().int().positive(),
  /** Issued by the portal's loader: the same key pays once and answers success every time. */
  idempotencyKey: idempotencyKey(),
});
export const billPayDataSchema = z.object({
  billId: z.number().int(),
  billNo: z.string(),
  payState: z.number().int(),
  paidCents: z.number().int(),
  balanceCents: z.number().int(),
  /** This key had already paid the bill: nothing was charged this time. */
  replayed: z.boolean(),
});

export const totalsSchema = z.object({
  balanceCents: z.number().int(),
  withdrawableCents: z.number().int(),
  invoiceableCents: z.number().int(),
});

export const accountSummarySchema = totalsSchema.extend({
  card: z
    .object({
      brand: z.string(),
      last4: z.string(),
      expMonth: z.number().int().nullable(),
      expYear: z.number().int().nullable(),
    })
    .nullable(),
  recharges: z.array(
    z.object({
      paymentNo: z.string(),
      amountCents: z.number().int(),
      payType: z.string(),
      /** §4 Payment status. */
      status: z.number().int(),
      createdAt: z.string(),
      paidAt: z.string().nullable(),
    }),
  ),
  withdrawals: z.array(
    z.object({
      withdrawalNo: z.string(),
      amountCents: z.number().int(),
      /** §4 Refund review: 1 pending, 5 not approved, 10 approved, 15 confirmed. */
      state: z.number().int(),
      createdAt: z.string(),
      expectedArrival: z.string().nullable(),
    }),
  ),
  unpaidBills: z.number().int(),
  /** Weekly usage bills are paid from the balance when issued (docs/decisions/059). */
  autoPay: z.boolean(),
});

/** /sys/account/autoPay: turns auto-pay of usage bills on or off (docs/decisions/059). */
export const autoPayPayloadSchema = z.object({ enabled: z.boolean() });
/** My account's auto-pay form (a plain POST): `enabled` is "on" or "off", the button pressed. */
export const autoPayFormSchema = z.object({ enabled: z.enum(["on", "off"]).transform((v) => v === "on") });

export const transactionFilterSchema = z.object({
  kind: z.enum(LEDGER_ENTRY_KINDS).optional(),
  dateFrom: dayString().optional(),
  dateTo: dayString().optional(),
});
export const transactionListPayloadSchema = z.object({
  page: z
    .object({ pageSize: pageSize(), pageIndex: pageIndex(), condition: transactionFilterSchema.prefault({}) })
    .prefault({}),
});
export const transactionSchema = z.object({
  entryId: z.number().int(),
  kind: z.enum(LEDGER_ENTRY_KINDS),
  balanceDelta: z.number().int(),
  withdrawableDelta: z.number().int(),
  invoiceableDelta: z.number().int(),
  balanceAfter: z.number().int(),
  refType: z.string(),
  refId: z.number().int(),
  /** The number of what the entry is about (bill, payment, withdrawal or invoice application), if any. */
  reference: z.string().nullable(),
  /** For a bill: its id, so the portal can link to the bill. */
  billId: z.number().int().nullable(),
  createdAt: z.string(),
});
export const transactionListSchema = pageOf(transactionSchema);

/** SPEC §9 Charts "Traffic usage: 30 days", per UTC+8 day and city node. */
export const usage30Schema = z.object({
  /** The 30 days, oldest first (YYYY-MM-DD, UTC+8). */
  days: z.array(z.string()),
  nodes: z.array(
    z.object({ nodeCode: z.string(), nodeName: z.string(), gb: z.array(z.number()), totalGb: z.number() }),
  ),
  totalGb: z.number(),
});

/** SPEC §7: payType 1 new service or config upgrade, 2 dedicated node. */
export const unpaidGuardPayloadSchema = z.object({ payType: z.union([z.literal(1), z.literal(2)]) });

/**
 * The bills due now (docs/decisions/027): with payType, those that block it (SPEC §5 "Blocking by bills",
 * the same rule as h5isHasNoPayBillV2), without it every bill that can be paid from the balance. Newest
 * first, at most DUE_LIMIT rows; `totalCents` and `count` cover them all.
 */
export const DUE_LIMIT = 100;
export const dueBillsPayloadSchema = z.object({ payType: z.union([z.literal(1), z.literal(2)]).optional() });
export const dueBillsSchema = z.object({
  bills: z.array(billRowSchema.extend({ payable: z.boolean() })),
  count: z.number().int(),
  totalCents: z.number().int(),
  /** What can be paid from the balance now (usage bills always; prepaid ones before their deadline). */
  payableCents: z.number().int(),
});
export type DueBills = z.infer<typeof dueBillsSchema>;

/** Several bills paid from the balance in one transaction: all of them or none (Pay all, Pay and continue). */
export const billPayManyPayloadSchema = z.object({
  billIds: z.array(z.number().int().positive()).min(1).max(DUE_LIMIT),
  /** One key for the whole payment: the same key pays once and answers success every time. */
  idempotencyKey: idempotencyKey(),
});
export const billPayManyDataSchema = z.object({
  paid: z.array(z.object({ billId: z.number().int(), billNo: z.string(), paidCents: z.number().int() })),
  paidCents: z.number().int(),
  balanceCents: z.number().int(),
  replayed: z.boolean(),
});

export const billingPaths = {
  "/sys/system/clientInfo/h5billList": {
    auth: "user",
    permission: "read",
    payload: billListPayloadSchema,
    data: billListSchema,
  },
  "/sys/system/clientInfo/h5billExport": {
    auth: "user",
    permission: "read",
    payload: z.object({ condition: billFilterSchema.prefault({}) }),
    data: billExportSchema,
  },
  "/sys/system/clientInfo/h5billDetail": {
    auth: "user",
    permission: "read",
    payload: z.object({ billId: z.number().int().positive() }),
    data: billDetailSchema,
  },
  "/sys/system/clientInfo/h5billPay": {
    auth: "user",
    permission: "pay",
    payload: billPayPayloadSchema,
    data: billPayDataSchema,
  },
  "/sys/system/clientInfo/h5billPayMany": {
    auth: "user",
    permission: "pay",
    payload: billPayManyPayloadSchema,
    data: billPayManyDataSchema,
  },
  "/sys/system/clientInfo/h5billDue": {
    auth: "user",
    permission: "read",
    payload: dueBillsPayloadSchema,
    data: dueBillsSchema,
  },
  "/sys/account/summary": {
    auth: "user",
    permission: "read",
    payload: z.object({}).passthrough(),
    data: accountSummarySchema,
  },
  "/sys/account/transactions": {
    auth: "user",
    permission: "read",
    payload: transactionListPayloadSchema,
    data: transactionListSchema,
  },
  "/sys/account/usage30": {
    auth: "user",
    permission: "read",
    payload: z.object({}).passthrough(),
    data: usage30Schema,
  },
  "/sys/account/autoPay": {
    auth: "user",
    permission: "pay",
    payload: autoPayPayloadSchema,
    data: z.object({ autoPay: z.boolean() }),
  },
  /** Code 0 with data true allows entry; data false: unpaid bills block it (ADR 006 says which). */
  "/sys/product/h5isHasNoPayBillV2": {
    auth: "user",
    permission: "read",
    payload: unpaidGuardPayloadSchema,
    data: z.boolean(),
  },
  /** Operators: a user's wallet against the sums of their ledger entries. */
  "/ops/ledger/verify": {
    auth: "operator",
    payload: z.object({ userId: z.number().int().positive() }),
    data: z.object({
      userId: z.number().int(),
      wallet: totalsSchema,
      derived: totalsSchema,
      entries: z.number().int(),
      consistent: z.boolean(),
    }),
  },
} satisfies Record<string, PathSpec>;

/**
 * Tests only (TEST_FIXTURES=1, refused in production): records that users cannot make by themselves
 * yet (bills come from services, usage from the network), created for the caller through the ledger.
 */
export const fixturesPayloadSchema = z.object({
  /** Credited to the caller's balance first, as a non-withdrawable grant. */
  grantCents: z.number().int().min(0).default(0),
  bills: z
    .array(
      z.object({
        billType: z.number().int().default(1),
        serviceName: z.string().default("Fixture service"),
        totalCents: z.number().int().positive(),
        /** 1 unpaid (due in 3 days), 10 expired, or 15 paid from the balance (grant it first). */
        payState: z.union([z.literal(1), z.literal(10), z.literal(15)]).default(1),
        /** 1 yearly, 2 monthly, 99 weekly (a usage bill, postpaid: past its deadline, so it blocks, ADR 059). */
        cycle: z.union([z.literal(1), z.literal(2), z.literal(99)]).default(2),
        /** A usage bill (cycle 99) still within its 7 days: it does not block yet (docs/decisions/059). */
        notYetDue: z.boolean().default(false),
      }),
    )
    .max(50)
    .default([]),
  /** Daily traffic for the last `days` days on the first city nodes, in MB. */
  usage: z.object({ days: z.number().int().min(1).max(60), mbPerDay: z.number().int().min(1) }).optional(),
});

/** Tests only: bills and usage for the caller (backend/domains/billing/fixtures.ts). */
export const billingFixturePaths = {
  "/test/fixtures": {
    auth: "user",
    permission: "read",
    payload: fixturesPayloadSchema,
    data: z.object({ billIds: z.array(z.number().int()) }),
  },
} satisfies Record<string, PathSpec>;
