import type { TFunction } from "i18next";
import { formatUsd } from "./format-number.ts";
import type { Language } from "./i18n.ts";

/**
 * SPEC §9 Dates: English MM/DD/YYYY, Chinese YYYY-MM-DD, in UTC+8 and prefixed with it. UTC+8 is a fixed
 * offset (China has kept no daylight saving time since 1991), so a date is its UTC fields 8 hours on: no
 * time-zone database and no formatter objects per call (docs/decisions/030, per-request setup).
 */
export const DISPLAY_TIME_ZONE = "Asia/Shanghai";
const UTC_PLUS_8_MS = 8 * 3_600_000;
const two = (n: number) => (n < 10 ? `0${n}` : String(n));

/**
 * `zone` false leaves out the "UTC+8 " prefix: in a table the column header says it once (`zoneHeader`),
 * not every cell (issue 16).
 */
export function formatDate(
  value: string | Date | null | undefined,
  language: Language,
  withTime = false,
  zone = true,
): string {
  if (value === null || value === undefined || value === "") return "";
  const date = typeof value === "string" ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return "";
  const z = new Date(date.getTime() + UTC_PLUS_8_MS);
  const [y, m, d] = [z.getUTCFullYear(), two(z.getUTCMonth() + 1), two(z.getUTCDate())];
  const day = language === "zh-CN" ? `${y}-${m}-${d}` : `${m}/${d}/${y}`;
  const text = withTime ? `${day} ${two(z.getUTCHours())}:${two(z.getUTCMinutes())}` : day;
  return zone ? `UTC+8 ${text}` : text;
}

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** Message parameters that are USD amounts, stored as decimal text ("115.80"; backend usd/amountParam). */
const MONEY_PARAMS = new Set(["amount", "balance", "billed", "budget", "floor"]);
const DECIMAL = /^-?\d+(\.\d{1,2})?$/;

/**
 * An inbox message's parameters as the reader's language shows them: an instant the backend stored as ISO
 * text (a renewal's "until", a bill's deadline) becomes a UTC+8 date and time (SPEC §9); an amount becomes
 * money in the page language's currency format, as everywhere else ("$115.80", issue 30 item 8); the rest
 * is as it is.
 */
export function messageParams(
  params: Record<string, string> | null | undefined,
  language: Language,
): Record<string, string> {
  const shown: Record<string, string> = {};
  for (const [key, value] of Object.entries(params ?? {})) {
    if (typeof value === "string" && INSTANT.test(value)) shown[key] = formatDate(value, language, true);
    else if (MONEY_PARAMS.has(key) && typeof value === "string" && DECIMAL.test(value))
      shown[key] = formatUsd(Math.round(Number(value) * 100), language);
    else shown[key] = value;
  }
  return shown;
}

/** A date column's header that names the time zone once: "Created (UTC+8)". */
export function zoneHeader(t: TFunction, label: string): string {
  return t("common:zoneHeader", { label });
}

/** A calendar day of UTC+8 (YYYY-MM-DD, e.g. a withdrawal's expected arrival) as a date; "" when there is none. */
export function formatDay(day: string | null | undefined, language: Language, zone = true): string {
  return day ? formatDate(`${day}T12:00:00+08:00`, language, false, zone) : "";
}

export { formatMinorUnits, formatNumber, formatSize, formatUsd, numberFormat } from "./format-number.ts";
