/** The URLs of the invoice pages. */

/** SPEC §2 Invoices add, the two steps of an application. */
export const INVOICE_ADD = "/g/home/userCenter/Invoices/Add";

/** The wizard's URL: the step, and the selected bills (so a reload or a second tab keeps them). */
export function invoiceStepUrl(step: "select" | "confirm", billIds: readonly (string | number)[]) {
  const params = new URLSearchParams({ step });
  for (const id of billIds) params.append("billIds", String(id));
  return `${INVOICE_ADD}?${params}`;
}
