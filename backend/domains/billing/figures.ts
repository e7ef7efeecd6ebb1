import { and, eq, gt, gte, inArray, lte, or, sql, sum, type SQL } from "drizzle-orm";
import { BillType, PayState, UNPAID_STATES } from "#contract/billing-codes.ts";
import type { Db } from "#backend/db/client.ts";
import { bills, usageDaily, wallets } from "./tables.ts";
import { addDays, dayOf, daysBetween } from "./time.ts";
import { flushTraffic } from "./meter.ts";

/** A user's traffic rows: what their services served (billed to them) and what they called as a participant. */
export const trafficOf = (userId: number): SQL => or(eq(usageDaily.userId, userId), eq(usageDaily.callerId, userId))!;

/** Bytes as MB of 1024 × 1024 bytes, to 3 decimals (the charts' unit). */
export const bytesToMb = (bytes: number) => Math.round((bytes / (1024 * 1024)) * 1000) / 1000;

/** Unpaid bills that can be paid from the balance now: usage bills always, prepaid ones before their deadline. */
export function payableNowWhere(userId: number, now: Date): SQL {
  return and(
    eq(bills.userId, userId),
    eq(bills.payState, PayState.UNPAID),
    gt(bills.payCents, 0),
    or(eq(bills.payMode, 2), gt(bills.deadline, now)),
  )!;
}

/**
 * SPEC §5 "Blocking by bills" (docs/decisions/006, 059): the unpaid bills that block an action of payType 1 or
 * 2, `billBlocks` of contract/billing-codes.ts in SQL. Every payType is blocked by an unpaid postpaid usage bill
 * (payMode 2) from its deadline on; payType 2 also by a dedicated-node bill still waiting for payment before
 * its deadline.
 */
export function blockingWhere(userId: number, payType: 1 | 2, now: Date): SQL {
  const usage = and(eq(bills.payMode, 2), lte(bills.deadline, now));
  const pendingNode = and(eq(bills.billType, BillType.DEDICATED_NODE), gt(bills.deadline, now));
  return and(
    eq(bills.userId, userId),
    inArray(bills.payState, [...UNPAID_STATES]),
    payType === 2 ? or(usage, pendingNode) : usage,
  )!;
}

/** count(*) and sum(pay_cents) of the rows that meet `where`, as filtered aggregates of one scan. */
function countAndSum(where: SQL) {
  return {
    n: sql<number>`count(*) filter (where ${where})`.mapWith(Number),
    cents: sql<number>`coalesce(sum(${bills.payCents}) filter (where ${where}), 0)`.mapWith(Number),
  };
}

/**
 * The console home's money figures (/main/home/dashboard), in two queries: the balance, what is due now
 * (the same bills as h5billDue without payType) with the nearest deadline, and what blocks a new service
 * (payType 1, as h5billDue with payType 1), filtered aggregates over the user's bills; then the data
 * traffic of the last 7 UTC+8 days in MB (docs/decisions/057: the traffic of the user's services, and the
 * user's own calls as a participant of others'), this process's meter written first.
 */
export async function billingFigures(db: Db, userId: number, now: Date) {
  await flushTraffic({ db });
  const today = dayOf(now);
  const days = daysBetween(addDays(today, -6), today);
  const payable = payableNowWhere(userId, now);
  const blocking = blockingWhere(userId, 1, now);
  const dueNow = countAndSum(payable);
  const blocks = countAndSum(blocking);
  const [[money], usage] = await Promise.all([
    db
      .select({
        balanceCents: sql<
          number | null
        >`(select ${wallets.balanceCents} from ${wallets} where ${wallets.userId} = ${userId})`.mapWith(Number),
        dueCount: dueNow.n,
        dueCents: dueNow.cents,
        next: sql<Date | null>`min(${bills.deadline}) filter (where ${payable})`.mapWith(bills.deadline),
        blockCount: blocks.n,
        blockCents: blocks.cents,
      })
      .from(bills)
      .where(eq(bills.userId, userId)),
    db
      .select({ day: usageDaily.day, bytes: sum(sql`${usageDaily.bytesIn} + ${usageDaily.bytesOut}`) })
      .from(usageDaily)
      .where(and(trafficOf(userId), gte(usageDaily.day, days[0]), lte(usageDaily.day, today)))
      .groupBy(usageDaily.day),
  ]);
  const byDay = new Map(usage.map((u) => [u.day, bytesToMb(Number(u.bytes ?? 0))]));
  return {
    balanceCents: money.balanceCents ?? 0,
    dueCount: money.dueCount,
    dueCents: money.dueCents,
    nextDeadline: money.next ? new Date(money.next).toISOString() : null,
    blockingBills: money.blockCount > 0 ? { count: money.blockCount, totalCents: money.blockCents } : null,
    usage7: days.map((day) => ({ day, mb: byDay.get(day) ?? 0 })),
  };
}
