import { idempotencyKey } from "#contract/rules.ts";
import {
  billFilterSchema,
  LEDGER_ENTRY_KINDS,
  transactionFilterSchema,
  type BillFilter,
  type LedgerEntryKind,
} from "#contract/billing.ts";

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

/** A UTC+8 day (YYYY-MM-DD) from the query, or nothing when absent or not a real day. */
export function dayFromQuery(params: URLSearchParams, name: string): string | undefined {
  const parsed = transactionFilterSchema.shape.dateFrom.safeParse(params.get(name) || undefined);
  return parsed.success ? parsed.data : undefined;
}

/** The transaction inquiry's filters (My account and its CSV), read from the query string like the bills'. */
export function transactionFilterFromQuery(params: URLSearchParams) {
  return {
    kind: kindFromQuery(params),
    dateFrom: dayFromQuery(params, "dateFrom"),
    dateTo: dayFromQuery(params, "dateTo"),
  };
}

/** The bill detail's pay form: intent "pay" and the idempotency key the loader issued; null otherwise. */
export function payFormOf(form: FormData): { idempotencyKey: string } | null {
  const key = idempotencyKey().safeParse(form.get("idempotencyKey"));
  return form.get("intent") === "pay" && key.success ? { idempotencyKey: key.data } : null;
}
