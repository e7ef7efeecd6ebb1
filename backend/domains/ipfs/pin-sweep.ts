import { and, count, eq, gt, isNull, lte, sql } from "drizzle-orm";
import type { Db } from "#backend/db/client.ts";
import { jobs } from "#backend/db/tables.ts";
import type { Deps } from "#backend/deps.ts";
import { schedule, type JobHandler } from "#backend/jobs/runner.ts";
import { JOB_IPFS_UNPIN } from "./jobs.ts";
import { engineOf } from "./node.ts";
import { ipfsFiles, ipfsUnpins } from "./tables.ts";

/**
 * Pins no file holds (docs/decisions/108). Every pin of the embedded engine is one `ipfs_files` row's, or an unpin
 * still owed (the `ipfs.unpin` job of a deleted file, retried while the engine did not answer). A pin is left over
 * when its holder died between the engine's pin and the row's commit (an upload nobody acknowledged), or between a
 * file's deletion and its unpin. Once an hour the sweep looks at every counted pin: where a root holds more pins
 * than files, unpins under way and unpins owed, it books a trim of the difference an hour later. The trim looks
 * again and takes the smaller difference of the two looks, and only if the root's count has not changed in between
 * (the engine's mark): an upload under way at the first look has its row by the second (and one under way at the
 * second pinned after the first, a change); a deletion is counted as under way from its commit until its unpin
 * (`ipfs_unpins`); a handover gives every root a new mark, so the trim waits for the next look.
 */
export const JOB_IPFS_SWEEP_PINS = "ipfs.sweepPins";
export const JOB_IPFS_TRIM_PIN = "ipfs.trimPin";
/** The time between the two looks, and between sweeps. */
export const PIN_SWEEP_GAP_MS = 60 * 60 * 1000;

/** At a quarter past each hour (the upload sweep runs on the hour, the blob sweep at half past). */
export function schedulePinSweep(db: Db, at: Date) {
  const hour = Math.floor(at.getTime() / PIN_SWEEP_GAP_MS) * PIN_SWEEP_GAP_MS;
  const runAt = new Date(hour + PIN_SWEEP_GAP_MS / 4);
  return schedule(
    db,
    JOB_IPFS_SWEEP_PINS,
    {},
    { runAt, dedupeKey: `${JOB_IPFS_SWEEP_PINS}:${runAt.toISOString().slice(0, 13)}` },
  );
}

/**
 * What holds pins of `cid` at `now`: its file rows, its deleted files' unpins under way (for an hour at most), and
 * those a job still owes (a dead job's stays owed until an operator retries it).
 */
export async function pinsHeld(db: Db, cid: string, now: Date): Promise<number> {
  const [files] = await db.select({ n: count() }).from(ipfsFiles).where(eq(ipfsFiles.cid, cid));
  const [underWay] = await db
    .select({ n: count() })
    .from(ipfsUnpins)
    .where(and(eq(ipfsUnpins.cid, cid), gt(ipfsUnpins.createdAt, new Date(now.getTime() - PIN_SWEEP_GAP_MS))));
  const [owed] = await db
    .select({ n: count() })
    .from(jobs)
    .where(and(eq(jobs.kind, JOB_IPFS_UNPIN), isNull(jobs.doneAt), sql`${jobs.payload}->>'cid' = ${cid}`));
  return files.n + underWay.n + owed.n;
}

/** The first look: a trim booked for each root with more pins than holders. Answers how many were booked. */
export async function sweepPins(deps: Deps): Promise<number> {
  const engine = engineOf(deps);
  // Unpins recorded as under way by a process that died before the engine answered: void after the gap.
  await deps.db.delete(ipfsUnpins).where(lte(ipfsUnpins.createdAt, new Date(deps.now().getTime() - PIN_SWEEP_GAP_MS)));
  let booked = 0;
  for (const pin of await engine.countedPins()) {
    const excess = pin.count - (await pinsHeld(deps.db, pin.cid, deps.now()));
    if (excess <= 0) continue;
    await schedule(
      deps.db,
      JOB_IPFS_TRIM_PIN,
      { cid: pin.cid, mark: pin.mark, excess },
      {
        runAt: new Date(deps.now().getTime() + PIN_SWEEP_GAP_MS),
        dedupeKey: `${JOB_IPFS_TRIM_PIN}:${pin.cid}:${pin.mark}`,
      },
    );
    booked++;
  }
  return booked;
}

/**
 * The second look: the pins left over at both looks go, unless the root's count changed in between (the engine
 * compares the mark, in its queue with the pins and unpins).
 */
export async function trimPin(deps: Deps, payload: { cid: string; mark: string; excess: number }) {
  const engine = engineOf(deps);
  const by = Math.min(
    payload.excess,
    (await engine.pins(payload.cid)) - (await pinsHeld(deps.db, payload.cid, deps.now())),
  );
  if (by <= 0) return { trimmed: 0, removedBlocks: 0 };
  const done = await engine.trim(payload.cid, payload.mark, by);
  if (done.trimmed)
    console.warn(
      `ipfs: ${done.trimmed} pin(s) of ${payload.cid} that no file held were taken away (${done.removedBlocks} block(s) removed)`,
    );
  return done;
}

export const pinSweepJobs: Record<string, JobHandler> = {
  [JOB_IPFS_SWEEP_PINS]: async (_payload, deps) => {
    await sweepPins(deps);
    await schedulePinSweep(deps.db, new Date(deps.now().getTime() + PIN_SWEEP_GAP_MS));
  },
  [JOB_IPFS_TRIM_PIN]: async (payload, deps) => {
    await trimPin(deps, {
      cid: String(payload.cid),
      mark: String(payload.mark),
      excess: Number(payload.excess),
    });
  },
};
