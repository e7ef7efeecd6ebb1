import { randomBytes } from "node:crypto";
import type { PaymentRecord, PayType, WithdrawalRecord } from "#contract/payments.ts";
import { payments, withdrawals } from "./tables.ts";

/** Shared helpers of the payments domain: record shapes, numbers (user messages: inbox.api.notify). */

export type PaymentRow = typeof payments.$inferSelect;
export type WithdrawalRow = typeof withdrawals.$inferSelect;

/** A payment as the contract shows it; `inReview`: held for an operator (./settle.ts holdForReview). */
export function toPaymentRecord(row: PaymentRow, inReview = false): PaymentRecord {
  return {
    paymentNo: row.paymentNo,
    amountCents: row.amountCents,
    payType: row.payType as PayType,
    status: row.status,
    failureReason: row.failureReason,
    remittanceRef: row.remittanceRef,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    paidAt: row.paidAt?.toISOString() ?? null,
    reviewedAt: row.reviewedAt?.toISOString() ?? null,
    reviewComments: row.reviewComments,
    inReview,
  };
}

export function toWithdrawalRecord(row: WithdrawalRow): WithdrawalRecord {
  return {
    withdrawalNo: row.withdrawalNo,
    amountCents: row.amountCents,
    state: row.state,
    createdAt: row.createdAt.toISOString(),
    reviewedAt: row.reviewedAt?.toISOString() ?? null,
    reviewComments: row.reviewComments,
    expectedArrival: row.expectedArrival,
  };
}

/** A record number: prefix, UTC date, 8 random hex digits (e.g. RC20260601A1B2C3D4). */
export function recordNo(prefix: "RC" | "WD", now: Date): string {
  return `${prefix}${now.toISOString().slice(0, 10).replace(/-/g, "")}${randomBytes(4).toString("hex").toUpperCase()}`;
}

/** An amount for a message text ("12.50"): messages keep string params and are shown in USD. */
export function amountParam(cents: number): string {
  return (cents / 100).toFixed(2);
}

export function pageWindow(page: { pageSize: number; pageIndex: number }) {
  return { limit: page.pageSize, offset: (page.pageIndex - 1) * page.pageSize };
}
