import { and, eq, sql, sum } from "drizzle-orm";
import { ProjectStatus } from "#contract/public-chain-codes.ts";
import type { Db } from "#backend/db/client.ts";
import { Meter, QuotaBlocks, meterOf, stopMeterOf, type Metered, type QuotaStore } from "#backend/kit/meter.ts";
import { hashKey } from "./keys.ts";
import { chinaDay } from "./rules.ts";
import { pubChainDailyUse, pubChainMeter, pubChainProjects } from "./tables.ts";

export type ProjectRow = typeof pubChainProjects.$inferSelect;

/* ---------------------------------------------- the meter ---------------------------------------------- */

/** The enabled project a key opens (key enabled, project 16), or why not. */
export async function projectOfKey(
  db: Db,
  key: string,
): Promise<{ project: ProjectRow } | { refused: "unknown" | "key disabled" | "project not enabled" }> {
  const [project] = await db
    .select()
    .from(pubChainProjects)
    .where(eq(pubChainProjects.keyHash, hashKey(key)));
  if (!project) return { refused: "unknown" };
  if (!project.keyEnabled) return { refused: "key disabled" };
  if (project.status !== ProjectStatus.ENABLED) return { refused: "project not enabled" };
  return { project };
}

type MeterKey = { projectId: number; day: string; method: string };
type MeterCounts = { requests: number; calls: number; bytes: number };
const NAME = "public-chain.requests";

/** The process's meter of the keyed endpoint: requests, calls and bytes per project, day and method. */
function requestMeter(db: Db) {
  return meterOf(
    db,
    NAME,
    () =>
      new Meter<MeterKey, MeterCounts>(
        (batch: Metered<MeterKey, MeterCounts>[]) =>
          db.transaction(async (tx) => {
            for (const { key, counts } of batch) {
              await tx
                .insert(pubChainMeter)
                .values({ ...key, ...counts })
                .onConflictDoUpdate({
                  target: [pubChainMeter.projectId, pubChainMeter.day, pubChainMeter.method],
                  set: {
                    requests: sql`${pubChainMeter.requests} + ${counts.requests}`,
                    calls: sql`${pubChainMeter.calls} + ${counts.calls}`,
                    bytes: sql`${pubChainMeter.bytes} + ${counts.bytes}`,
                  },
                });
            }
          }),
        NAME,
      ),
  );
}

/**
 * The daily caps' blocks of this process (docs/decisions/057): `pub_chain_daily_use` holds what the processes
 * reserved of a project's day, never more than its cap; a process answers from its block in memory.
 */
function quotaStore(db: Db): QuotaStore {
  const parse = (key: string) => {
    const [projectId, day] = key.split("@");
    return { projectId: Number(projectId), day };
  };
  return {
    reserve: (key, want, need, cap) =>
      db.transaction(async (tx) => {
        const { projectId, day } = parse(key);
        await tx.insert(pubChainDailyUse).values({ projectId, day, requests: 0 }).onConflictDoNothing();
        const [row] = await tx
          .select({ requests: pubChainDailyUse.requests })
          .from(pubChainDailyUse)
          .where(and(eq(pubChainDailyUse.projectId, projectId), eq(pubChainDailyUse.day, day)))
          .for("update");
        const free = cap - row.requests;
        if (free < need) return 0;
        const got = Math.min(want, free);
        await tx
          .update(pubChainDailyUse)
          .set({ requests: sql`${pubChainDailyUse.requests} + ${got}` })
          .where(and(eq(pubChainDailyUse.projectId, projectId), eq(pubChainDailyUse.day, day)));
        return got;
      }),
    release: async (key, units) => {
      const { projectId, day } = parse(key);
      await db
        .update(pubChainDailyUse)
        .set({ requests: sql`greatest(0, ${pubChainDailyUse.requests} - ${units})` })
        .where(and(eq(pubChainDailyUse.projectId, projectId), eq(pubChainDailyUse.day, day)));
    },
  };
}

const quotas = new WeakMap<Db, QuotaBlocks>();
function quotaOf(db: Db) {
  let q = quotas.get(db);
  if (!q) quotas.set(db, (q = new QuotaBlocks(quotaStore(db))));
  return q;
}

/**
 * Takes `units` of the project's daily limit for today (UTC+8) from this process's block (docs/decisions/057)
 * and meters the request per method: false (and nothing metered) when it would go over the limit.
 */
export async function takeRequests(
  db: Db,
  project: ProjectRow,
  rows: { method: string; requests: number; calls: number }[],
  bytes: number,
  now: Date,
): Promise<boolean> {
  const units = rows.reduce((n, r) => n + r.requests, 0);
  const day = chinaDay(now);
  const quota = quotaOf(db);
  if (!(await quota.take(`${project.id}@${day}`, units, project.dailyRequests))) return false;
  const meter = requestMeter(db);
  for (const [i, r] of rows.entries())
    meter.add(
      { projectId: project.id, day, method: r.method },
      { requests: r.requests, calls: r.calls, bytes: i === 0 ? bytes : 0 },
    );
  // A past day's blocks are over: what they did not use goes back (the count of that day becomes exact).
  void quota.forget((key) => !key.endsWith(`@${day}`)).catch(() => undefined);
  return true;
}

/** Writes this process's counts now: before reading them (stats, detail) and at stop. */
export const flushRequests = (db: Db) => requestMeter(db).flush();

/** At the domain's stop: the last counts written, unused reservations given back. */
export async function stopRequests(db: Db) {
  await stopMeterOf(db, NAME);
  await quotas.get(db)?.stop();
  quotas.delete(db);
}

/** Requests counted on a day for a project (the meter's sum, this process's counts written first), for tests and the detail. */
export async function requestsOn(db: Db, projectId: number, day: string): Promise<number> {
  await flushRequests(db);
  const [row] = await db
    .select({ n: sum(pubChainMeter.requests) })
    .from(pubChainMeter)
    .where(and(eq(pubChainMeter.projectId, projectId), eq(pubChainMeter.day, day)));
  return Number(row?.n ?? 0);
}
