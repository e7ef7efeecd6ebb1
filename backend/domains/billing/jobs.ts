import { and, eq, gte, inArray, lte, sql } from "drizzle-orm";
import { BillType, PayState } from "#contract/billing.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { bills, usageDaily, type BillDetail } from "./tables.ts";
import { cityNodes } from "#backend/db/tables.ts";
import { schedule, type JobHandler } from "#backend/jobs/runner.ts";
import type { Deps } from "#backend/deps.ts";
import { flushTraffic } from "./meter.ts";
import { mbToGb, newBillNo, usd } from "./rules.ts";
import { ipfsServices, ipfsTrafficDaily } from "#backend/domains/ipfs/tables.ts";
import { addDays, DAY_MS, startOfDay, weekEnd } from "./time.ts";
import crossChain from "#backend/domains/cross-chain/index.ts";
import inbox from "#backend/domains/inbox/index.ts";
import { scheduleAutoPay } from "./auto-pay.ts";

/**
 * The billing jobs (docs/decisions/005 runner, 006 rules):
 * - `billing.weeklyTraffic` {weekStart}: one data-traffic bill per user with usage in that week
 *   (Monday-Sunday, UTC+8), made once (dedupe key `traffic:<userId>:<weekStart>`), and one IPFS traffic
 *   bill per user with IPFS downloads that week (`ipfs-traffic:<userId>:<weekStart>`); then schedules itself
 *   for the following week, one job per week (dedupe key `billing.weeklyTraffic:<weekStart>`).
 * - `billing.expireBills`: unpaid prepaid bills past their deadline expire (§4 status 10); then schedules
 *   itself for the next hour (one job per hour).
 * The domain's `schedules` (index.ts) schedule both at start when missing (idempotent). Each usage bill made
 * schedules its auto-payment in its own transaction when its owner has auto-pay on (auto-pay.ts, ADR 059).
 */
export const WEEKLY_TRAFFIC = "billing.weeklyTraffic";
export const EXPIRE_BILLS = "billing.expireBills";

const HOUR_MS = 60 * 60 * 1000;
/** The weekly run starts an hour after the week ends (Monday 01:00 UTC+8), once Sunday's usage is in. */
const WEEKLY_DELAY_MS = HOUR_MS;
/** A data-traffic bill is due 7 days after it is made. */
export const TRAFFIC_DUE_MS = 7 * DAY_MS;

export type TrafficLine = NonNullable<BillDetail["dataUsage"]>[number];

/** SPEC §9 "Data traffic is billed weekly by actual use": GB at 1024 MB, rounded to 2 decimals and to the cent. */
export function trafficLine(nodeCode: string, trafficMb: number, pricePerGbCents: number): TrafficLine {
  return {
    nodeCode,
    usedGb: mbToGb(trafficMb),
    pricePerGbCents,
    amountCents: Math.round((trafficMb * pricePerGbCents) / 1024),
  };
}

const MIB = 1024 * 1024;

/**
 * Each publisher's traffic lines of a week, by user id (optionally only for some users): all the traffic of their
 * services, their own calls and their participants', on bytes in + out at each city node's price per GB
 * (docs/decisions/057).
 */
export async function weeklyUsage(
  db: Db | Tx,
  weekStart: string,
  userIds?: number[],
): Promise<Map<number, TrafficLine[]>> {
  const conditions = [gte(usageDaily.day, weekStart), lte(usageDaily.day, addDays(weekStart, 6))];
  if (userIds) conditions.push(inArray(usageDaily.userId, userIds));
  const rows = await db
    .select({
      userId: usageDaily.userId,
      code: cityNodes.code,
      price: cityNodes.trafficPricePerGbCents,
      bytes: sql<string>`sum(${usageDaily.bytesIn} + ${usageDaily.bytesOut})`,
    })
    .from(usageDaily)
    .innerJoin(cityNodes, eq(cityNodes.id, usageDaily.cityNodeId))
    .where(and(...conditions))
    .groupBy(usageDaily.userId, cityNodes.id, cityNodes.code, cityNodes.trafficPricePerGbCents)
    .orderBy(usageDaily.userId, cityNodes.id);
  const out = new Map<number, TrafficLine[]>();
  for (const r of rows) {
    const lines = out.get(r.userId) ?? [];
    lines.push(trafficLine(r.code, Number(r.bytes) / MIB, r.price));
    out.set(r.userId, lines);
  }
  return out;
}

/**
 * SPEC §9 "the IPFS bill category" and "data traffic billed weekly by actual use" (docs/decisions/039): each
 * user's IPFS download traffic of a week, per city node gateway at that gateway's traffic price, as bytes
 * metered by the gateways (ipfs_traffic_daily) counted in MB of 1024 × 1024 bytes.
 */
