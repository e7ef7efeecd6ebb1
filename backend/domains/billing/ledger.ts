import { and, eq, sql } from "drizzle-orm";
import type { LedgerEntryKind } from "#contract/billing-codes.ts";
import { Msg } from "#contract/messages.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { ledgerEntries, wallets } from "./tables.ts";
import { ApiError } from "#backend/http/errors.ts";
import { actingFor } from "#backend/http/acting.ts";
import { chargingMember } from "./spend.ts";

/**
 * The one ledger (ARCHITECTURE house habit 9; issue "Account centre and finance"). Every change of a
 * user's balance, withdrawable amount or invoiceable amount is one call of `post` inside the caller's
 * transaction: it locks the user's wallet row, computes the deltas of the operation from the locked
 * totals, writes the entry with the totals after it, and updates the wallet. Nothing else writes
 * `wallets` or `ledger_entries`.
 *
 * What each kind does (amount > 0, in USD cents):
 *
 * | kind               | balance | withdrawable                       | invoiceable            |
 * |--------------------|---------|------------------------------------|------------------------|
 * | recharge           | +a      | +a                                 |                        |
 * | grant              | +a      |                                    |                        |
 * | bill_payment       | -a      | down to the new balance if above it| +a                     |
 * | refund             | +a      | +a                                 | -min(a, invoiceable)   |
 * | withdrawal_hold    | -a      | -a (a ≤ withdrawable)              |                        |
 * | withdrawal_release | +a      | +a                                 |                        |
 * | invoice_hold       |         |                                    | -a (a ≤ invoiceable)   |
 * | invoice_release    |         |                                    | +a                     |
 *
 * Non-withdrawable money (grants) is spent first, so a payment takes withdrawable money only when it
 * must. The database checks keep balance ≥ 0 and 0 ≤ withdrawable ≤ balance whatever happens. The kinds
 * are the contract's LEDGER_ENTRY_KINDS (the transaction list filters by them).
 */

export type Totals = { balanceCents: number; withdrawableCents: number; invoiceableCents: number };
export type Deltas = { balanceDelta: number; withdrawableDelta: number; invoiceableDelta: number };

export type Posting = {
  userId: number;
  kind: LedgerEntryKind;
  amountCents: number;
  refType: "bill" | "payment" | "withdrawal" | "invoice" | "grant";
  refId: number;
  /** The same key for the same user writes one entry: a replay returns the first one. */
  idempotencyKey?: string | null;
};

/** The deltas of one operation on the given totals; refuses what the totals cannot cover. Pure. */
export function deltasFor(kind: LedgerEntryKind, amount: number, t: Totals): Deltas {
  if (!Number.isSafeInteger(amount) || amount <= 0) throw new ApiError(Msg.AMOUNT_INVALID);
  switch (kind) {
    case "recharge":
    case "withdrawal_release":
      return { balanceDelta: amount, withdrawableDelta: amount, invoiceableDelta: 0 };
    case "grant":
      return { balanceDelta: amount, withdrawableDelta: 0, invoiceableDelta: 0 };
    case "bill_payment": {
      if (amount > t.balanceCents)
        throw new ApiError(Msg.INSUFFICIENT_BALANCE, { balanceCents: t.balanceCents, amountCents: amount });
      const balanceAfter = t.balanceCents - amount;
      return {
        balanceDelta: -amount,
        withdrawableDelta: Math.min(t.withdrawableCents, balanceAfter) - t.withdrawableCents,
        invoiceableDelta: amount,
      };
    }
    case "refund":
      return {
        balanceDelta: amount,
        withdrawableDelta: amount,
        invoiceableDelta: -Math.min(amount, t.invoiceableCents),
      };
    case "withdrawal_hold":
      if (amount > t.withdrawableCents)
        throw new ApiError(Msg.OVER_WITHDRAWABLE, { withdrawableCents: t.withdrawableCents });
      return { balanceDelta: -amount, withdrawableDelta: -amount, invoiceableDelta: 0 };
    case "invoice_hold":
      if (amount > t.invoiceableCents)
        throw new ApiError(Msg.OVER_INVOICEABLE, { invoiceableCents: t.invoiceableCents });
      return { balanceDelta: 0, withdrawableDelta: 0, invoiceableDelta: -amount };
    case "invoice_release":
      return { balanceDelta: 0, withdrawableDelta: 0, invoiceableDelta: amount };
  }
}

