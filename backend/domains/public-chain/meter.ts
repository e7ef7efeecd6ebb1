import { and, eq, sql, sum } from "drizzle-orm";
import { ProjectStatus } from "#contract/public-chain-codes.ts";
import type { Db } from "#backend/db/client.ts";
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

/**
 * Takes `units` of the project's daily limit for today (UTC+8) and meters the request per method, in one
 * transaction: false (and nothing metered) when it would go over the limit.
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
  return db.transaction(async (tx) => {
    await tx.insert(pubChainDailyUse).values({ projectId: project.id, day, requests: 0 }).onConflictDoNothing();
    const taken = await tx
      .update(pubChainDailyUse)
      .set({ requests: sql`${pubChainDailyUse.requests} + ${units}` })
      .where(
        and(
          eq(pubChainDailyUse.projectId, project.id),
          eq(pubChainDailyUse.day, day),
          sql`${pubChainDailyUse.requests} + ${units} <= ${project.dailyRequests}`,
        ),
      )
      .returning({ requests: pubChainDailyUse.requests });
    if (!taken.length) return false;
    for (const [i, r] of rows.entries()) {
      const b = i === 0 ? bytes : 0;
      await tx
        .insert(pubChainMeter)
        .values({ projectId: project.id, day, method: r.method, requests: r.requests, calls: r.calls, bytes: b })
        .onConflictDoUpdate({
          target: [pubChainMeter.projectId, pubChainMeter.day, pubChainMeter.method],
          set: {
            requests: sql`${pubChainMeter.requests} + ${r.requests}`,
            calls: sql`${pubChainMeter.calls} + ${r.calls}`,
            bytes: sql`${pubChainMeter.bytes} + ${b}`,
          },
        });
    }
    return true;
  });
}

/** Requests counted today for a project (the meter's sum), for tests and the detail. */
export async function requestsOn(db: Db, projectId: number, day: string): Promise<number> {
  const [row] = await db
    .select({ n: sum(pubChainMeter.requests) })
    .from(pubChainMeter)
    .where(and(eq(pubChainMeter.projectId, projectId), eq(pubChainMeter.day, day)));
  return Number(row?.n ?? 0);
}
