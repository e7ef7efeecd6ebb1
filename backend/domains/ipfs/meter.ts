import { sql } from "drizzle-orm";
import type { Deps } from "#backend/deps.ts";
import { Meter, meterOf as kitMeterOf, stopMeterOf, type Metered } from "#backend/kit/meter.ts";
import { ipfsTrafficDaily } from "./tables.ts";

/**
 * The download meter (docs/decisions/039, 057): bytes served per service, gateway and UTC+8 day, counted by the
 * one meter kit (backend/kit/meter.ts): in memory, written in one transaction every second and at once when the
 * service stops (the domain's `stop` runs before the database closes), so that no byte a client received goes
 * unbilled. A write that fails puts its counts back for the next one.
 */
type Key = { serviceId: number; cityNodeId: number; day: string };
type Counts = { bytes: number };

const NAME = "ipfs.traffic";

function writer(db: Deps["db"]) {
  return (batch: Metered<Key, Counts>[]) =>
    db.transaction(async (tx) => {
      for (const { key, counts } of batch) {
        await tx
          .insert(ipfsTrafficDaily)
          .values({ ...key, bytes: counts.bytes })
          .onConflictDoUpdate({
            target: [ipfsTrafficDaily.serviceId, ipfsTrafficDaily.cityNodeId, ipfsTrafficDaily.day],
            set: { bytes: sql`${ipfsTrafficDaily.bytes} + ${counts.bytes}` },
          });
      }
    });
}

/** The gateway's meter of this process: `add(serviceId, cityNodeId, day, bytes)`, `flush()`, `stop()`. */
export function meterOf(deps: Pick<Deps, "db">) {
  const meter = kitMeterOf(deps.db, NAME, () => new Meter<Key, Counts>(writer(deps.db), NAME));
  return {
    add: (serviceId: number, cityNodeId: number, day: string, bytes: number) => {
      if (bytes > 0) meter.add({ serviceId, cityNodeId, day }, { bytes });
    },
    flush: () => meter.flush(),
  };
}

export async function stopMeter(deps: Pick<Deps, "db">) {
  await stopMeterOf(deps.db, NAME);
}
