import { ACTIVITY_KINDS, type ActivityFilter } from "#contract/activity.ts";
import { dayString } from "#contract/billing.ts";
import { oneOf, positiveId } from "./params.ts";

const day = (v: string | null) => {
  const parsed = dayString().safeParse(v?.trim() || undefined);
  return parsed.success ? parsed.data : undefined;
};

/**
 * Team activity's filters from the query string (a GET form, so a filtered view is a link). A value that is not
 * valid is left out rather than refused, so a hand-edited URL still shows the list.
 */
export function activityFilterFromQuery(params: URLSearchParams): ActivityFilter {
  const filter: ActivityFilter = {};
  const memberId = positiveId(params.get("memberId"));
  if (memberId) filter.memberId = memberId;
  const kind = oneOf(ACTIVITY_KINDS, params.get("kind"));
  if (kind) filter.kind = kind;
  const dateFrom = day(params.get("dateFrom"));
  if (dateFrom) filter.dateFrom = dateFrom;
  const dateTo = day(params.get("dateTo"));
  if (dateTo) filter.dateTo = dateTo;
  return filter;
}

/** The query string of a filter (for the export link). */
export function activityQuery(filter: ActivityFilter): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filter)) if (value !== undefined) params.set(key, String(value));
  const query = params.toString();
  return query ? `?${query}` : "";
}
