import * as z from "zod";
import { nothing, type PathSpec } from "./path-spec.ts";
import { pageOf, pageRequestSchema } from "./platform.ts";
import { idempotencyKey, moneyAmount, optionalText, toCents } from "./rules.ts";

import { OFFLINE_PAY_TYPE, PAY_TYPES } from "./payments-codes.ts";

export {
  BANK_TRANSFER_PAY_TYPES,
  isBankTransfer,
  NET_BANKING_PAY_TYPE,
  OFFLINE_PAY_TYPE,
  offeredPayTypes,
  PAY_TYPES,
  PaymentStatus,
  WithdrawalState,
  type PayType,
} from "./payments-codes.ts";

/**
 * Payments, recharge, saved card and withdrawals (SPEC §3 Account, §4 Payment status and Refund review,
 * §5 Money, §9 Payment methods and Time; docs/decisions/007).
 */

/** A payment through the provider stays open this long, then expires (§4 status 10). */
export const PAYMENT_OPEN_MINUTES = 30;
/** An offline remittance not confirmed by an operator within this many days expires. */
export const REMITTANCE_OPEN_DAYS = 30;
/** SPEC §9: withdrawal arrives within 7 working days; offline transfer takes 1-3 working days. */
export const WITHDRAWAL_WORKING_DAYS = 7;

/** The payer's bank reference of an offline remittance: letters, digits, spaces and - / . */
export const REMITTANCE_REF_RE = /^[A-Za-z0-9][A-Za-z0-9 ./-]{3,39}$/;

/** The recharge form (portal and backend). The bank reference is required for offline remittance. */
export const rechargeSchema = z
  .object({
    payType: z.enum(PAY_TYPES, { error: "payments:validation.payType" }),
    amount: moneyAmount(),
    remittanceRef: optionalText(),
    idempotencyKey: idempotencyKey(),
  })
  .superRefine((value, ctx) => {
    if (value.payType !== OFFLINE_PAY_TYPE) return;
    if (!value.remittanceRef)
      ctx.addIssue({ code: "custom", path: ["remittanceRef"], message: "payments:validation.remittanceRefRequired" });
    else if (!REMITTANCE_REF_RE.test(value.remittanceRef))
      ctx.addIssue({ code: "custom", path: ["remittanceRef"], message: "payments:validation.remittanceRefFormat" });
  });

/** The withdrawal form (portal and backend); the withdrawable limit is checked by the backend (MSG_30008). */
export const withdrawSchema = z.object({
  amount: moneyAmount(),
  idempotencyKey: idempotencyKey(),
});

/**
 * The withdrawal form against what the caller can withdraw now (SPEC §5 Money: amount ≤ withdrawable), so an
 * amount above it is refused at its field before the confirmation step; the backend checks it again (MSG_30008).
 */
export const withdrawFormSchema = (withdrawableCents: number) =>
  withdrawSchema.superRefine((value, ctx) => {
    if (toCents(value.amount) > withdrawableCents)
      ctx.addIssue({ code: "custom", path: ["amount"], message: "validation.amount.overWithdrawable" });
  });

/** Review comments: required to reject (MSG_30014), at most 500 characters. */
export const reviewComments = () =>
  optionalText().refine((v) => v === undefined || v.length <= 500, "validation.tooLong");

export const remittanceReviewSchema = z.object({
  paymentNo: z.string().trim().min(1).max(40),
  decision: z.enum(["confirm", "reject"]),
  comments: reviewComments(),
});

/** An operator's decision on a payment held for review: credit the checkout's amount, or reject with comments. */
export const paymentReviewSchema = z.object({
  paymentNo: z.string().trim().min(1).max(40),
  decision: z.enum(["credit", "reject"]),
  comments: reviewComments(),
});

/** Why a provider's answer is held for an operator (docs/decisions/019). */
export const REVIEW_REASONS = ["amount_mismatch", "currency_mismatch"] as const;

export const withdrawalReviewSchema = z.object({
  withdrawalNo: z.string().trim().min(1).max(40),
  decision: z.enum(["approve", "reject", "confirm"]),
  comments: reviewComments(),
});

export const totalsSchema = z.object({
  balanceCents: z.number().int(),
  withdrawableCents: z.number().int(),
  invoiceableCents: z.number().int(),
});

export const paymentSchema = z.object({
  paymentNo: z.string(),
  amountCents: z.number().int(),
  payType: z.enum(PAY_TYPES),
  status: z.number().int(),
  failureReason: z.string().nullable(),
  remittanceRef: z.string().nullable(),
  createdAt: z.string(),
  expiresAt: z.string(),
  paidAt: z.string().nullable(),
  reviewedAt: z.string().nullable(),
  reviewComments: z.string().nullable(),
  /** Held for an operator: the provider's amount or currency differs from the checkout (docs/decisions/019). */
  inReview: z.boolean(),
});
export type PaymentRecord = z.infer<typeof paymentSchema>;

