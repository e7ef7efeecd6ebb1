import type { AuditEntry } from "@contract/audit";

/**
 * The operators' audit log as people read it (docs/decisions/022), shared by the Audit log tab and its CSV.
 */

/** The entry's other fields (courier, filters, the new status) as "name: value" pairs. */
export function detailsText(details: AuditEntry["details"]): string {
  return Object.entries(details)
    .map(([name, value]) => `${name}: ${value !== null && typeof value === "object" ? JSON.stringify(value) : String(value)}`)
    .join("; ");
}

/** The characters that make a spreadsheet read a cell as a formula (or split it): = + - @ tab, carriage return. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A cell that a spreadsheet would run as a formula (CSV injection) is kept as text: a single quote goes
 * before it. Operators' comments and users' names reach the log, so every cell goes through this.
 */
export function neutraliseCell(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}
