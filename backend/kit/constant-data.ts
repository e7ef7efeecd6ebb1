import { asc } from "drizzle-orm";
import type { Db } from "../db/client";
import { cityNodes } from "../db/tables";

/**
 * Platform data that changes only when its catalogue is written (issue 11, docs/decisions/030): read once
 * per process and kept until a write path clears it. Each entry is the promise of its first read, so
 * concurrent first reads share one query; a failed read is not kept. The city-node catalogue is written
 * only by backend/domains/platform/catalogue.ts (its seeder at every start, `writeCityNode`), which clears
 * it; lint refuses any other write to the table (eslint.config.js), so a write path cannot forget to clear.
 */
export class ConstantData {
  private readonly values = new Map<string, Promise<unknown>>();

  get<T>(name: string, read: () => PromiseLike<T>): Promise<T> {
    const kept = this.values.get(name) as Promise<T> | undefined;
    if (kept) return kept;
    // A Drizzle query is a lazy thenable that runs its SQL again at every `await`: keep the settled value of
    // one run (Promise.resolve calls its `then` once), not the query.
    const reading = Promise.resolve(read());
    this.values.set(name, reading);
    reading.catch(() => {
      if (this.values.get(name) === reading) this.values.delete(name);
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