/** The wallet row, locked for the rest of the transaction (created empty on first use). */
export async function lockWallet(tx: Tx, userId: number, now: Date): Promise<Totals> {
  await tx.insert(wallets).values({ userId, updatedAt: now }).onConflictDoNothing();
  const [row] = await tx.select().from(wallets).where(eq(wallets.userId, userId)).for("update");
  return {
    balanceCents: row.balanceCents,
    withdrawableCents: row.withdrawableCents,
    invoiceableCents: row.invoiceableCents,
  };
}

/** Posts one operation (see the table above) inside `tx`; returns the entry and whether it was a replay. */
export async function post(tx: Tx, posting: Posting, now: Date) {
  const before = await lockWallet(tx, posting.userId, now);
  if (posting.idempotencyKey) {
    const [existing] = await tx
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.userId, posting.userId), eq(ledgerEntries.idempotencyKey, posting.idempotencyKey)))
      .limit(1);
    if (existing) return { entry: existing, replayed: true, totals: before };
  }
  const d = deltasFor(posting.kind, posting.amountCents, before);
  // A bill payment made by a member's own action is theirs: within their monthly limit when their role lacks
  // "pay", and recorded with them (docs/decisions/080). The wallet's lock above orders two charges at once.
  const member = posting.kind === "bill_payment" ? await chargingMember(tx, posting, now) : actingFor(posting.userId);
  const after: Totals = {
    balanceCents: before.balanceCents + d.balanceDelta,
    withdrawableCents: before.withdrawableCents + d.withdrawableDelta,
    invoiceableCents: before.invoiceableCents + d.invoiceableDelta,
  };
  const [entry] = await tx
    .insert(ledgerEntries)
    .values({
      userId: posting.userId,
      kind: posting.kind,
      ...d,
      balanceAfter: after.balanceCents,
      withdrawableAfter: after.withdrawableCents,
      invoiceableAfter: after.invoiceableCents,
      refType: posting.refType,
      refId: posting.refId,
      idempotencyKey: posting.idempotencyKey ?? null,
      memberUserId: member?.memberId ?? null,
      createdAt: now,
    })
    .returning();
  await tx
    .update(wallets)
    .set({ ...after, updatedAt: now })
    .where(eq(wallets.userId, posting.userId));
  return { entry, replayed: false, totals: after };
}

/** The totals as the wallet holds them (zeros for a user who never had an entry). */
export async function totalsOf(db: Db | Tx, userId: number): Promise<Totals> {
  const [row] = await db.select().from(wallets).where(eq(wallets.userId, userId));
  return row
    ? {
        balanceCents: row.balanceCents,
        withdrawableCents: row.withdrawableCents,
        invoiceableCents: row.invoiceableCents,
      }
    : { balanceCents: 0, withdrawableCents: 0, invoiceableCents: 0 };
}

/** The totals derived from the ledger alone: the sums of the user's deltas. */
export async function derivedTotals(db: Db | Tx, userId: number): Promise<Totals> {
  const [row] = await db
    .select({
      balanceCents: sql<string>`coalesce(sum(${ledgerEntries.balanceDelta}), 0)`,
      withdrawableCents: sql<string>`coalesce(sum(${ledgerEntries.withdrawableDelta}), 0)`,
      invoiceableCents: sql<string>`coalesce(sum(${ledgerEntries.invoiceableDelta}), 0)`,
    })
    .from(ledgerEntries)
    .where(eq(ledgerEntries.userId, userId));
  return {
    balanceCents: Number(row.balanceCents),
    withdrawableCents: Number(row.withdrawableCents),
    invoiceableCents: Number(row.invoiceableCents),
  };
}
