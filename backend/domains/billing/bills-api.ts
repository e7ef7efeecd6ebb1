import { and, eq, inArray } from "drizzle-orm";
import { PayState } from "#contract/billing.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { bills } from "./tables.ts";
import { memberOnPayment } from "./spend.ts";
import { actingFor } from "#backend/http/acting.ts";

/**
 * The bill writes other domains make through the billing api (docs/decisions/018): each runs on the handle it
 * is given (the caller's transaction when there is one), so it commits or rolls back with the caller's records.
 */

type BillRow = typeof bills.$inferSelect;
/** A new bill as its domain issues it: number, owner, what it is for, period, amounts and state. */
export type NewBill = typeof bills.$inferInsert;

/** Issues a bill (a domain's application, order, renewal or a bill already paid from the balance). */
export async function issueBill(tx: Db | Tx, bill: NewBill): Promise<BillRow> {
  const [row] = await tx.insert(bills).values(withMember(bill)).returning();
  return row;
}

/** A bill issued by a member's action in the account's name records the member (docs/decisions/080). */
const withMember = (bill: NewBill): NewBill =>
  bill.memberUserId === undefined ? { ...bill, memberUserId: actingFor(bill.userId)?.memberId ?? null } : bill;

/**
 * Issues a bill once per dedupe key (or bill number): undefined when a bill with that key exists already
 * (a generated renewal or publish bill whose job ran twice).
 */
export async function issueBillOnce(tx: Db | Tx, bill: NewBill): Promise<BillRow | undefined> {
  const [row] = await tx.insert(bills).values(withMember(bill)).onConflictDoNothing().returning();
  return row;
}

/** Marks a bill paid from the balance at `paidAt` (the ledger entry is posted by the caller first). */
export async function markBillPaid(tx: Db | Tx, billId: number, paidAt: Date): Promise<BillRow> {
  const [row] = await tx
    .update(bills)
    .set({ payState: PayState.PAID, payType: "BALANCE", paidAt, awaitsFinance: false, memberUserId: memberOnPayment() })
    .where(eq(bills.id, billId))
    .returning();
  return row;
}

/**
 * Marks an unpaid bill expired (§4 status 10); `releaseTime`, when given, is when its resources are released.
 */
export async function expireBill(tx: Db | Tx, billId: number, releaseTime?: Date): Promise<void> {
  await tx
    .update(bills)
    .set(releaseTime === undefined ? { payState: PayState.EXPIRED } : { payState: PayState.EXPIRED, releaseTime })
    .where(eq(bills.id, billId));
}

/**
 * Records a refund of a paid bill (the ledger's refund entry is posted by the caller): the bill's refunded
 * amount so far, its state (20 all refunded, 25 partly refunded) and, when given, the refund's number.
 */
export async function recordBillRefund(
  tx: Db | Tx,
  billId: number,
  refund: { refundCents: number; payState: number; refundNo?: string },
): Promise<void> {
  await tx
    .update(bills)
    .set(
      refund.refundNo === undefined
        ? { payState: refund.payState, refundCents: refund.refundCents }
        : { refundCents: refund.refundCents, refundNo: refund.refundNo, payState: refund.payState },
    )
    .where(eq(bills.id, billId));
}

/**
 * Moves a user's bills to an invoicing state (§4: 1 not invoiced, 2 in progress, 5 invoiced); with `from`,
 * only those still in that state.
 */
export async function setBillsInvoiceState(
  tx: Db | Tx,
  input: { userId: number; billIds: number[]; state: number; from?: number },
): Promise<void> {
  await tx
    .update(bills)
    .set({ invoiceState: input.state })
    .where(
      and(
        inArray(bills.id, input.billIds),
        eq(bills.userId, input.userId),
        input.from === undefined ? undefined : eq(bills.invoiceState, input.from),
      ),
    );
}

/** Tests only: moves an unpaid bill's payment deadline to `deadline` (to make it lapse without waiting). */
export async function moveUnpaidBillDeadline(tx: Db | Tx, billId: number, deadline: Date): Promise<void> {
  await tx
    .update(bills)
    .set({ deadline })
    .where(and(eq(bills.id, billId), eq(bills.payState, PayState.UNPAID)));
}
