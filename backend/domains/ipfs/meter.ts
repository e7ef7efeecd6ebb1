import { sql } from "drizzle-orm";
import type { Deps } from "#backend/deps.ts";
import { Meter, meterOf as kitMeterOf, stopMeterOf, type Metered } from "#backend/kit/meter.ts";
import { ipfsTrafficDaily, ipfsTrafficFilesDaily } from "./tables.ts";

/**
 * The download meter (docs/decisions/039, 057, 093): bytes served per service, gateway, UTC+8 day and file (CID),
 * counted by the one meter kit (backend/kit/meter.ts): in memory, written in one transaction every second and at
 * once when the service stops (the domain's `stop` runs before the database closes), so that no byte a client
 * received goes unbilled. A write that fails puts its counts back for the next one.
 *
 * One write adds each file's bytes to its row of `ipfs_traffic_files_daily` and their sum to the (service, gateway,
 * day) row of `ipfs_traffic_daily`, in the same transaction: the files of a day and gateway always add up to what
 * the weekly bill charges for it (for traffic metered since migration 0050).
 */
type Key = { serviceId: number; cityNodeId: number; day: string; cid: string };
type Counts = { bytes: number };

const NAME = "ipfs.traffic";

/** The batch's bytes per (service, gateway, day), in a fixed order (two processes' writes lock rows alike). */
function perDay(batch: Metered<Key, Counts>[]) {
  const days = new Map<string, { serviceId: number; cityNodeId: number; day: string; bytes: number }>();
  for (const { key, counts } of batch) {
    const id = `${key.serviceId}|${key.cityNodeId}|${key.day}`;
    const row = days.get(id) ?? { serviceId: key.serviceId, cityNodeId: key.cityNodeId, day: key.day, bytes: 0 };
    row.bytes += counts.bytes;
    days.set(id, row);
  }
  return [...days.values()].sort(
    (a, b) => a.serviceId - b.serviceId || a.cityNodeId - b.cityNodeId || a.day.localeCompare(b.day),
  );
}

function writer(db: Deps["db"]) {
  return (batch: Metered<Key, Counts>[]) =>
    db.transaction(async (tx) => {
      for (const row of perDay(batch)) {
        await tx
          .insert(ipfsTrafficDaily)
          .values(row)
          .onConflictDoUpdate({
            target: [ipfsTrafficDaily.serviceId, ipfsTrafficDaily.cityNodeId, ipfsTrafficDaily.day],
            set: { bytes: sql`${ipfsTrafficDaily.bytes} + ${row.bytes}` },
          });
      }
      const files = [...batch].sort(
        (a, b) =>
          a.key.serviceId - b.key.serviceId ||
          a.key.cityNodeId - b.key.cityNodeId ||
          a.key.day.localeCompare(b.key.day) ||
          a.key.cid.localeCompare(b.key.cid),
      );
      for (const { key, counts } of files) {
        await tx
          .insert(ipfsTrafficFilesDaily)
          .values({ ...key, bytes: counts.bytes })
          .onConflictDoUpdate({
            target: [
              ipfsTrafficFilesDaily.serviceId,
              ipfsTrafficFilesDaily.cityNodeId,
              ipfsTrafficFilesDaily.day,
              ipfsTrafficFilesDaily.cid,
            ],
            set: { bytes: sql`${ipfsTrafficFilesDaily.bytes} + ${counts.bytes}` },
          });
      }
    });
}

/** The gateway's meter of this process: `add(serviceId, cityNodeId, day, cid, bytes)`, `flush()`. */
export function meterOf(deps: Pick<Deps, "db">) {
  const meter = kitMeterOf(deps.db, NAME, () => new Meter<Key, Counts>(writer(deps.db), NAME));
  return {
    add: (serviceId: number, cityNodeId: number, day: string, cid: string, bytes: number) => {
      if (bytes > 0) meter.add({ serviceId, cityNodeId, day, cid }, { bytes });
    },
    flush: () => meter.flush(),
  };
}

export async function stopMeter(deps: Pick<Deps, "db">) {
  await stopMeterOf(deps.db, NAME);
}
