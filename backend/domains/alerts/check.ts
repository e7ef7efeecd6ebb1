import { and, eq, gte, ne, sql } from "drizzle-orm";
import { BUDGET_THRESHOLDS } from "#contract/alerts.ts";
import { PayState } from "#contract/billing-codes.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { bills, wallets } from "#backend/domains/billing/tables.ts";
import inbox from "#backend/domains/inbox/index.ts";
import { schedule, type JobHandler } from "#backend/jobs/runner.ts";
import { alertFirings, alertSettings } from "./tables.ts";

/**
 * Checking an account's alerts (issue 35 §1, docs/decisions/087): after its settings are saved, and by a durable job
 * every few minutes for every account that has any. Each alert is told once per threshold and period, also with
 * several processes checking at once: the budget's by the unique firing row, the balance's by the conditional
 * update of its flag. A message is written in the same transaction (Message center, and mail by role, ADR 085).
 */

export const CHECK_ALERTS = "alerts.check";
/** How often the job checks every account's alerts. */
export const CHECK_EVERY_MS = 5 * 60 * 1000;

const usd = (cents: number) => (cents / 100).toFixed(2);
const monthStart = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));

/** What the account's bills issued this calendar month (UTC) come to, less refunds; expired bills are not owed. */
export async function billedThisMonth(db: Db | Tx, accountId: number, now: Date): Promise<number> {
  const [row] = await db
    .select({ billed: sql<string>`coalesce(sum(${bills.totalCents} - ${bills.refundCents}), 0)` })
    .from(bills)
    .where(
      and(eq(bills.userId, accountId), gte(bills.createdAt, monthStart(now)), ne(bills.payState, PayState.EXPIRED)),
    );
  return Number(row.billed);
}

export async function balanceOf(db: Db | Tx, accountId: number): Promise<number> {
  const [row] = await db.select({ balance: wallets.balanceCents }).from(wallets).where(eq(wallets.userId, accountId));
  return row?.balance ?? 0;
}

/** Checks the alerts of one account now; answers how many it told. */
export async function checkAlerts(db: Db, accountId: number, now: Date): Promise<number> {
  const [settings] = await db.select().from(alertSettings).where(eq(alertSettings.accountId, accountId));
  if (!settings) return 0;
  let told = 0;
  const budget = settings.monthlyBudgetCents;
  if (budget) {
    const billed = await billedThisMonth(db, accountId, now);
    const reached = BUDGET_THRESHOLDS.filter((share) => billed * 100 >= share * budget);
    if (reached.length > 0)
      told += await db.transaction(async (tx) => {
        const month = now.toISOString().slice(0, 7);
        const fired = await tx
          .insert(alertFirings)
          .values(
            reached.map((threshold) => ({
              accountId,
              kind: "budget",
              threshold,
              period: month,
              valueCents: billed,
              limitCents: budget,
              firedAt: now,
            })),
          )
          .onConflictDoNothing()
          .returning({ id: alertFirings.id, threshold: alertFirings.threshold });
        if (fired.length === 0) return 0;
        // Spend that leaps past several thresholds at once is told once, at the highest.
        const top = fired.reduce((a, b) => (b.threshold > a.threshold ? b : a));
        await inbox.api.notify(tx, {
          userId: accountId,
          textKey: top.threshold >= 100 ? "messages.alerts.budgetReached" : "messages.alerts.budget",
          params: { percent: String(top.threshold), billed: usd(billed), budget: usd(budget), month },
          at: now,
          ref: { kind: "alert", id: top.id },
        });
        return 1;
      });
  }
  const floor = settings.balanceFloorCents;
  if (floor) {
    const balance = await balanceOf(db, accountId);
    if (balance < floor) {
      told += await db.transaction(async (tx) => {
        const armed = await tx
          .update(alertSettings)
          .set({ balanceAlerted: true })
          .where(and(eq(alertSettings.accountId, accountId), eq(alertSettings.balanceAlerted, false)))
          .returning({ accountId: alertSettings.accountId });
        if (armed.length === 0) return 0;
        const [fired] = await tx
          .insert(alertFirings)
          .values({
            accountId,
            kind: "balance",
            threshold: 0,
            period: now.toISOString().slice(0, 10),
            valueCents: balance,
            limitCents: floor,
            firedAt: now,
          })
          .onConflictDoNothing()
          .returning({ id: alertFirings.id });
        if (!fired) return 0;
        await inbox.api.notify(tx, {
          userId: accountId,
          textKey: "messages.alerts.balance",
          params: { balance: usd(balance), floor: usd(floor) },
          at: now,
          ref: { kind: "alert", id: fired.id },
        });
        return 1;
      });
    } else if (settings.balanceAlerted) {
      // Back above the amount: the next fall is told again.
      await db.update(alertSettings).set({ balanceAlerted: false }).where(eq(alertSettings.accountId, accountId));
    }
  }
  return told;
}

/** The next check, at the next slot of CHECK_EVERY_MS (one job a slot, whichever process schedules it). */
export function scheduleCheck(db: Db, at: Date) {
  const slot = new Date(Math.ceil(at.getTime() / CHECK_EVERY_MS) * CHECK_EVERY_MS);
  return schedule(db, CHECK_ALERTS, {}, { runAt: slot, dedupeKey: `${CHECK_ALERTS}:${slot.toISOString()}` });
}

/** Every account with alerts, then the next check. */
const checkAll: JobHandler = async (_payload, services) => {
  const now = services.now();
  const accounts = await services.db.select({ accountId: alertSettings.accountId }).from(alertSettings);
  for (const { accountId } of accounts) await checkAlerts(services.db, accountId, now);
  await scheduleCheck(services.db, new Date(now.getTime() + 1));
};

export const alertJobs = { [CHECK_ALERTS]: checkAll };
