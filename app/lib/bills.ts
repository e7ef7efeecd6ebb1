import type { TFunction } from "i18next";

/** Bill helpers for pages and the CSV route; no Zod here, so the browser bundle stays small. */
import { NAMED_BILL_TYPES, PAY_STATES } from "@contract/billing-codes";

export const BILL_TYPE_OPTIONS = NAMED_BILL_TYPES;
export const PAY_STATE_OPTIONS = PAY_STATES;

/** A bill type's name (SPEC §9); codes without a name say their number. */
export function billTypeLabel(t: TFunction, code: number): string {
  return NAMED_BILL_TYPES.includes(code) ? t(`billing:types.${code}`) : t("billing:types.other", { code });
}

/** What a bill is for: its service, or its type for platform bills (weekly traffic). */
export function billSubject(t: TFunction, bill: { serviceName: string; billType: number }): string {
  return bill.serviceName || billTypeLabel(t, bill.billType);
}

/** Colours of §4 payment statuses. */
export function payStateTone(payState: number): string {
  if (payState === 15) return "bg-green-50 text-green-700 ring-green-200";
  if (payState === 1 || payState === 2) return "bg-amber-50 text-amber-800 ring-amber-200";
  if (payState === 5) return "bg-red-50 text-red-700 ring-red-200";
  if (payState === 20 || payState === 25) return "bg-sky-50 text-sky-700 ring-sky-200";
  return "bg-slate-100 text-slate-600 ring-slate-200";
}

/** The BillDetail address of SPEC §2 (appId, billId, billType). */
export function billDetailHref(bill: { appId: number | null; billId: number; billType: number }, extra = ""): string {
  const params = new URLSearchParams({ appId: bill.appId === null ? "" : String(bill.appId), billId: String(bill.billId), billType: String(bill.billType) });
  return `/g/home/userCenter/BillDetail?${params}${extra}`;
}

/** The UTC+8 calendar day (YYYY-MM-DD) of an instant (SPEC §9 time zone). */
export function utc8Day(instant: Date): string {
  return new Date(instant.getTime() + 8 * 60 * 60 * 1000).toISOString().slice(0, 10);
}
