/**
 * Codes of the documentation and help manual (issue 15; docs/decisions/042), without Zod, for browser code.
 * contract/docs.ts re-exports them.
 */

/** The search kind of manual pages in `search_terms` (backend/kit/search.ts). */
export const DOC_SEARCH_KIND = "doc";
export const DOC_LANGS = ["en", "zh-CN"] as const;
export type DocLang = (typeof DOC_LANGS)[number];

/** A page's address in the manual: lower-case words joined by hyphens (the `page` query parameter). */
export const DOC_SLUG_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const DOC_SLUG_MAX = 64;
export const DOC_TITLE_MAX = 120;
export const DOC_BODY_MAX = 50_000;
export const DOC_QUERY_MAX = 100;

/**
 * The text of a page in the reader's language, or in the other one when it is missing: `fallback` says so,
 * and the page shows a notice (issue 15 "a missing translation falls back visibly").
 */
export function textIn<T extends { titleEn: string; titleZh: string; bodyEn?: string; bodyZh?: string }>(
  page: T,
  language: string,
): { title: string; body: string; lang: DocLang; fallback: boolean } {
  const zh = { title: page.titleZh, body: page.bodyZh ?? "", lang: "zh-CN" as const };
  const en = { title: page.titleEn, body: page.bodyEn ?? "", lang: "en" as const };
  const [want, other] = language === "zh-CN" ? [zh, en] : [en, zh];
  return want.title ? { ...want, fallback: false } : { ...other, fallback: true };
}
