import { and, eq, gte, lte, sql } from "drizzle-orm";
import type { Db, Tx } from "#backend/db/client.ts";
import type { Deps } from "#backend/deps.ts";
import { Meter, meterOf, stopMeterOf, type Metered } from "#backend/kit/meter.ts";
import { usageDaily } from "./tables.ts";
import { addDays, dayOf, daysBetween } from "./time.ts";

/**
 * Data traffic into `usage_daily` (docs/decisions/057): the doors of other domains hand each call to
 * `meterTraffic` (billing's api); the one meter kit adds them up in memory and writes them once a second, in one
 * transaction, through `recordTraffic`, the same write the demo's history and the test fixture use.
 */
export type TrafficKey = {
  /** The publisher, who pays for the traffic. */
  userId: number;
  day: string;
  cityNodeId: number;
  appId: number;
  /** The participant's join, 0 for the publisher's own calls. */
  joinId: number;
  /** The participant's user, null for the publisher's own calls. */
  callerId: number | null;
  method: string;
};
export type TrafficCounts = { calls: number; bytesIn: number; bytesOut: number };
export type TrafficRow = Metered<TrafficKey, TrafficCounts>;

/** Adds rows of traffic to what `usage_daily` holds (one upsert per row, in the caller's transaction). */
export async function recordTraffic(tx: Tx, rows: TrafficRow[]): Promise<void> {
  for (const { key, counts } of rows) {
    await tx
      .insert(usageDaily)
      .values({ ...key, ...counts })
      .onConflictDoUpdate({
        target: [
          usageDaily.userId,
          usageDaily.day,
          usageDaily.cityNodeId,
          usageDaily.appId,
          usageDaily.joinId,
          usageDaily.method,
        ],
        set: {
          calls: sql`${usageDaily.calls} + ${counts.calls}`,
          bytesIn: sql`${usageDaily.bytesIn} + ${counts.bytesIn}`,
          bytesOut: sql`${usageDaily.bytesOut} + ${counts.bytesOut}`,
        },
      });
  }
}

const NAME = "billing.traffic";

const trafficMeter = (db: Db) =>
  meterOf(
    db,
    NAME,
    () => new Meter<TrafficKey, TrafficCounts>((batch) => db.transaction((tx) => recordTraffic(tx, batch)), NAME),
  );

/** A method name as a row key: JSON-RPC method characters, at most 64 of them; anything else is "(other)". */
export const methodKey = (method: unknown) =>
  typeof method === "string" && /^[A-Za-z0-9_.:-]{1,64}$/.test(method) ? method : "(other)";

/** One answered call of a service's traffic, counted on today's UTC+8 day (billing's api). */
export function meterTraffic(
  deps: Pick<Deps, "db" | "now">,
  call: Omit<TrafficKey, "day" | "method"> & { method: string } & TrafficCounts,
): void {
  const { calls, bytesIn, bytesOut, method, ...key } = call;
  trafficMeter(deps.db).add(
    { ...key, day: dayOf(deps.now()), method: methodKey(method) },
    { calls, bytesIn, bytesOut },
  );
}

/** Writes this process's counts now (before the charts and bills read them, and tests). */
export const flushTraffic = (deps: Pick<Deps, "db">) => trafficMeter(deps.db).flush();

/** At the domain's stop: the last counts written before the database closes. */
export const stopTraffic = (deps: Pick<Deps, "db">) => stopMeterOf(deps.db, NAME);

/**
 * A service's traffic per UTC+8 day over the last `days` days (today last), for its publisher's detail page: calls
 * and bytes in and out of the publisher's and participants' calls together, this process's counts written first.
 */
export async function serviceTraffic(deps: Pick<Deps, "db" | "now">, appId: number, days = 7) {
  await flushTraffic(deps);
  const today = dayOf(deps.now());
  const list = daysBetween(addDays(today, -(days - 1)), today);
  const rows = await deps.db
    .select({
      day: usageDaily.day,
      calls: sql<string>`sum(${usageDaily.calls})`,
      bytesIn: sql<string>`sum(${usageDaily.bytesIn})`,
      bytesOut: sql<string>`sum(${usageDaily.bytesOut})`,
    })
    .from(usageDaily)
    .where(and(eq(usageDaily.appId, appId), gte(usageDaily.day, list[0]), lte(usageDaily.day, today)))
    .groupBy(usageDaily.day);
  const byDay = new Map(rows.map((r) => [r.day, r]));
  return list.map((day) => {
    const r = byDay.get(day);
    return { day, calls: Number(r?.calls ?? 0), bytesIn: Number(r?.bytesIn ?? 0), bytesOut: Number(r?.bytesOut ?? 0) };
  });
}
