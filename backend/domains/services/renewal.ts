import billing from "#backend/domains/billing/index.ts";
import { and, asc, eq, inArray, isNotNull, isNull, lte } from "drizzle-orm";
import { BillType, PayState } from "#contract/billing-codes.ts";
import { DAY_MS, RENEWAL_GRACE_MS, UpgradeStatus, asCycle, cycleDays } from "#contract/config-upgrade-codes.ts";
import { configCycleCents } from "#contract/service-cost.ts";
import { VerState } from "#contract/service-status.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { hourlyJob, scheduleHourly } from "#backend/kit/hourly.ts";
import { bills } from "#backend/domains/billing/tables.ts";
import { applyTransition } from "./machine.ts";
import { appVersions, apps, configUpgrades } from "./tables.ts";
import { currentConfig, cycleOf, priceCatalogue, resourceLines, type Catalogue } from "./upgrade.ts";
import { expireUnpaidUpgrades } from "./upgrade-lifecycle.ts";
import inbox from "#backend/domains/inbox/index.ts";

/**
 * Renewals of the payment cycle (SPEC §4 Payment cycle, §9 "resource fees are charged from the balance, and
 * the first period is paid on creation"; docs/decisions/036). An hourly sweep:
 * - a service that runs without a recorded cycle gets the period of its publication's cycle (no charge);
 * - at a period's end, the next period's resource fees (today's catalogue, the current configuration) are
 *   billed (§9 type 11) and paid from the balance at once; when the balance is short the bill stays unpaid,
 *   Pay is offered on the service, and the service keeps running for the grace of 3 days;
 * - a renewal bill still unpaid after its deadline expires and the platform deactivates the service (→ 40);
 * - an approved upgrade whose bill was not paid within 3 days ends (upgrade.ts).
 */
export const JOB_RENEWALS = "service.renewals";

/** The versions whose bookings hold resources and so renew: running, deactivated by the publisher or the platform. */
const RENEWING = [VerState.RUNNING, VerState.DEACTIVATED, VerState.DEACTIVATED_BY_OPERATOR];

export const scheduleRenewals = (db: Db | Tx, at: Date) => scheduleHourly(db, JOB_RENEWALS, at);

/**
 * What the next period costs: the current configuration at today's catalogue. The free service (freeYN 1)
 * keeps the configuration it was published with free: only what upgrades added is billed.
 */
export async function renewalCents(q: Db | Tx, app: typeof apps.$inferSelect, verId: number, catalogue: Catalogue) {
  const cycle = asCycle(app.paymentCycle);
  const nodes = await currentConfig(q, verId);
  let cents = configCycleCents(nodes, catalogue, cycle);
  if (app.freeYN === 1) {
    const [first] = await q
      .select({ before: configUpgrades.before })
      .from(configUpgrades)
      .where(and(eq(configUpgrades.appId, app.id), eq(configUpgrades.status, UpgradeStatus.SUCCESS)))
      .orderBy(asc(configUpgrades.deployedAt))
      .limit(1);
    cents = Math.max(0, cents - configCycleCents(first?.before ?? nodes, catalogue, cycle));
  }
  return { cents, nodes };
}

/** Renews one service whose period has ended, in its own transaction. */
export async function renewInTx(tx: Tx, appId: number, now: Date) {
  const [app] = await tx.select().from(apps).where(eq(apps.id, appId)).for("update");
  if (!app?.cycleEnd || !app.currentVerId || app.renewalBillId !== null || app.cycleEnd.getTime() > now.getTime())
    return;
  const [version] = await tx.select().from(appVersions).where(eq(appVersions.id, app.currentVerId));
  if (!version || !(RENEWING as number[]).includes(version.verState)) return;
  const len = cycleDays(app.paymentCycle) * DAY_MS;
  const start = app.cycleEnd;
  const end = new Date(start.getTime() + len);
  const catalogue = await priceCatalogue(tx);
  const { cents, nodes } = await renewalCents(tx, app, version.id, catalogue);
  const until = end.toISOString();
  if (cents === 0) {
    await tx.update(apps).set({ cycleStart: start, cycleEnd: end }).where(eq(apps.id, app.id));
    return;
  }
  const charged = await billing.api.chargeRenewal(
    tx,
    {
      billNo: billing.api.newBillNo(now, "RB"),
      userId: app.userId,
      appId: app.id,
      serviceName: app.name,
      billType: BillType.RESOURCE_RENEWAL,
      payState: PayState.UNPAID,
      payMode: 1,
      cycle: app.paymentCycle,
      periodStart: start,
      periodEnd: end,
      createdAt: now,
      deadline: new Date(start.getTime() + RENEWAL_GRACE_MS),
      totalCents: cents,
      payCents: cents,
      detail: { resources: resourceLines(nodes, catalogue, app.paymentCycle), nodeCount: nodes.length },
      dedupeKey: `renewal:${app.id}:${start.toISOString()}`,
    },
    "renewal",
    now,
  );
  if (!charged) return;
  const { bill } = charged;
  if (charged.paid) {
    await tx.update(apps).set({ cycleStart: start, cycleEnd: end }).where(eq(apps.id, app.id));
    await inbox.api.notify(tx, {
      userId: app.userId,
      textKey: "messages.service.renewalPaid",
      params: { name: app.name, amount: (cents / 100).toFixed(2), until },
      at: now,
    });
    return;
  }
  await tx.update(apps).set({ renewalBillId: bill.id }).where(eq(apps.id, app.id));
  await inbox.api.notify(tx, {
    userId: app.userId,
    textKey: "messages.service.renewalUnpaid",
    params: {
      name: app.name,
      billNo: bill.billNo,
      amount: (cents / 100).toFixed(2),
      deadline: bill.deadline.toISOString(),
    },
    at: now,
  });
}

