import { and, count, eq } from "drizzle-orm";
import { PayState } from "#contract/billing.ts";
import { Msg } from "#contract/messages.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { ApiError } from "#backend/http/errors.ts";
import { isPayable, usd } from "./rules.ts";
import { post } from "./ledger.ts";
import { blockingWhere } from "./figures.ts";
import { bills, ledgerEntries } from "./tables.ts";
import { memberOnPayment } from "./spend.ts";
import inbox from "#backend/domains/inbox/index.ts";

/** What a domain that settles its own bills answers for a bill it settled (payBill adds the balance). */
export type SettledBill = { billId: number; billNo: string; payState: number; paidCents: number; replayed: boolean };

/**
 * Pays one bill that belongs to another domain's record and moves that record on, inside `tx`; null when the
 * bill is not one of that domain's. Registered at start through the billing api (`settleBillsWith`).
 */
export type BillSettler = (
  tx: Tx,
  bill: { userId: number; billId: number; idempotencyKey: string; now: Date },
) => Promise<SettledBill | null>;

const settlers = new Map<string, BillSettler>();

/** Lets the domain `name` settle its own bills when they are paid from My bills or BillDetail. */
export function settleBillsWith(name: string, settler: BillSettler): void {
  settlers.set(name, settler);
}

/**
 * Pays one bill inside the caller's transaction; `key` is the ledger entry's idempotency key. The same key
 * again answers the first payment (`replayed`); the same key for another bill is MSG_31001. `textKey` is the
 * inbox message that says so (auto-pay has its own, docs/decisions/059).
 */
export async function payInTx(
  tx: Tx,
  userId: number,
  billId: number,
  key: string,
  now: Date,
  textKey = "messages.billPaid",
) {
  // A bill another domain settles (a service's publish bill, a participation's node order) is paid by that
  // domain, which also moves its own record on; it locks its record before the bill, so this path does not
  // lock first.
  for (const settle of settlers.values()) {
    const paid = await settle(tx, { userId, billId, idempotencyKey: key, now });
    if (paid) return paid;
  }
  const [bill] = await tx
    .select()
    .from(bills)
    .where(and(eq(bills.id, billId), eq(bills.userId, userId)))
    .for("update");
  if (!bill) throw new ApiError(Msg.NOT_FOUND);
  const [done] = await tx
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.userId, userId), eq(ledgerEntries.idempotencyKey, key)))
    .limit(1);
  if (done) {
    if (done.refType !== "bill" || done.refId !== bill.id) throw new ApiError(Msg.IDEMPOTENCY_KEY_REUSED);
    return {
      billId: bill.id,
      billNo: bill.billNo,
      payState: bill.payState,
      paidCents: -done.balanceDelta,
      replayed: true,
    };
  }
  if (!isPayable(bill, now)) throw new ApiError(Msg.BILL_NOT_PAYABLE, { payState: bill.payState });
  await post(
    tx,
    { userId, kind: "bill_payment", amountCents: bill.payCents, refType: "bill", refId: bill.id, idempotencyKey: key },
    now,
  );
  await tx
    .update(bills)
    .set({
      payState: PayState.PAID,
      payType: "BALANCE",
      paidAt: now,
      awaitsFinance: false,
      memberUserId: memberOnPayment(),
    })
    .where(eq(bills.id, bill.id));
  await inbox.api.notify(tx, {
    userId,
    textKey,
    params: { billNo: bill.billNo, amount: usd(bill.payCents) },
    ref: { kind: "bill", id: bill.id },
    at: now,
  });
  return {
    billId: bill.id,
    billNo: bill.billNo,
    payState: PayState.PAID as number,
    paidCents: bill.payCents,
    replayed: false,
  };
}

/**
 * SPEC §5 "Blocking by bills" and §7 h5isHasNoPayBillV2 (docs/decisions/006, 059; `billBlocks` in
 * contract/billing-codes.ts):
 * - every payType is blocked by an unpaid postpaid usage bill (payMode 2: weekly data traffic, IPFS traffic,
 *   cross-chain calls) from its deadline (issue + 7 days) on: usage bills never expire, they are owed until
 *   paid, and block once overdue;
 * - payType 2 (dedicated node) is also blocked by a dedicated-node bill still waiting for payment
 *   before its deadline (one node application at a time);
 * - unpaid prepaid bills (publish, config upgrade, IPFS ...) are applications waiting for payment:
 *   they do not block, and expire at their deadline (§4 status 10, §8 "valid for 3 days").
 * Other domains call `hasBlockingBills` on the server before creating or upgrading anything.
 */
export async function hasBlockingBills(db: Db | Tx, userId: number, payType: 1 | 2, now: Date): Promise<boolean> {
  const [{ n }] = await db
    .select({ n: count() })
    .from(bills)
    .where(blockingWhere(userId, payType, now));
  return n > 0;
}
