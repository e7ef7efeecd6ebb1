import { pageParam } from "./params.ts";

/*
 * Pagination (issue 16, docs/decisions/027), the pure half: which page links to show and the page size a
 * list reads from its query. The UI is app/components/Pagination.tsx.
 */

/** The page sizes a list offers (?pageSize=); anything else falls back to the list's default. */
export const PAGE_SIZES = [10, 20, 50] as const;
export type PageSize = (typeof PAGE_SIZES)[number];

/** `?pageSize=` when it is one of PAGE_SIZES (written as plain digits), else `fallback`: never an error. */
export function pageSizeParam(url: URL, fallback: PageSize = 10): PageSize {
  const raw = url.searchParams.get("pageSize");
  return PAGE_SIZES.find((size) => String(size) === raw) ?? fallback;
}

/** A list's `?page=` and `?pageSize=`, as the backend's page request wants them. */
export function pagingOf(url: URL, fallback: PageSize = 10): { pageIndex: number; pageSize: PageSize } {
  return { pageIndex: pageParam(url), pageSize: pageSizeParam(url, fallback) };
}

/** A page link, or an ellipsis standing for the pages left out. */
export type PageItem = number | "gap";

/**
 * The page links of a list with `pages` pages at `current`: the first and last pages, `around` pages on
 * each side of the current one, and "gap" where pages are left out; a gap would hide a single page, so
 * that page is shown instead. `current` outside 1..pages is clamped. Seven items at most with around = 1.
 */
export function pageItems(current: number, pages: number, around = 1): PageItem[] {
  if (pages <= 1) return [1];
  const at = Math.min(Math.max(1, current), pages);
  const from = Math.max(2, at - around);
  const to = Math.min(pages - 1, at + around);
  const items: PageItem[] = [1];
  if (from === 3) items.push(2);
  else if (from > 3) items.push("gap");
  for (let p = from; p <= to; p++) items.push(p);
  if (to === pages - 2) items.push(pages - 1);
  else if (to < pages - 2) items.push("gap");
  items.push(pages);
  return items;
}
