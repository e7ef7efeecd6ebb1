import { and, count, eq, gt, gte, lte, min, or, sum, type SQL } from "drizzle-orm";
import { PayState } from "../../../contract/billing-codes";
import type { Db } from "../../db/client";
import { bills, usageDaily, wallets } from "./tables";
import { addDays, dayOf, daysBetween } from "./time";

/** Unpaid bills that can be paid from the balance now: usage bills always, prepaid ones before their deadline. */
export function payableNowWhere(userId: number, now: Date): SQL {
  return and(eq(bills.userId, userId), eq(bills.payState, PayState.UNPAID), gt(bills.payCents, 0), or(eq(bills.payMode, 2), gt(bills.deadline, now)))!;
}

/**
 * The console home's money figures (/main/home/dashboard): the balance, what is due now (the same bills as
 * h5billDue without payType) with the nearest deadline, and the data traffic of the last 7 UTC+8 days in MB.
 */
export async function billingFigures(db: Db, userId: number, now: Date) {
  const today = dayOf(now);
  const days = daysBetween(addDays(today, -6), today);
  const [[wallet], [due], usage] = await Promise.all([
    db.select({ balanceCents: wallets.balanceCents }).from(wallets).where(eq(wallets.userId, userId)),
    db.select({ n: count(), total: sum(bills.payCents), next: min(bills.deadline) }).from(bills).where(payableNowWhere(userId, now)),
    db
      .select({ day: usageDaily.day, mb: sum(usageDaily.trafficMb) })
      .from(usageDaily)
      .where(and(eq(usageDaily.userId, userId), gte(usageDaily.day, days[0]), lte(usageDaily.day, today)))
      .groupBy(usageDaily.day),
  ]);
  const byDay = new Map(usage.map((u) => [u.day, Number(u.mb ?? 0)]));
  return {
    balanceCents: wallet?.balanceCents ?? 0,
    dueCount: due.n,
    dueCents: Number(due.total ?? 0),
    nextDeadline: due.next ? new Date(due.next).toISOString() : null,
    usage7: days.map((day) => ({ day, mb: byDay.get(day) ?? 0 })),
  };
}