export const withdrawalSchema = z.object({
  withdrawalNo: z.string(),
  amountCents: z.number().int(),
  state: z.number().int(),
  createdAt: z.string(),
  reviewedAt: z.string().nullable(),
  reviewComments: z.string().nullable(),
  /** YYYY-MM-DD (UTC+8 calendar day), once approved. */
  expectedArrival: z.string().nullable(),
});
export type WithdrawalRecord = z.infer<typeof withdrawalSchema>;

export const cardSchema = z.object({
  brand: z.string(),
  last4: z.string(),
  expMonth: z.number().int().nullable(),
  expYear: z.number().int().nullable(),
  updatedAt: z.string(),
});

/** Who asked, for operators' queues. */
const requester = { userName: z.string(), realName: z.string() };

/** The signed callback the provider POSTs: the event as JSON text, signed over `${timestamp}.${event}`. */
export const callbackSchema = z.object({
  event: z.string().min(2).max(20_000),
  timestamp: z.number().int(),
  signature: z.string().regex(/^[0-9a-f]{64}$/),
});

export const paymentPaths = {
  "/sys/account/recharge": {
    auth: "user",
    permission: "pay",
    payload: rechargeSchema,
    data: z.object({ payment: paymentSchema, redirectUrl: z.string().nullable() }),
  },
  /** The caller's recharges, the wallet totals, and the payment types this server offers (docs/decisions/072). */
  "/sys/account/rechargeList": {
    auth: "user",
    permission: "read",
    payload: pageRequestSchema,
    data: pageOf(paymentSchema).extend({ totals: totalsSchema, offered: z.array(z.enum(PAY_TYPES)) }),
  },
  /** One of the caller's payments; `refresh` asks the provider for the status of one still in payment. */
  "/sys/account/payment": {
    auth: "user",
    permission: "pay",
    payload: z.object({ paymentNo: z.string().trim().min(1).max(40), refresh: z.boolean().default(false) }),
    data: z.object({ payment: paymentSchema, totals: totalsSchema }),
  },
  "/sys/account/h5cashOutAmount": {
    auth: "user",
    permission: "pay",
    payload: withdrawSchema,
    data: z.object({ withdrawal: withdrawalSchema }),
  },
  "/sys/account/withdrawList": {
    auth: "user",
    permission: "read",
    payload: pageRequestSchema,
    data: pageOf(withdrawalSchema).extend({ totals: totalsSchema }),
  },
  /** The saved card; with `setupRef`, the outcome of that card checkout is applied first if it is known. */
  "/sys/account/card": {
    auth: "user",
    permission: "pay",
    payload: z.object({ setupRef: z.string().trim().max(80).optional() }),
    data: z.object({
      card: cardSchema.nullable(),
      setup: z.enum(["open", "succeeded", "declined", "expired", "unknown"]).nullable(),
    }),
  },
  "/sys/account/cardSetup": {
    auth: "user",
    permission: "pay",
    payload: z.object({}),
    data: z.object({ redirectUrl: z.string() }),
  },
  /** Called by the payment provider (server to server), not by the portal. */
  "/pay/callback": {
    auth: "anon",
    payload: callbackSchema,
    data: z.object({ received: z.literal(true), duplicate: z.boolean() }),
  },
  "/ops/remittances/list": {
    auth: "operator",
    payload: pageRequestSchema,
    data: pageOf(paymentSchema.extend(requester)),
  },
  "/ops/remittances/review": { auth: "operator", payload: remittanceReviewSchema, data: nothing },
  /** Payments held because the provider's amount or currency differs from the checkout: open ones, or all. */
  "/ops/paymentReviews/list": {
    auth: "operator",
    payload: pageRequestSchema,
    data: pageOf(
      paymentSchema.extend(requester).extend({
        review: z.object({
          provider: z.string(),
          reason: z.enum(REVIEW_REASONS),
          reportedAmountCents: z.number().int().nullable(),
          reportedCurrency: z.string().nullable(),
          createdAt: z.string(),
          decision: z.enum(["credit", "reject"]).nullable(),
          decidedAt: z.string().nullable(),
          comments: z.string().nullable(),
        }),
      }),
    ),
  },
  "/ops/paymentReviews/review": { auth: "operator", payload: paymentReviewSchema, data: nothing },
  "/ops/withdrawals/list": {
    auth: "operator",
    payload: pageRequestSchema,
    data: pageOf(withdrawalSchema.extend(requester)),
  },
  "/ops/withdrawals/review": { auth: "operator", payload: withdrawalReviewSchema, data: nothing },
} satisfies Record<string, PathSpec>;
