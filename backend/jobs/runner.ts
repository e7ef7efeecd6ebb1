import { and, eq, sql } from "drizzle-orm";
import type { Db, Tx } from "../db/client";
import { jobs } from "../db/tables";
import type { Deps } from "../deps";
import { errorSummary } from "../../contract/error-summary";

/**
 * Durable background jobs (ARCHITECTURE: payment expiry, provider callbacks, weekly bills, and later
 * chaincode tests and deployments). A job row is claimed with FOR UPDATE SKIP LOCKED and a lease, so
 * several processes never run the same job at once, and a job whose process died is taken up again
 * when its lease ends. A handler must be safe to run again after a crash (do its work in one
 * transaction, or check what is already done).
 */
export type JobHandler = (payload: Record<string, unknown>, services: Deps) => Promise<void>;

const LEASE_MS = 5 * 60 * 1000;
const MAX_ATTEMPTS = 8;

export type JobRegistry = Map<string, JobHandler>;

/** Schedules a job; with a `dedupeKey`, scheduling the same job twice keeps the first. */
export async function schedule(
  db: Db | Tx,
  kind: string,
  payload: Record<string, unknown>,
  options: { runAt: Date; dedupeKey?: string },
): Promise<void> {
  await db
    .insert(jobs)
    .values({ kind, payload, runAt: options.runAt, dedupeKey: options.dedupeKey ?? null, createdAt: options.runAt })
    .onConflictDoNothing();
}

/** Claims the next due job, or none. */
async function claim(services: Deps) {
  const now = services.now();
  const leaseEnd = new Date(now.getTime() + LEASE_MS);
  const result = await services.db.execute(sql`
    UPDATE ${jobs} SET locked_until = ${leaseEnd.toISOString()}, attempts = attempts + 1
    WHERE id = (
      SELECT id FROM ${jobs}
      WHERE done_at IS NULL AND run_at <= ${now.toISOString()}
        AND (locked_until IS NULL OR locked_until < ${now.toISOString()}) AND attempts < ${MAX_ATTEMPTS}
      ORDER BY run_at, id LIMIT 1 FOR UPDATE SKIP LOCKED
    )
    RETURNING id, kind, payload, attempts`);
  const rows = (result as unknown as { rows: { id: number | string; kind: string; payload: Record<string, unknown>; attempts: number }[] }).rows;
  return rows[0] ? { ...rows[0], id: Number(rows[0].id) } : undefined;
}

/** Runs every job due now, one after another; returns how many ran. */
export async function runDueJobs(services: Deps, registry: JobRegistry, limit = 100): Promise<number> {
  let ran = 0;
  while (ran < limit) {
    const job = await claim(services);
    if (!job) break;
    ran += 1;
    const handler = registry.get(job.kind);
    try {
      if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
      await handler(job.payload, services);
      await services.db.update(jobs).set({ doneAt: services.now(), lockedUntil: null, lastError: null }).where(eq(jobs.id, job.id));
    } catch (error) {
      // Retried later with a growing delay; the error is kept on the row for operators, told without the
      // values it was working on (a failed query's message holds its parameters).
      const delay = Math.min(60 * 60 * 1000, 2 ** job.attempts * 1000);
      await services.db
        .update(jobs)
        .set({ lockedUntil: null, lastError: errorSummary(error, false), runAt: new Date(services.now().getTime() + delay) })
        .where(and(eq(jobs.id, job.id)));
    }
  }
  return ran;
}

/**
 * Polls for due jobs every `intervalMs` until stopped. The stop function ends the polling and resolves once
 * the pass under way (if any) has finished, so the database can be closed after it.
 */
export function startJobLoop(services: Deps, registry: JobRegistry, intervalMs: number): () => Promise<void> {
  let pass: Promise<void> | null = null;
  const timer = setInterval(() => {
    if (pass) return;
    pass = runDueJobs(services, registry)
      .then(() => undefined)
      .catch((error) => console.error(`job loop failed: ${errorSummary(error)}`))
      .finally(() => {
        pass = null;
      });
  }, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await pass;
  };
}