export async function weeklyIpfsUsage(
  db: Db | Tx,
  weekStart: string,
  userIds?: number[],
): Promise<Map<number, TrafficLine[]>> {
  const conditions = [gte(ipfsTrafficDaily.day, weekStart), lte(ipfsTrafficDaily.day, addDays(weekStart, 6))];
  if (userIds) conditions.push(inArray(ipfsServices.userId, userIds));
  const rows = await db
    .select({
      userId: ipfsServices.userId,
      code: cityNodes.code,
      price: cityNodes.trafficPricePerGbCents,
      bytes: sql<string>`sum(${ipfsTrafficDaily.bytes})`,
    })
    .from(ipfsTrafficDaily)
    .innerJoin(ipfsServices, eq(ipfsServices.id, ipfsTrafficDaily.serviceId))
    .innerJoin(cityNodes, eq(cityNodes.id, ipfsTrafficDaily.cityNodeId))
    .where(and(...conditions))
    .groupBy(ipfsServices.userId, cityNodes.id, cityNodes.code, cityNodes.trafficPricePerGbCents)
    .orderBy(ipfsServices.userId, cityNodes.id);
  const out = new Map<number, TrafficLine[]>();
  for (const r of rows) {
    const lines = out.get(r.userId) ?? [];
    lines.push(trafficLine(r.code, Number(r.bytes) / MIB, r.price));
    out.set(r.userId, lines);
  }
  return out;
}

/**
 * The two postpaid weekly usage bills (SPEC §9 "billed weekly by actual use"): consortium data traffic (type
 * 17) and IPFS download traffic (the IPFS category, docs/decisions/039). They differ only in these.
 */
const WEEKLY_BILLS = {
  traffic: {
    prefix: "T",
    serviceName: "",
    billType: BillType.DATA_TRAFFIC,
    dedupe: "traffic",
    usage: (db: Db | Tx, w: string, ids?: number[]) => weeklyUsage(db, w, ids),
  },
  ipfs: {
    prefix: "IT",
    serviceName: "IPFS download traffic",
    billType: BillType.IPFS,
    dedupe: "ipfs-traffic",
    usage: (db: Db | Tx, w: string, ids?: number[]) => weeklyIpfsUsage(db, w, ids),
  },
} as const;
type WeeklyBill = keyof typeof WEEKLY_BILLS;

/** Makes one user's weekly usage bill of `kind`, unless it exists or comes to nothing; returns it when made. */
async function createWeeklyBill(
  kind: WeeklyBill,
  tx: Tx,
  userId: number,
  weekStart: string,
  lines: TrafficLine[],
  now: Date,
) {
  const k = WEEKLY_BILLS[kind];
  const totalCents = lines.reduce((s, l) => s + l.amountCents, 0);
  if (totalCents <= 0) return null;
  const [bill] = await tx
    .insert(bills)
    .values({
      billNo: newBillNo(now, k.prefix),
      userId,
      serviceName: k.serviceName,
      billType: k.billType,
      payState: PayState.UNPAID,
      payMode: 2,
      cycle: 99,
      periodStart: startOfDay(weekStart),
      periodEnd: weekEnd(weekStart),
      createdAt: now,
      deadline: new Date(now.getTime() + TRAFFIC_DUE_MS),
      totalCents,
      payCents: totalCents,
      detail: { dataUsage: lines },
      dedupeKey: `${k.dedupe}:${userId}:${weekStart}`,
    })
    .onConflictDoNothing()
    .returning();
  if (!bill) return null;
  await inbox.api.notify(tx, {
    userId,
    textKey: "messages.trafficBill",
    params: { billNo: bill.billNo, amount: usd(totalCents) },
    ref: { kind: "bill", id: bill.id },
    at: now,
  });
  return bill;
}

/** Every user's weekly usage bill of `kind` (each in its own transaction); returns how many were made. */
async function makeWeeklyBills(
  kind: WeeklyBill,
  db: Db,
  weekStart: string,
  now: Date,
  userIds?: number[],
): Promise<number> {
  let made = 0;
  for (const [userId, lines] of await WEEKLY_BILLS[kind].usage(db, weekStart, userIds)) {
    const bill = await db.transaction(async (tx) => {
      const issued = await createWeeklyBill(kind, tx, userId, weekStart, lines, now);
      if (issued) await scheduleAutoPay(tx, issued, now);
      return issued;
    });
    if (bill) made += 1;
  }
  return made;
}

/** One user's data traffic bill of a week (the demo seeds them too, without auto-pay: the seed pays its own). */
export const createTrafficBill = (tx: Tx, userId: number, weekStart: string, lines: TrafficLine[], now: Date) =>
  createWeeklyBill("traffic", tx, userId, weekStart, lines, now);
export const makeTrafficBills = (db: Db, weekStart: string, now: Date, userIds?: number[]) =>
  makeWeeklyBills("traffic", db, weekStart, now, userIds);
export const makeIpfsTrafficBills = (db: Db, weekStart: string, now: Date, userIds?: number[]) =>
  makeWeeklyBills("ipfs", db, weekStart, now, userIds);

