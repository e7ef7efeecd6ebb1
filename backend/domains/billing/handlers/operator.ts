import { count, desc, eq } from "drizzle-orm";
import type { SignedInContext } from "#backend/http/router.ts";
import { derivedTotals, totalsOf, type Totals } from "#backend/domains/billing/ledger.ts";
import { ledgerEntries } from "#backend/domains/billing/tables.ts";

const same = (a: Totals, b: Totals) =>
  a.balanceCents === b.balanceCents &&
  a.withdrawableCents === b.withdrawableCents &&
  a.invoiceableCents === b.invoiceableCents;

/**
 * /ops/ledger/verify (operators): the wallet against the sums of the user's ledger entries and against
 * the running totals of the last entry. `consistent` is true when all three agree.
 */
export async function verifyLedger(input: { userId: number }, { deps }: SignedInContext) {
  const db = deps.db;
  const [wallet, derived, [last], [{ entries }]] = await Promise.all([
    totalsOf(db, input.userId),
    derivedTotals(db, input.userId),
    db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.userId, input.userId))
      .orderBy(desc(ledgerEntries.id))
      .limit(1),
    db.select({ entries: count() }).from(ledgerEntries).where(eq(ledgerEntries.userId, input.userId)),
  ]);
  const running: Totals = last
    ? {
        balanceCents: last.balanceAfter,
        withdrawableCents: last.withdrawableAfter,
        invoiceableCents: last.invoiceableAfter,
      }
    : { balanceCents: 0, withdrawableCents: 0, invoiceableCents: 0 };
  return { userId: input.userId, wallet, derived, entries, consistent: same(wallet, derived) && same(wallet, running) };
}
