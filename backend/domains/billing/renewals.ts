import { eq } from "drizzle-orm";
import { PayState } from "#contract/billing-codes.ts";
import type { Tx } from "#backend/db/client.ts";
import { issueBillOnce, markBillPaid, type NewBill } from "./bills-api.ts";
import { lockWallet, post } from "./ledger.ts";
import { isPayable } from "./rules.ts";
import { bills } from "./tables.ts";

/*
 * The bill side of a renewal (the services' payment cycle, docs/decisions/036; the dedicated nodes' periods),
 * named operations of the billing api (docs/decisions/051): the renewing domain keeps its own records and calls
 * these inside its transaction, after it has locked its own row.
 */

type BillRow = typeof bills.$inferSelect;

/**
 * The next period's bill, issued once (by its dedupe key) and paid from the balance at once when the balance
 * covers it (the ledger's payment under `${paymentKeyPrefix}:${billId}`). Undefined when the bill was issued
 * already (the sweep ran twice); `paid` false leaves it unpaid until its deadline.
 */
export async function chargeRenewal(
  tx: Tx,
  bill: NewBill,
  paymentKeyPrefix: string,
  now: Date,
): Promise<{ bill: BillRow; paid: boolean } | undefined> {
  const issued = await issueBillOnce(tx, bill);
  if (!issued) return undefined;
  const { balanceCents } = await lockWallet(tx, issued.userId, now);
  if (balanceCents < issued.payCents) return { bill: issued, paid: false };
  return { bill: await payFromBalance(tx, issued, `${paymentKeyPrefix}:${issued.id}`, now), paid: true };
}

/**
 * Pays a user's unpaid renewal bill from the balance (My bills, BillDetail, Pay on the service), locked for
 * update. Null when it is not that user's bill; `replayed` when it was paid already; `refused` when it is no
 * longer payable (expired, or its deadline passed).
 */
export async function payRenewalBill(
  tx: Tx,
  input: { userId: number; billId: number; idempotencyKey: string; now: Date },
): Promise<{ bill: BillRow; replayed: boolean; refused?: true } | null> {
  const [bill] = await tx.select().from(bills).where(eq(bills.id, input.billId)).for("update");
  if (!bill || bill.userId !== input.userId) return null;
  if (bill.payState === PayState.PAID) return { bill, replayed: true };
  if (!isPayable(bill, input.now)) return { bill, replayed: false, refused: true };
  return { bill: await payFromBalance(tx, bill, input.idempotencyKey, input.now), replayed: false };
}

/**
 * A renewal bill unpaid at its deadline, locked for update (the renewing domain then expires it and lapses its
 * record); null while it is paid or not due yet.
 */
export async function lapsedRenewalBill(tx: Tx, billId: number, now: Date): Promise<BillRow | null> {
  const [bill] = await tx.select().from(bills).where(eq(bills.id, billId)).for("update");
  if (!bill || bill.payState === PayState.PAID || bill.deadline.getTime() > now.getTime()) return null;
  return bill;
}

/** The bill's payment from its owner's balance (the ledger entry, then the bill paid). */
async function payFromBalance(tx: Tx, bill: BillRow, idempotencyKey: string, now: Date): Promise<BillRow> {
  await post(
    tx,
    {
      userId: bill.userId,
      kind: "bill_payment",
      amountCents: bill.payCents,
      refType: "bill",
      refId: bill.id,
      idempotencyKey,
    },
    now,
  );
  return markBillPaid(tx, bill.id, now);
}