/**
 * SPEC §9 "Cross-chain call unit price is per call, billed weekly to the source chain" (docs/decisions/048): one
 * cross-chain bill (BillType.CROSS_CHAIN) per owner of source services with successful calls delivered that week,
 * a line per source chain (`usedGb` carries the number of calls, `pricePerGbCents` the unit price per call).
 * The calls counted are marked with the bill, in its transaction.
 */
export async function makeCrossChainBills(db: Db, weekStart: string, now: Date, userIds?: number[]): Promise<number> {
  const start = startOfDay(weekStart);
  const end = weekEnd(weekStart);
  let made = 0;
  for (const [userId, lines] of await crossChain.api.weeklyCrossChainCalls(db, start, end, userIds)) {
    const totalCents = lines.reduce((s, l) => s + l.amountCents, 0);
    if (totalCents <= 0) continue;
    const bill = await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(bills)
        .values({
          billNo: newBillNo(now, "XC"),
          userId,
          serviceName: "Cross-chain calls",
          billType: BillType.CROSS_CHAIN,
          payState: PayState.UNPAID,
          payMode: 2,
          cycle: 99,
          periodStart: start,
          periodEnd: end,
          createdAt: now,
          deadline: new Date(now.getTime() + TRAFFIC_DUE_MS),
          totalCents,
          payCents: totalCents,
          detail: {
            dataUsage: lines.map((l) => ({
              nodeCode: l.sourceChain,
              usedGb: l.calls,
              pricePerGbCents: l.unitPriceCents,
              amountCents: l.amountCents,
            })),
          },
          dedupeKey: `cross-chain:${userId}:${weekStart}`,
        })
        .onConflictDoNothing()
        .returning();
      if (!row) return null;
      await crossChain.api.markBilled(tx, userId, start, end, row.id);
      await inbox.api.notify(tx, {
        userId,
        textKey: "messages.crossChainBill",
        params: { billNo: row.billNo, amount: usd(totalCents) },
        ref: { kind: "bill", id: row.id },
        at: now,
      });
      await scheduleAutoPay(tx, row, now);
      return row;
    });
    if (bill) made += 1;
  }
  return made;
}

export function scheduleWeekly(db: Db, weekStart: string) {
  return schedule(
    db,
    WEEKLY_TRAFFIC,
    { weekStart },
    { runAt: new Date(weekEnd(weekStart).getTime() + WEEKLY_DELAY_MS), dedupeKey: `${WEEKLY_TRAFFIC}:${weekStart}` },
  );
}

export function scheduleExpiry(db: Db, at: Date) {
  const hour = new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);
  return schedule(
    db,
    EXPIRE_BILLS,
    {},
    { runAt: hour, dedupeKey: `${EXPIRE_BILLS}:${hour.toISOString().slice(0, 13)}` },
  );
}

/**
 * Unpaid (or failed) prepaid bills past their deadline expire: §4 status 10, their resources released.
 * Postpaid usage bills never expire (they keep blocking until paid, ADR 006).
 */
export async function expireBills(db: Db, now: Date): Promise<number> {
  return db.transaction(async (tx) => {
    const expired = await tx
      .update(bills)
      .set({
        payState: PayState.EXPIRED,
        releaseTime: sql`coalesce(${bills.releaseTime}, ${now.toISOString()}::timestamptz)`,
      })
      .where(
        and(
          eq(bills.payMode, 1),
          inArray(bills.payState, [PayState.UNPAID, PayState.FAILED]),
          lte(bills.deadline, now),
        ),
      )
      .returning({ id: bills.id, userId: bills.userId, billNo: bills.billNo });
    await inbox.api.notifyAll(
      tx,
      expired.map((b) => ({
        userId: b.userId,
        textKey: "messages.billExpired",
        params: { billNo: b.billNo },
        ref: { kind: "bill" as const, id: b.id },
        at: now,
      })),
    );
    return expired.length;
  });
}

const weeklyTraffic: JobHandler = async (payload, services: Deps) => {
  const weekStart = String(payload.weekStart);
  // This process's last second of traffic first (the others' is written within a second; the run is an hour late).
  await flushTraffic(services);
  await makeTrafficBills(services.db, weekStart, services.now());
  await makeIpfsTrafficBills(services.db, weekStart, services.now());
  await makeCrossChainBills(services.db, weekStart, services.now());
  await scheduleWeekly(services.db, addDays(weekStart, 7));
};

const expireJob: JobHandler = async (_payload, services: Deps) => {
  const now = services.now();
  await expireBills(services.db, now);
  await scheduleExpiry(services.db, new Date(now.getTime() + HOUR_MS));
};

export const jobHandlers: Record<string, JobHandler> = { [WEEKLY_TRAFFIC]: weeklyTraffic, [EXPIRE_BILLS]: expireJob };
