import { randomInt } from "node:crypto";
import { PayState } from "#contract/billing-codes.ts";
import type { bills } from "./tables.ts";
import { dayOf } from "./time.ts";

type BillRecord = typeof bills.$inferSelect;

/** Numbers handed out by this process: the last two digits of a count, so that one millisecond may have 100. */
let issued = randomInt(0, 100);
/** The process's mark in a number (two digits), so that two processes in the same millisecond differ too. */
const PROCESS_MARK = String(process.pid % 100).padStart(2, "0");

/**
 * A new bill (or payment, refund, withdrawal, upgrade) number: the prefix, the UTC+8 day, then twelve digits:
 * the millisecond of the day (8), a count of this process (2) and the process's mark (2). Unlike six random
 * digits, whose collisions a busy day would meet (a 40 % chance at 1,000 bills a day, and a failed request
 * against the unique index), one process never repeats a number unless it makes 100 within a millisecond.
 */
export function newBillNo(now: Date, prefix = "B"): string {
  const msOfDay = (now.getTime() + 8 * 3_600_000) % 86_400_000;
  issued = (issued + 1) % 100;
  return `${prefix}${dayOf(now).replaceAll("-", "")}${String(msOfDay).padStart(8, "0")}${String(issued).padStart(2, "0")}${PROCESS_MARK}`;
}

/** USD from cents with 2 decimals, as message parameters and CSV cells show it. */
export function usd(cents: number): string {
  return (cents / 100).toFixed(2);
}

/**
 * Whether a bill may be paid from the balance now: unpaid, something to pay, and, for prepaid bills
 * (applications, resource fees), before its deadline. Postpaid usage bills never expire: they stay
 * payable when overdue, and block from their deadline until paid (docs/decisions/006, 059).
 */
export function isPayable(
  bill: Pick<BillRecord, "payState" | "payMode" | "deadline" | "payCents">,
  now: Date,
): boolean {
  if (bill.payState !== PayState.UNPAID || bill.payCents <= 0) return false;
  return bill.payMode === 2 || bill.deadline.getTime() > now.getTime();
}

/** GB from MB (1024 MB a GB), rounded to 2 decimals. */
export const mbToGb = (mb: number) => Math.round((mb / 1024) * 100) / 100;
