import type { TFunction } from "i18next";
import { billFilterSchema, LEDGER_ENTRY_KINDS, NAMED_BILL_TYPES, PAY_STATES, type BillFilter, type LedgerEntryKind } from "@contract/billing";

/**
 * The filters of My Bills and of its CSV export, read from the query string (a GET form). A value that
 * is not valid is left out rather than refused, so a hand-edited URL still shows a list.
 */
export function billFilterFromQuery(params: URLSearchParams): BillFilter {
  const num = (name: string) => {
    const value = params.get(name);
    return value && /^\d{1,3}$/.test(value) ? Number(value) : undefined;
  };
  const out: BillFilter = {};
  const keep = <K extends keyof BillFilter>(key: K, value: unknown) => {
    const parsed = billFilterSchema.shape[key].safeParse(value);
    if (parsed.success && parsed.data !== undefined) out[key] = parsed.data as BillFilter[K];
  };
  keep("billType", num("billType"));
  keep("payState", num("payState"));
  keep("dateFrom", params.get("dateFrom") || undefined);
  keep("dateTo", params.get("dateTo") || undefined);
  return out;
}

export function pageFromQuery(params: URLSearchParams): number {
  return Math.max(1, Math.min(100_000, Number.parseInt(params.get("page") ?? "1", 10) || 1));
}

export function kindFromQuery(params: URLSearchParams): LedgerEntryKind | undefined {
  const kind = params.get("kind");
  return (LEDGER_ENTRY_KINDS as readonly string[]).includes(kind ?? "") ? (kind as LedgerEntryKind) : undefined;
}

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
