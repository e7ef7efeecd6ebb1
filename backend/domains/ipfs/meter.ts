import { sql } from "drizzle-orm";
import type { Db } from "#backend/db/client.ts";
import type { Deps } from "#backend/deps.ts";
import { ipfsTrafficDaily } from "./tables.ts";

/**
 * The download meter (docs/decisions/039): bytes served per service, gateway and UTC+8 day, added up in
 * memory and written in one transaction every second, and at once when the service stops (the domain's
 * `stop` runs before the database closes), so that no byte a client received goes unbilled. A write that fails
 * puts its counts back for the next one.
 */
const FLUSH_MS = 1000;

type Entry = { serviceId: number; cityNodeId: number; day: string; bytes: number };

export class TrafficMeter {
  private pending = new Map<string, Entry>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(private readonly db: Db) {}

  add(serviceId: number, cityNodeId: number, day: string, bytes: number) {
    if (bytes <= 0) return;
    const key = `${serviceId}:${cityNodeId}:${day}`;
    const entry = this.pending.get(key);
    if (entry) entry.bytes += bytes;
    else this.pending.set(key, { serviceId, cityNodeId, day, bytes });
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.flush().catch((error: unknown) =>
        console.warn("ipfs: the traffic meter could not write, it retries:", error),
      );
    }, FLUSH_MS).unref();
  }

  /** Writes what was counted so far; resolves once it is in the database. */
  flush(): Promise<void> {
    const run = async () => {
      if (!this.pending.size) return;
      const batch = [...this.pending.values()];
      this.pending = new Map();
      try {
        await this.db.transaction(async (tx) => {
          for (const e of batch) {
            await tx
              .insert(ipfsTrafficDaily)
              .values(e)
              .onConflictDoUpdate({
                target: [ipfsTrafficDaily.serviceId, ipfsTrafficDaily.cityNodeId, ipfsTrafficDaily.day],
                set: { bytes: sql`${ipfsTrafficDaily.bytes} + ${e.bytes}` },
              });
          }
        });
      } catch (error) {
        for (const e of batch) this.add(e.serviceId, e.cityNodeId, e.day, e.bytes);
        throw error;
      }
    };
    this.flushing = this.flushing.then(run, run);
    return this.flushing;
  }

  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.flush();
  }
}

const meters = new WeakMap<Deps["db"], TrafficMeter>();
export const meterOf = (deps: Pick<Deps, "db">) => {
  let meter = meters.get(deps.db);
  if (!meter) meters.set(deps.db, (meter = new TrafficMeter(deps.db)));
  return meter;
};
export async function stopMeter(deps: Pick<Deps, "db">) {
  await meters.get(deps.db)?.stop();
  meters.delete(deps.db);
}
