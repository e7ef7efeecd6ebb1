import { TZDate } from "@date-fns/tz";
import { format } from "date-fns";
import type { Language } from "./i18n";

/** SPEC §9 Dates: English MM/DD/YYYY, Chinese YYYY-MM-DD, in UTC+8 and prefixed with it. */
export const DISPLAY_TIME_ZONE = "Asia/Shanghai";

export function formatDate(value: string | Date | null | undefined, language: Language, withTime = false): string {
  if (value === null || value === undefined || value === "") return "";
  const date = typeof value === "string" ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return "";
  const zoned = new TZDate(date.getTime(), DISPLAY_TIME_ZONE);
  const day = language === "zh-CN" ? "yyyy-MM-dd" : "MM/dd/yyyy";
  return `UTC+8 ${format(zoned, withTime ? `${day} HH:mm` : day)}`;
}

/** A calendar day of UTC+8 (YYYY-MM-DD, e.g. a withdrawal's expected arrival) as a date; "" when there is none. */
export function formatDay(day: string | null | undefined, language: Language): string {
  return day ? formatDate(`${day}T12:00:00+08:00`, language) : "";
}

export { formatMinorUnits, formatSize, formatUsd } from "./format-number";
