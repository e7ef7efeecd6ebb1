/** Query parameters of list and detail pages, read the same way everywhere. */

/** The largest record id: ids are PostgreSQL `integer` columns (serial). */
export const MAX_ID = 2_147_483_647;

/**
 * A positive integer written in plain digits (an id, a page) up to MAX_ID, or null for anything else
 * ("12abc", "1e3", "0x10", " 7", a number no record can have): the page then answers 404 (or its first
 * page) instead of asking the backend about an id that cannot exist.
 */
export function positiveParam(v: string | null | undefined): number | null {
  if (!v || !/^[1-9][0-9]{0,9}$/.test(v)) return null;
  const n = Number(v);
  return n <= MAX_ID ? n : null;
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
