import { and, eq, gte, ne, sql } from "drizzle-orm";
import { BUDGET_THRESHOLDS } from "#contract/alerts.ts";
import { PayState } from "#contract/billing-codes.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { bills, wallets } from "#backend/domains/billing/tables.ts";
import { schedule, type JobHandler } from "#backend/jobs/runner.ts";
import { periodEndCandidates } from "./periods.ts";
import { alertFirings, alertSettings } from "./tables.ts";
import { fireAll, told, unfired, type Candidate } from "./tell.ts";
import { capacityCandidates, requestCandidates, trafficCandidates, type Scope } from "./usage.ts";

/**
 * Checking alerts (issue 35 §1, docs/decisions/087, 090): an account's after its settings are saved, every account's
 * by a durable job every few minutes, and a meter's subjects after a flush that moved their counts (./flush.ts). Each
 * alert is told once per threshold and period, also with several processes checking at once: by the unique firing row
 * (./tell.ts), and the balance's by the conditional update of its flag. A message is written in the same transaction
 * (Message center, and mail by role, ADR 085).
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

/** The budget alert of one account's settings (docs/decisions/087), when this month's bills reached 50 % of it. */
async function budgetCandidate(db: Db, accountId: number, budget: number, now: Date): Promise<Candidate[]> {
  const billed = await billedThisMonth(db, accountId, now);
  const reached = BUDGET_THRESHOLDS.filter((share) => billed * 100 >= share * budget);
  if (reached.length === 0) return [];
  const month = now.toISOString().slice(0, 7);
  return [
    {
      accountId,
      kind: "budget",
      subjectId: 0,
      subjectName: "",
      reached,
      period: month,
      value: billed,
      limit: budget,
      notice: (threshold) => ({
        textKey: threshold >= 100 ? "messages.alerts.budgetReached" : "messages.alerts.budget",
        params: { percent: String(threshold), billed: usd(billed), budget: usd(budget), month },
      }),
    },
  ];
}

/**
 * The balance alert: armed by `alert_settings.balance_alerted` (the conditional update that sets it decides which
 * check tells), cleared when a check sees the balance back at or above the amount; its firing row is per day.
 */
async function checkBalance(db: Db, accountId: number, floor: number, alerted: boolean, now: Date) {
  const balance = await balanceOf(db, accountId);
  if (balance >= floor) {
    // Back above the amount: the next fall is told again.
    if (alerted)
      await db.update(alertSettings).set({ balanceAlerted: false }).where(eq(alertSettings.accountId, accountId));
    return 0;
  }
  return db.transaction(async (tx) => {
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
      .returning();
    if (!fired) return 0;
    await told(tx, fired, { textKey: "messages.alerts.balance", params: { balance: usd(balance), floor: usd(floor) } });
    return 1;
  });
}

/** The usage and period-end alerts in a scope (docs/decisions/090): these need no settings but the traffic budget. */
export async function usageCandidates(db: Db, now: Date, scope: Scope): Promise<Candidate[]> {
  const periodEnds = scope.projectIds || scope.serviceIds ? [] : periodEndCandidates(db, now, scope.accountId);
  const found = await Promise.all([
    requestCandidates(db, now, scope),
    capacityCandidates(db, scope),
    trafficCandidates(db, now, scope),
    periodEnds,
  ]);
  return found.flat();
}

/** Checks every alert of one account now (after a save, and in tests); answers how many it told. */
export async function checkAlerts(db: Db, accountId: number, now: Date): Promise<number> {
  const [settings] = await db.select().from(alertSettings).where(eq(alertSettings.accountId, accountId));
  let told = 0;
  if (settings?.monthlyBudgetCents)
    told += await fireAll(db, await budgetCandidate(db, accountId, settings.monthlyBudgetCents, now), now);
  if (settings?.balanceFloorCents)
    told += await checkBalance(db, accountId, settings.balanceFloorCents, settings.balanceAlerted, now);
  return told + (await fireAll(db, await usageCandidates(db, now, { accountId }), now));
}

/** The next check, at the next slot of CHECK_EVERY_MS (one job a slot, whichever process schedules it). */
export function scheduleCheck(db: Db, at: Date) {
  const slot = new Date(Math.ceil(at.getTime() / CHECK_EVERY_MS) * CHECK_EVERY_MS);
  return schedule(db, CHECK_ALERTS, {}, { runAt: slot, dedupeKey: `${CHECK_ALERTS}:${slot.toISOString()}` });
}

/**
 * Every account's alerts: the money alerts of each account with settings, the usage and period-end alerts of every
 * subject at once (what was told before is skipped by its firing rows); then the next check.
 */
export async function checkAll(db: Db, now: Date): Promise<number> {
  const accounts = await db.select().from(alertSettings);
  let told = 0;
  for (const s of accounts) {
    if (s.monthlyBudgetCents)
      told += await fireAll(db, await budgetCandidate(db, s.accountId, s.monthlyBudgetCents, now), now);
    if (s.balanceFloorCents) told += await checkBalance(db, s.accountId, s.balanceFloorCents, s.balanceAlerted, now);
  }
  return told + (await fireAll(db, await unfired(db, await usageCandidates(db, now, {})), now));
}

const checkJob: JobHandler = async (_payload, services) => {
  const now = services.now();
  await checkAll(services.db, now);
  await scheduleCheck(services.db, new Date(now.getTime() + 1));
};

export const alertJobs = { [CHECK_ALERTS]: checkJob };
