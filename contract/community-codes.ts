/**
 * Codes of the developer community's content (issue 15; SPEC §1 developer community, §2 DeveloperCommunity,
 * serviceNetworkLeague, system announcements; docs/decisions/040), without Zod, so that browser code and the
 * mail texts can use them without loading the schemas. contract/community.ts re-exports them.
 */

/**
 * The kinds of post operators write: news and events (SPEC §2 News_Events; an event has a sign-up form, a
 * capacity and a deadline), release notes (versioned) and announcements (with an active window).
 */
export const POST_KINDS = ["news", "event", "release", "announcement"] as const;
export type PostKind = (typeof POST_KINDS)[number];

/** The kind under which news and events are indexed in search_terms (backend/kit/search.ts). */
export const NEWS_SEARCH_KIND = "news";

export const TITLE_MAX = 200;
export const BODY_MAX = 50_000;
export const VERSION_MAX = 40;
export const LOCATION_MAX = 200;
export const CAPACITY_MAX = 10_000;
export const SIGNUP_NAME_MAX = 50;
export const SIGNUP_ORG_MAX = 100;
export const SIGNUP_NOTE_MAX = 500;
export const PARTNER_NAME_MAX = 100;
export const PARTNER_DESCRIPTION_MAX = 1_000;
export const SEARCH_QUERY_MAX = 100;

/** Times in the operators' forms are wall-clock times of the display zone (UTC+8, app/lib/format.ts). */
export const LOCAL_TIME_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;
const ZONE_OFFSET_MS = 8 * 3_600_000;

/** "2026-12-01T14:00" (UTC+8) as an instant, or null when it is not a real time. */
export function localTimeToDate(value: string): Date | null {
  if (!LOCAL_TIME_RE.test(value)) return null;
  const d = new Date(`${value}:00+08:00`);
  if (Number.isNaN(d.getTime())) return null;
  // Refuses 2026-02-30T10:00, which Date would roll over into March.
  return localTimeOf(d) === value ? d : null;
}

/** An instant as the value of a datetime-local field in UTC+8. */
export function localTimeOf(value: string | Date): string {
  const d = new Date(new Date(value).getTime() + ZONE_OFFSET_MS);
  return d.toISOString().slice(0, 16);
}

/** The two languages of every item. */
export type ContentLanguage = "en" | "zh-CN";

/**
 * The text of a bilingual item in the reader's language, or in the other one when that translation is
 * missing: `fallback` is then the language shown, so that the page can say so ("Shown in English").
 */
export function pickLanguage(
  item: { titleEn: string; titleZh: string; bodyEn: string; bodyZh: string },
  language: ContentLanguage,
): { title: string; body: string; fallback: ContentLanguage | null } {
  const zh = { title: item.titleZh, body: item.bodyZh };
  const en = { title: item.titleEn, body: item.bodyEn };
  const [want, other, otherLang] = language === "zh-CN" ? [zh, en, "en" as const] : [en, zh, "zh-CN" as const];
  if (want.title.trim() !== "") return { ...want, fallback: null };
  return { ...other, fallback: otherLang };
}

/** A partner's name or description in the reader's language, falling back to the other one. */
export function pickText(
  en: string,
  zh: string,
  language: ContentLanguage,
): { text: string; fallback: ContentLanguage | null } {
  const [want, other, otherLang] = language === "zh-CN" ? [zh, en, "en" as const] : [en, zh, "zh-CN" as const];
  return want.trim() !== "" ? { text: want, fallback: null } : { text: other, fallback: otherLang };
}

/** Whether an announcement's window holds `now` (start included, end excluded). */
export function isActiveAt(
  window: { activeFrom: string | Date | null; activeTo: string | Date | null },
  now: Date,
): boolean {
  if (!window.activeFrom || !window.activeTo) return false;
  return new Date(window.activeFrom).getTime() <= now.getTime() && now.getTime() < new Date(window.activeTo).getTime();
}
