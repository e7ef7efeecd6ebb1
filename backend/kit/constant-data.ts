import { asc } from "drizzle-orm";
import type { Db } from "#backend/db/client.ts";
import { cityNodes } from "#backend/db/tables.ts";

/**
 * Platform data that changes only when its catalogue is written (issue 11, docs/decisions/030): read once
 * per process and kept until a write path clears it. Each entry is the promise of its first read, so
 * concurrent first reads share one query; a failed read is not kept. The city-node catalogue is written
 * only by backend/domains/platform/catalogue.ts (its seeder at every start, `writeCityNode`), which clears
 * it; lint refuses any other write to the table (eslint.config.js), so a write path cannot forget to clear.
 *
 * A write clears only its own process's copy. Where several processes share one database (DATABASE_URL: a
 * cluster, or servers side by side; docs/decisions/031) an entry is also read again once it is older than
 * `ttlMs`, which bounds how long another process shows the old value (CONSTANT_DATA_TTL_MS).
 */
export const CONSTANT_DATA_TTL_MS = 5_000;

export class ConstantData {
  private readonly values = new Map<string, { at: number; value: Promise<unknown> }>();

  constructor(
    private readonly ttlMs = Number.POSITIVE_INFINITY,
    private readonly clock: () => number = Date.now,
  ) {}

  get<T>(name: string, read: () => PromiseLike<T>): Promise<T> {
    const kept = this.values.get(name);
    if (kept && this.clock() - kept.at < this.ttlMs) return kept.value as Promise<T>;
    // A Drizzle query is a lazy thenable that runs its SQL again at every `await`: keep the settled value of
    // one run (Promise.resolve calls its `then` once), not the query.
    const reading = Promise.resolve(read());
    const entry = { at: this.clock(), value: reading as Promise<unknown> };
    this.values.set(name, entry);
    reading.catch(() => {
      if (this.values.get(name) === entry) this.values.delete(name);
    });
    return reading;
  }

  /** Forgets one entry, or every entry; the next read goes to the database. */
  clear(name?: string): void {
    if (name === undefined) this.values.clear();
    else this.values.delete(name);
  }
}

export type CityNodeRow = typeof cityNodes.$inferSelect;

/** The holder of the cache: the backend's dependencies (backend/deps.ts). */
type WithConstants = { db: Db; constants: ConstantData };

/** Every city node, by id (SPEC §3 city node catalogue, with its prices). Treat as read-only. */
export function cityNodeCatalogue(deps: WithConstants): Promise<readonly CityNodeRow[]> {
  return deps.constants.get(CITY_NODES_KEY, () => deps.db.select().from(cityNodes).orderBy(asc(cityNodes.id)));
}

/** How many city nodes the platform has (the console home's figure). */
export async function cityNodeCount(deps: WithConstants): Promise<number> {
  return (await cityNodeCatalogue(deps)).length;
}

export const CITY_NODES_KEY = "cityNodes";
