import type { Db, Tx } from "#backend/db/client.ts";
import type { Deps } from "#backend/deps.ts";
import { schedule, type JobHandler } from "#backend/jobs/runner.ts";

/*
 * Hourly sweeps (the services' and the dedicated nodes' renewals): a job on the hour that does its work and
 * schedules itself for the next hour. Each hour's job is scheduled once, whoever asks (every start schedules the
 * current hour's), as its dedupe key names the hour.
 */

const HOUR_MS = 60 * 60 * 1000;

/** Schedules the job `kind` on the hour of `at` (no-op when that hour's is scheduled already). */
export function scheduleHourly(db: Db | Tx, kind: string, at: Date) {
  const hour = new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);
  return schedule(db, kind, {}, { runAt: hour, dedupeKey: `${kind}:${hour.toISOString().slice(0, 13)}` });
}

/** The handler of the hourly job `kind`: `sweep` at the job's time, then the next hour's job. */
export function hourlyJob(kind: string, sweep: (deps: Deps, now: Date) => Promise<unknown>): JobHandler {
  return async (_payload, deps) => {
    const now = deps.now();
    await sweep(deps, now);
    await scheduleHourly(deps.db, kind, new Date(now.getTime() + HOUR_MS));
  };
}
