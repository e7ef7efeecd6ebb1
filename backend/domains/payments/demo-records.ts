import type { Tx } from "#backend/db/client.ts";
import { payments, withdrawals } from "./tables.ts";

/**
 * The payment records of the demo accounts, written for the billing domain's demo seeder (backend/seed.ts), which
 * posts their ledger entries: it receives these through `billing.api.seedDemoPaymentsWith` at start, because
 * billing may not import this domain (this one imports billing's api).
 */

/** A recharge already paid (by card through the sandbox, or an offline remittance already confirmed). */
export async function recordPaidRecharge(tx: Tx, recharge: typeof payments.$inferInsert) {
  const [row] = await tx.insert(payments).values(recharge).returning();
  return row;
}

/** A withdrawal request already reviewed by an operator. */
export async function recordReviewedWithdrawal(tx: Tx, withdrawal: typeof withdrawals.$inferInsert) {
  const [row] = await tx.insert(withdrawals).values(withdrawal).returning();
  return row;
}
