/** Query parameters of list and detail pages, read the same way everywhere. */

/** A positive integer (an id, a page), or null for anything else. */
export function positiveParam(v: string | null | undefined): number | null {
  const n = Number.parseInt(v ?? "", 10);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

/**
 * An id exactly as written by the portal (canonical digits: no "01", "1x" or "1.0"), or null. Stricter than
 * positiveParam: for ids that name a record to change, where a near miss is a bad request, not a guess.
 */
export function positiveId(v: string | null | undefined): number | null {
  const n = positiveParam(v);
  return n !== null && String(n) === v ? n : null;
}

/** The page number of a list (?page=N), 1 when missing or wrong. */
export function pageParam(url: URL): number {
  return positiveParam(url.searchParams.get("page")) ?? 1;
}

/** A search text (?name=...): trimmed, at most 50 characters, "" when missing. */
export function searchParam(params: URLSearchParams, name = "name"): string {
  return (params.get(name) ?? "").trim().slice(0, 50);
}

/** The value of a filter when it is one of `values` (compared as text, so numbers work too), else undefined. */
export function oneOf<T extends string | number>(values: readonly T[], raw: string | null | undefined): T | undefined {
  return values.find((v) => String(v) === raw);
}
