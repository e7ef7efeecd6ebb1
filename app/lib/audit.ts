import type { AuditEntry } from "#contract/audit.ts";

/**
 * The operators' audit log as people read it (docs/decisions/022), shared by the Audit log tab and its CSV.
 */

/** The entry's other fields (courier, filters, the new status) as "name: value" pairs. */
export function detailsText(details: AuditEntry["details"]): string {
  return Object.entries(details)
    .map(
      ([name, value]) =>
        `${name}: ${value !== null && typeof value === "object" ? JSON.stringify(value) : String(value)}`,
    )
    .join("; ");
}
