import { randomInt } from "node:crypto";
import { PayState } from "../../../contract/billing-codes";
import type { bills } from "./tables";
import { dayOf } from "./time";

type BillRecord = typeof bills.$inferSelect;

/** A new bill number: B, the UTC+8 day, and six random digits (unique in the table). */
export function newBillNo(now: Date, prefix = "B"): string {
  return `${prefix}${dayOf(now).replaceAll("-", "")}${String(randomInt(0, 1_000_000)).padStart(6, "0")}`;
}

/** USD from cents with 2 decimals, as message parameters and CSV cells show it. */
export function usd(cents: number): string {
  return (cents / 100).toFixed(2);
}

/**
 * Whether a bill may be paid from the balance now: unpaid, something to pay, and, for prepaid bills
 * (applications, resource fees), before its deadline. Postpaid usage bills never expire: they stay
 * payable when overdue, and keep blocking until paid (docs/decisions/006).
 */
export function isPayable(bill: Pick<BillRecord, "payState" | "payMode" | "deadline" | "payCents">, now: Date): boolean {
  if (bill.payState !== PayState.UNPAID || bill.payCents <= 0) return false;
  return bill.payMode === 2 || bill.deadline.getTime() > now.getTime();
}

/** GB from MB (1024 MB a GB), rounded to 2 decimals. */
export const mbToGb = (mb: number) => Math.round((mb / 1024) * 100) / 100;
