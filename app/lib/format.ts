import { TZDate } from "@date-fns/tz";
import { format } from "date-fns";
import type { TFunction } from "i18next";
import type { Language } from "./i18n";

/** SPEC §9 Dates: English MM/DD/YYYY, Chinese YYYY-MM-DD, in UTC+8 and prefixed with it. */
export const DISPLAY_TIME_ZONE = "Asia/Shanghai";

/**
 * `zone` false leaves out the "UTC+8 " prefix: in a table the column header says it once (`zoneHeader`),
 * not every cell (issue 16).
 */
export function formatDate(value: string | Date | null | undefined, language: Language, withTime = false, zone = true): string {
  if (value === null || value === undefined || value === "") return "";
  const date = typeof value === "string" ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return "";
  const zoned = new TZDate(date.getTime(), DISPLAY_TIME_ZONE);
  const day = language === "zh-CN" ? "yyyy-MM-dd" : "MM/dd/yyyy";
  const text = format(zoned, withTime ? `${day} HH:mm` : day);
  return zone ? `UTC+8 ${text}` : text;
}

/** A date column's header that names the time zone once: "Created (UTC+8)". */
export function zoneHeader(t: TFunction, label: string): string {
  return t("common:zoneHeader", { label });
}

/** A calendar day of UTC+8 (YYYY-MM-DD, e.g. a withdrawal's expected arrival) as a date; "" when there is none. */
export function formatDay(day: string | null | undefined, language: Language, zone = true): string {
  return day ? formatDate(`${day}T12:00:00+08:00`, language, false, zone) : "";
}

export { formatMinorUnits, formatNumber, formatSize, formatUsd, numberFormat } from "./format-number";