/**
 * Pays a service's unpaid renewal bill (Pay on the service, My bills, BillDetail) inside the caller's
 * transaction: the ledger entry, the bill paid, the period moved on. Null when the bill is not a renewal.
 */
export async function payRenewal(tx: Tx, input: { userId: number; billId: number; idempotencyKey: string; now: Date }) {
  const [app] = await tx.select().from(apps).where(eq(apps.renewalBillId, input.billId)).for("update");
  if (!app || app.userId !== input.userId) return null;
  const paying = await billing.api.payRenewalBill(tx, input);
  if (!paying || paying.replayed || paying.refused) return paying;
  const { bill } = paying;
  await tx
    .update(apps)
    .set({ cycleStart: bill.periodStart, cycleEnd: bill.periodEnd, renewalBillId: null })
    .where(eq(apps.id, app.id));
  return paying;
}

/** A renewal bill unpaid past its deadline: expired, and the service deactivated by the platform (→ 40). */
export async function lapseInTx(tx: Tx, appId: number, now: Date) {
  const [app] = await tx.select().from(apps).where(eq(apps.id, appId)).for("update");
  if (!app?.renewalBillId || !app.currentVerId) return;
  const bill = await billing.api.lapsedRenewalBill(tx, app.renewalBillId, now);
  if (!bill) return;
  await billing.api.expireBill(tx, bill.id, now);
  await tx.update(apps).set({ renewalBillId: null }).where(eq(apps.id, app.id));
  const [version] = await tx.select().from(appVersions).where(eq(appVersions.id, app.currentVerId));
  if (version && (version.verState === VerState.RUNNING || version.verState === VerState.DEACTIVATED)) {
    await applyTransition(tx, {
      verId: version.id,
      event: "lapse",
      actor: "system",
      actorId: null,
      now,
      comments: bill.billNo,
    });
  }
}

/** The sweep (see above); returns what it did, for tests. */
export async function sweepRenewals(db: Db, now: Date) {
  // Services that ran before cycles were recorded get the period of their publication's cycle.
  const unrecorded = await db
    .select({ app: apps, publishedAt: appVersions.publishedAt })
    .from(apps)
    .innerJoin(appVersions, eq(appVersions.id, apps.currentVerId))
    .where(and(isNull(apps.cycleEnd), inArray(appVersions.verState, RENEWING), isNotNull(appVersions.publishedAt)));
  for (const { app, publishedAt } of unrecorded) {
    const cycle = cycleOf(app, publishedAt, now);
    if (cycle)
      await db
        .update(apps)
        .set({ cycleStart: cycle.start, cycleEnd: cycle.end })
        .where(and(eq(apps.id, app.id), isNull(apps.cycleEnd)));
  }
  let renewed = 0;
  // A server that was down renews period after period until it reaches now.
  for (let round = 0; round < 60; round += 1) {
    const due = await db
      .select({ id: apps.id })
      .from(apps)
      .where(and(lte(apps.cycleEnd, now), isNull(apps.renewalBillId), isNotNull(apps.currentVerId)));
    const before = renewed;
    for (const { id } of due) {
      const [was] = await db.select({ end: apps.cycleEnd, bill: apps.renewalBillId }).from(apps).where(eq(apps.id, id));
      await db.transaction((tx) => renewInTx(tx, id, now));
      const [is] = await db.select({ end: apps.cycleEnd, bill: apps.renewalBillId }).from(apps).where(eq(apps.id, id));
      if (is.end?.getTime() !== was.end?.getTime() || is.bill !== was.bill) renewed += 1;
    }
    if (renewed === before) break;
  }
  const lapsing = await db
    .select({ id: apps.id })
    .from(apps)
    .innerJoin(bills, eq(bills.id, apps.renewalBillId))
    .where(lte(bills.deadline, now));
  for (const { id } of lapsing) await db.transaction((tx) => lapseInTx(tx, id, now));
  const expiredUpgrades = await expireUnpaidUpgrades(db, now);
  return { renewed, lapsed: lapsing.length, expiredUpgrades };
}

export const runRenewals = hourlyJob(JOB_RENEWALS, (deps, now) => sweepRenewals(deps.db, now));
