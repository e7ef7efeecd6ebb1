import { and, eq, gte, inArray, lte, sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { BUDGET_THRESHOLDS } from "#contract/alerts.ts";
import { GB, IpfsServiceStatus } from "#contract/ipfs-codes.ts";
import type { Db } from "#backend/db/client.ts";
import { ipfsServices, ipfsTrafficDaily } from "#backend/domains/ipfs/tables.ts";
import { pubChainMeter, pubChainProjects } from "#backend/domains/public-chain/tables.ts";
import { alertSettings } from "./tables.ts";
import type { Candidate } from "./tell.ts";

/**
 * The usage alerts (issue 35 §1, docs/decisions/090), read from what the one meter wrote (backend/kit/meter.ts):
 * - `requests`: a public-chain project's requests of the day (UTC+8, the day its cap counts) at 50, 80 and 100 % of
 *   its daily cap; at the cap its keyed endpoint answers 429 until the day ends, so the first two say so before;
 * - `ipfsCapacity`: an IPFS service's pinned bytes at 50, 80 and 100 % of its capacity (period: the capacity, so an
 *   upgrade starts anew);
 * - `ipfsTraffic`: an IPFS service's bytes served this week (Monday-Sunday, UTC+8, the weekly traffic bill's week)
 *   at 50, 80 and 100 % of the account's weekly IPFS traffic budget, when it set one.
 * Each reads only the subjects in scope: one account (after a save), some projects or services (after a meter
 * flush), or all of them (the job).
 */
export type Scope = { accountId?: number; projectIds?: number[]; serviceIds?: number[] };

const UTC8_MS = 8 * 3_600_000;
const DAY_MS = 86_400_000;
/** The day (UTC+8) an instant falls in, as the public-chain and IPFS meters count it. */
export const chinaDay = (at: Date) => new Date(at.getTime() + UTC8_MS).toISOString().slice(0, 10);
/** The Monday (UTC+8) of the week an instant falls in. */
export function chinaWeekStart(at: Date): string {
  const day = chinaDay(at);
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
  return new Date(Date.parse(`${day}T00:00:00Z`) - ((weekday + 6) % 7) * DAY_MS).toISOString().slice(0, 10);
}
const addDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);

const reachedOf = (value: number, limit: number) =>
  limit > 0 ? BUDGET_THRESHOLDS.filter((share) => value * 100 >= share * limit) : [];
const percentOf = (value: number, limit: number) => String(Math.floor((value * 100) / limit));
const gb = (bytes: number) => (bytes / GB).toFixed(2);

/** The conditions of a scope on a table's account and subject columns. */
const scoped = (scope: Scope, account: PgColumn, subject: PgColumn, ids?: number[]) => [
  ...(scope.accountId === undefined ? [] : [eq(account, scope.accountId)]),
  ...(ids ? [inArray(subject, ids)] : []),
];

export async function requestCandidates(db: Db, now: Date, scope: Scope): Promise<Candidate[]> {
  if (scope.serviceIds && !scope.projectIds) return [];
  if (scope.projectIds?.length === 0) return [];
  const day = chinaDay(now);
  const used = sql<string>`sum(${pubChainMeter.requests})`;
  const rows = await db
    .select({
      id: pubChainProjects.id,
      userId: pubChainProjects.userId,
      name: pubChainProjects.name,
      cap: pubChainProjects.dailyRequests,
      used,
    })
    .from(pubChainMeter)
    .innerJoin(pubChainProjects, eq(pubChainProjects.id, pubChainMeter.projectId))
    .where(
      and(eq(pubChainMeter.day, day), ...scoped(scope, pubChainProjects.userId, pubChainProjects.id, scope.projectIds)),
    )
    .groupBy(pubChainProjects.id)
    .having(sql`${used} * 100 >= ${BUDGET_THRESHOLDS[0]} * ${pubChainProjects.dailyRequests}`);
  return rows.map((r) => {
    const value = Number(r.used);
    return {
      accountId: r.userId,
      kind: "requests",
      subjectId: r.id,
      subjectName: r.name,
      reached: reachedOf(value, r.cap),
      period: day,
      value,
      limit: r.cap,
      notice: (threshold) => ({
        textKey: threshold >= 100 ? "messages.alerts.requestsReached" : "messages.alerts.requests",
        params: {
          project: r.name,
          requests: String(value),
          cap: String(r.cap),
          percent: percentOf(value, r.cap),
          day,
        },
      }),
    };
  });
}

