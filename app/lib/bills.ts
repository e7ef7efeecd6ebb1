import type { TFunction } from "i18next";
import type { Tone } from "./tone.ts";

/** Bill helpers for pages and the CSV route; no Zod here, so the browser bundle stays small. */
import { NAMED_BILL_TYPES, ONE_OFF_BILL_TYPES, PAY_STATES, PayState } from "#contract/billing-codes.ts";

export const BILL_TYPE_OPTIONS = NAMED_BILL_TYPES;
export const PAY_STATE_OPTIONS = PAY_STATES;

/** A bill type's name (SPEC §9); codes without a name say their number. */
export function billTypeLabel(t: TFunction, code: number): string {
  return NAMED_BILL_TYPES.includes(code) ? t(`billing:types.${code}`) : t("billing:types.other", { code });
}

/** A bill's payment cycle (SPEC §4), or "One-off" for a bill paid once (issue 30 item 8: Mint DDC is not "Monthly"). */
export function billCycleLabel(t: TFunction, bill: { billType: number; cycle: number }): string {
  if (ONE_OFF_BILL_TYPES.includes(bill.billType)) return t("billing:cycles.once");
  return t(`billing:cycles.${bill.cycle}`, { defaultValue: String(bill.cycle) });
}

/** What a bill is for: its service, or its type for platform bills (weekly traffic). */
export function billSubject(t: TFunction, bill: { serviceName: string; billType: number }): string {
  return bill.serviceName || billTypeLabel(t, bill.billType);
}

/** How a §4 payment status reads: paid, waiting, failed, refunded, or closed. */
export function payStateTone(payState: number): Tone {
  if (payState === PayState.PAID) return "ok";
  if (payState === PayState.UNPAID || payState === PayState.IN_PAYMENT) return "wait";
  if (payState === PayState.FAILED) return "bad";
  if (payState === PayState.REFUNDED || payState === PayState.PARTLY_REFUNDED) return "info";
  return "off";
}

/** The BillDetail address of SPEC §2 (appId, billId, billType). */
export function billDetailHref(bill: { appId: number | null; billId: number; billType: number }, extra = ""): string {
  const params = new URLSearchParams({
    appId: bill.appId === null ? "" : String(bill.appId),
    billId: String(bill.billId),
    billType: String(bill.billType),
  });
  return `/g/home/userCenter/BillDetail?${params}${extra}`;
}

/** The UTC+8 calendar day (YYYY-MM-DD) of an instant (SPEC §9 time zone). */
export function utc8Day(instant: Date): string {
  return new Date(instant.getTime() + 8 * 60 * 60 * 1000).toISOString().slice(0, 10);
}
