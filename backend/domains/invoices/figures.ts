import { count, inArray } from "drizzle-orm";
import { INVOICE_STATUS } from "#contract/invoice-codes.ts";
import type { Db } from "#backend/db/client.ts";
import { invoiceApplications } from "./tables.ts";

/** The operators' invoice queue: applications waiting for a review or for delivery. */
export async function invoicesWaiting(db: Db) {
  const [row] = await db
    .select({ n: count() })
    .from(invoiceApplications)
    .where(inArray(invoiceApplications.status, [INVOICE_STATUS.PENDING_REVIEW, INVOICE_STATUS.PENDING_DELIVERY]));
  return { Invoices: row.n };
}
