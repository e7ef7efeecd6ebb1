import type { Tx } from "#backend/db/client.ts";
import billing from "#backend/domains/billing/index.ts";

/**
 * A bill paid from the balance at `at` (a plan fee, type 56, or a gas assignment, type 50): prepaid, paid by
 * BALANCE, one per `dedupeKey`. The caller posts its `bill_payment` ledger entry.
 */
export async function paidBill(
  tx: Tx,
  input: {
    userId: number;
    billType: number;
    serviceName: string;
    cents: number;
    at: Date;
    periodEnd: Date;
    yearly: boolean;
    prefix: string;
    dedupeKey: string;
  },
) {
  const bill = await billing.api.issueBill(tx, {
    billNo: billing.api.newBillNo(input.at, input.prefix),
    userId: input.userId,
    serviceName: input.serviceName,
    billType: input.billType,
    payState: 15,
    payMode: 1,
    payType: "BALANCE",
    cycle: input.yearly ? 1 : 2,
    periodStart: input.at,
    periodEnd: input.periodEnd,
    createdAt: input.at,
    deadline: input.at,
    paidAt: input.at,
    totalCents: input.cents,
    payCents: input.cents,
    dedupeKey: input.dedupeKey,
  });
  return bill;
}
