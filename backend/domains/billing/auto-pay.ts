import { and, eq } from "drizzle-orm";
import { PayState } from "#contract/billing-codes.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import type { Deps } from "#backend/deps.ts";
import { schedule, type JobHandler } from "#backend/jobs/runner.ts";
import inbox from "#backend/domains/inbox/index.ts";
import { lockWallet } from "./ledger.ts";
import { usd } from "./rules.ts";
import { payInTx } from "./settle.ts";
import { billingSettings, bills } from "./tables.ts";

/**
 * Auto-pay of usage bills from the balance (docs/decisions/059):
 * - `billing.autoPay` {billId}: scheduled in the transaction that issues a weekly usage bill (data traffic, IPFS
 *   traffic, cross-chain calls) when its owner has auto-pay on; pays it from the balance through the one payment
 *   path (`payInTx`, ledger key `autopay:<billId>`), or tells the owner at once that the deduction failed.
 *   The bill row is locked and must still be unpaid: a second run, or a second process, pays nothing.
 * - `billing.autoPayOffer`: once (dedupe key), the inbox message offering auto-pay to the accounts that existed
 *   before ADR 059 (migration 0031 gave them auto-pay off and `offer_pending`).
 */
export const AUTO_PAY = "billing.autoPay";
export const AUTO_PAY_OFFER = "billing.autoPayOffer";

/** Whether the user's usage bills are paid from the balance when issued: no row is an account made after ADR 059 (on). */
export async function autoPayOn(db: Db | Tx, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ autoPay: billingSettings.autoPay })
    .from(billingSettings)
    .where(eq(billingSettings.userId, userId));
  return row ? row.autoPay : true;
}

/** Turns auto-pay on or off for the user (My account). */
export async function setAutoPay(db: Db | Tx, userId: number, enabled: boolean, now: Date): Promise<boolean> {
  await db
    .insert(billingSettings)
    .values({ userId, autoPay: enabled, updatedAt: now })
    .onConflictDoUpdate({
      target: billingSettings.userId,
      // A choice made answers the one-time offer too.
      set: { autoPay: enabled, offerPending: false, updatedAt: now },
    });
  return enabled;
}

/** In the transaction that issues a usage bill: schedules its auto-payment when the owner has auto-pay on. */
export async function scheduleAutoPay(tx: Tx, bill: { id: number; userId: number }, now: Date): Promise<void> {
  if (!(await autoPayOn(tx, bill.userId))) return;
  await schedule(tx, AUTO_PAY, { billId: bill.id }, { runAt: now, dedupeKey: `${AUTO_PAY}:${bill.id}` });
}

export type AutoPayOutcome = "paid" | "failed" | "skipped";

/**
 * Pays one usage bill from the balance if it is still unpaid and its owner still has auto-pay on; when the
 * balance is short, the bill stays unpaid and the owner gets "Deduction failed" (SPEC §8) with what to do.
 */
export async function autoPayBill(db: Db, billId: number, now: Date): Promise<AutoPayOutcome> {
  return db.transaction(async (tx) => {
    const [bill] = await tx.select().from(bills).where(eq(bills.id, billId)).for("update");
    if (!bill || bill.payMode !== 2 || bill.payState !== PayState.UNPAID || bill.payCents <= 0) return "skipped";
    if (!(await autoPayOn(tx, bill.userId))) return "skipped";
    const { balanceCents } = await lockWallet(tx, bill.userId, now);
    if (balanceCents < bill.payCents) {
      await inbox.api.notify(tx, {
        userId: bill.userId,
        textKey: "messages.autoPayFailed",
        params: {
          billNo: bill.billNo,
          amount: usd(bill.payCents),
          balance: usd(balanceCents),
          deadline: bill.deadline.toISOString(),
        },
        ref: { kind: "bill", id: bill.id },
        at: now,
      });
      return "failed";
    }
    await payInTx(tx, bill.userId, bill.id, `autopay:${bill.id}`, now, "messages.billAutoPaid");
    return "paid";
  });
}

/** Sends the one-time auto-pay offer to every account still waiting for it; returns how many were told. */
export async function sendAutoPayOffers(db: Db, now: Date): Promise<number> {
  return db.transaction(async (tx) => {
    // The update is the claim: a second process finds the rows already cleared and tells nobody twice.
    const offered = await tx
      .update(billingSettings)
      .set({ offerPending: false, updatedAt: now })
      .where(and(eq(billingSettings.offerPending, true), eq(billingSettings.autoPay, false)))
      .returning({ userId: billingSettings.userId });
    await inbox.api.notifyAll(
      tx,
      offered.map((o) => ({ userId: o.userId, textKey: "messages.autoPayOffer", params: {}, at: now })),
    );
    return offered.length;
  });
}

export function scheduleAutoPayOffer(db: Db, now: Date) {
  return schedule(db, AUTO_PAY_OFFER, {}, { runAt: now, dedupeKey: AUTO_PAY_OFFER });
}

export const autoPayJobs: Record<string, JobHandler> = {
  [AUTO_PAY]: async (payload, services: Deps) => {
    await autoPayBill(services.db, Number(payload.billId), services.now());
  },
  [AUTO_PAY_OFFER]: async (_payload, services: Deps) => {
    await sendAutoPayOffers(services.db, services.now());
  },
};
