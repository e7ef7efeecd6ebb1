/** A pure rule: tested by a table in tests/unit (no database, no clock). */
export function isWithinLimit(count: number, limit: number): boolean {
  return Number.isInteger(count) && count >= 0 && count < limit;
}