export async function capacityCandidates(db: Db, scope: Scope): Promise<Candidate[]> {
  if (scope.projectIds && !scope.serviceIds) return [];
  if (scope.serviceIds?.length === 0) return [];
  const rows = await db
    .select()
    .from(ipfsServices)
    .where(
      and(
        eq(ipfsServices.status, IpfsServiceStatus.RUNNING),
        sql`${ipfsServices.usedBytes} * 100 >= ${BUDGET_THRESHOLDS[0]} * ${ipfsServices.capacityBytes}`,
        ...scoped(scope, ipfsServices.userId, ipfsServices.id, scope.serviceIds),
      ),
    );
  return rows.map((s) => ({
    accountId: s.userId,
    kind: "ipfsCapacity",
    subjectId: s.id,
    subjectName: s.name,
    reached: reachedOf(s.usedBytes, s.capacityBytes),
    period: String(s.capacityBytes),
    value: s.usedBytes,
    limit: s.capacityBytes,
    notice: (threshold) => ({
      textKey: threshold >= 100 ? "messages.alerts.ipfsCapacityReached" : "messages.alerts.ipfsCapacity",
      params: {
        service: s.name,
        used: gb(s.usedBytes),
        capacity: gb(s.capacityBytes),
        percent: percentOf(s.usedBytes, s.capacityBytes),
      },
    }),
  }));
}

export async function trafficCandidates(db: Db, now: Date, scope: Scope): Promise<Candidate[]> {
  if (scope.projectIds && !scope.serviceIds) return [];
  if (scope.serviceIds?.length === 0) return [];
  const week = chinaWeekStart(now);
  const served = sql<string>`sum(${ipfsTrafficDaily.bytes})`;
  const rows = await db
    .select({
      id: ipfsServices.id,
      userId: ipfsServices.userId,
      name: ipfsServices.name,
      budget: alertSettings.ipfsWeeklyTrafficBytes,
      served,
    })
    .from(ipfsTrafficDaily)
    .innerJoin(ipfsServices, eq(ipfsServices.id, ipfsTrafficDaily.serviceId))
    .innerJoin(alertSettings, eq(alertSettings.accountId, ipfsServices.userId))
    .where(
      and(
        gte(ipfsTrafficDaily.day, week),
        lte(ipfsTrafficDaily.day, addDays(week, 6)),
        sql`${alertSettings.ipfsWeeklyTrafficBytes} is not null`,
        ...scoped(scope, ipfsServices.userId, ipfsServices.id, scope.serviceIds),
      ),
    )
    .groupBy(ipfsServices.id, alertSettings.ipfsWeeklyTrafficBytes)
    .having(sql`${served} * 100 >= ${BUDGET_THRESHOLDS[0]} * ${alertSettings.ipfsWeeklyTrafficBytes}`);
  return rows.map((r) => {
    const value = Number(r.served);
    const budget = r.budget ?? 0;
    return {
      accountId: r.userId,
      kind: "ipfsTraffic",
      subjectId: r.id,
      subjectName: r.name,
      reached: reachedOf(value, budget),
      period: week,
      value,
      limit: budget,
      notice: (threshold) => ({
        textKey: threshold >= 100 ? "messages.alerts.ipfsTrafficReached" : "messages.alerts.ipfsTraffic",
        params: {
          service: r.name,
          traffic: gb(value),
          trafficBudget: gb(budget),
          percent: percentOf(value, budget),
          week,
        },
      }),
    };
  });
}
