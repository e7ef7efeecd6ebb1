/**
 * Calendar days and weeks in UTC+8 (SPEC §9: every date is shown in UTC+8; the weekly traffic bill covers
 * Monday to Sunday there). China has no daylight saving time, so a fixed offset is exact. Pure functions.
 */
export const UTC8_OFFSET_MS = 8 * 60 * 60 * 1000;
export const DAY_MS = 24 * 60 * 60 * 1000;

/** The UTC+8 calendar day (YYYY-MM-DD) of an instant. */
export function dayOf(instant: Date): string {
  return new Date(instant.getTime() + UTC8_OFFSET_MS).toISOString().slice(0, 10);
}

/** The instant a UTC+8 day starts (00:00 UTC+8). */
export function startOfDay(day: string): Date {
  return new Date(Date.parse(`${day}T00:00:00Z`) - UTC8_OFFSET_MS);
}

/** A day plus n days (n may be negative). */
export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

/** The Monday (UTC+8) of the week an instant falls in. */
export function weekStartOf(instant: Date): string {
  const day = dayOf(instant);
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay(); // 0 Sunday … 6 Saturday
  return addDays(day, -((weekday + 6) % 7));
}

/** The Monday of the last week (Monday-Sunday, UTC+8) that has fully ended at `instant`. */
export function lastCompletedWeekStart(instant: Date): string {
  return addDays(weekStartOf(instant), -7);
}

/** The instant a week starting on `weekStart` ends: the next Monday 00:00 UTC+8. */
export function weekEnd(weekStart: string): Date {
  return startOfDay(addDays(weekStart, 7));
}

/** The days from `from` to `to`, both included. */
export function daysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
}
