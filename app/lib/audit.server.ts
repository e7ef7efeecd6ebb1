import { auditFilterSchema, type AuditFilter } from "#contract/audit.ts";

const FILTER_KEYS = [
  "actor",
  "action",
  "targetType",
  "targetId",
  "dateFrom",
  "dateTo",
] as const satisfies readonly (keyof AuditFilter)[];

/**
 * The audit log's filters from the query string (a GET form, so a filtered view is a link). A value that
 * is not valid is left out rather than refused, so a hand-edited URL still shows the log.
 */
export function auditFilterFromQuery(params: URLSearchParams): AuditFilter {
  const out: Record<string, unknown> = {};
  for (const key of FILTER_KEYS) {
    const parsed = auditFilterSchema.shape[key].safeParse(params.get(key)?.trim() || undefined);
    if (parsed.success && parsed.data !== undefined) out[key] = parsed.data;
  }
  return out as AuditFilter;
}

/** The query string of a filter (for the export link and the page links). */
export function auditQuery(filter: AuditFilter): string {
  const params = new URLSearchParams();
  for (const key of FILTER_KEYS) {
    const value = filter[key];
    if (value) params.set(key, value);
  }
  const query = params.toString();
  return query ? `?${query}` : "";
}
