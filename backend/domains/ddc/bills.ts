import { eq } from "drizzle-orm";
import { PayState } from "#contract/billing-codes.ts";
import type { Tx } from "#backend/db/client.ts";
import billing from "#backend/domains/billing/index.ts";
import { bills } from "#backend/domains/billing/tables.ts";

/**
 * The service fee of a mint (§9 bill type 91) or a transfer (92), paid from the balance before the chain is
 * asked (docs/decisions/045): a paid bill and its `bill_payment` entry in the caller's transaction, refunded
 * (one `refund` entry, the bill refunded) when the chain refuses the transaction.
 */
export async function payFee(
  tx: Tx,
  input: {
    userId: number;
    billType: number;
    serviceName: string;
    cents: number;
    at: Date;
    prefix: string;
    dedupeKey: string;
  },
) {
  await billing.api.lockWallet(tx, input.userId, input.at);
  const bill = await billing.api.issueBill(tx, {
    billNo: billing.api.newBillNo(input.at, input.prefix),
    userId: input.userId,
    serviceName: input.serviceName,
    billType: input.billType,
    payState: PayState.PAID,
    payMode: 1,
    payType: "BALANCE",
    cycle: 2,
    periodStart: input.at,
    periodEnd: input.at,
    createdAt: input.at,
    deadline: input.at,
    paidAt: input.at,
    totalCents: input.cents,
    payCents: input.cents,
    dedupeKey: input.dedupeKey,
  });
  await billing.api.post(
    tx,
    {
      userId: input.userId,
      kind: "bill_payment",
      amountCents: input.cents,
      refType: "bill",
      refId: bill!.id,
      idempotencyKey: input.dedupeKey,
    },
    input.at,
  );
  return bill!;
}

/** The fee given back in the caller's transaction: one `refund` entry and the bill marked refunded, once. */
export async function refundFeeIn(tx: Tx, billId: number, now: Date) {
  const [bill] = await tx.select().from(bills).where(eq(bills.id, billId)).for("update");
  if (!bill || bill.payState !== PayState.PAID) return;
  await billing.api.lockWallet(tx, bill.userId, now);
  await billing.api.post(
    tx,
    {
      userId: bill.userId,
      kind: "refund",
      amountCents: bill.payCents,
      refType: "bill",
      refId: bill.id,
      idempotencyKey: `ddc-refund:${bill.id}`,
    },
    now,
  );
  await billing.api.recordBillRefund(tx, bill.id, { payState: PayState.REFUNDED, refundCents: bill.payCents });
}
