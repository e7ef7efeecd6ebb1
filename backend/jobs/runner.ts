import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";
import type { Db, Tx } from "#backend/db/client.ts";
import { jobs, messages } from "#backend/db/tables.ts";
import type { Deps } from "#backend/deps.ts";
import { errorSummary } from "#contract/error-summary.ts";
import { hasEnded, parseWorker, thisProcess, workerLabel, type Worker } from "./worker.ts";

/**
 * Durable background jobs (ARCHITECTURE: payment expiry, provider callbacks, weekly bills, chaincode tests
 * and deployments; docs/decisions/005). A job row is claimed with FOR UPDATE SKIP LOCKED by one process
 * (`locked_by`) with a short lease that a heartbeat renews while the handler runs, so several processes
 * never run the same job at once, and the job of a process that died is free again within a lease (at
 * once for a process on the same host, see `reclaimOrphans`). A handler must be safe to run again after
 * a crash (do its work in one transaction, or check what is already done). A job failing MAX_ATTEMPTS
 * times is dead: kept with its last error, its owner told, until an operator retries it.
 */
export type JobHandler = (payload: Record<string, unknown>, services: Deps, job?: JobRun) => Promise<void>;

/** The run under way, for handlers that care (tests, attempt-dependent work). */
export type JobRun = { readonly id: number; readonly kind: string; readonly attempt: number };

/** Whom a job concerns: the user told when it dies, and how the message names the resource (a service name, a number). */
export type JobOwner = { userId: number; subject: string };

/** A job kind: its handler and, when its jobs concern one user's resource, how to find that user. */
export type JobDefinition = {
  readonly run: JobHandler;
  readonly ownerOf?: (payload: Record<string, unknown>, db: Db) => Promise<JobOwner | null>;
};

/** What a domain registers per kind: the handler alone, or the handler with `ownerOf`. */
export type JobEntry = JobHandler | JobDefinition;

export type JobRegistry = Map<string, JobDefinition>;

/** Every attempt counts, including one whose process died while running it. */
export const MAX_ATTEMPTS = 8;
/**
 * How long a claim holds without a heartbeat, unless JOBS_LEASE_MS says otherwise: a dead process's jobs are free
 * after this at the latest.
 */
export const LEASE_MS = 30_000;
/** How often a running job's lease is renewed. */
export const HEARTBEAT_MS = 10_000;
/** After a stop, how long the job under way may finish before the process gives up on it (its lease then lapses). */
export const STOP_GRACE_MS = 10_000;
/** The longest delay between two attempts. */
const MAX_DELAY_MS = 60 * 60 * 1000;

/** The message key the owner of a dead job's resource receives (locales/<lng>/messages.json). */
export const JOB_DEAD_MESSAGE = "messages.jobDead";

export function jobRegistry(entries: Iterable<readonly [string, JobEntry]>): JobRegistry {
  return new Map([...entries].map(([kind, entry]) => [kind, typeof entry === "function" ? { run: entry } : entry]));
}

/**
 * Schedules a job; with a `dedupeKey`, scheduling the same job twice keeps the first. `createdAt` defaults to
 * `runAt`; `attemptsUsed` (test fixtures) starts it with some of its attempts already spent.
 */
export async function schedule(
  db: Db | Tx,
  kind: string,
  payload: Record<string, unknown>,
  options: { runAt: Date; dedupeKey?: string; createdAt?: Date; attemptsUsed?: number },
): Promise<{ id: number } | undefined> {
  const [row] = await db
    .insert(jobs)
    .values({
      kind,
      payload,
      runAt: options.runAt,
      dedupeKey: options.dedupeKey ?? null,
      createdAt: options.createdAt ?? options.runAt,
      ...(options.attemptsUsed ? { attempts: options.attemptsUsed } : {}),
    })
    .onConflictDoNothing()
    .returning({ id: jobs.id });
  return row;
}

/**
 * Schedules several jobs of one kind in one statement (inside the caller's transaction, like `schedule`); a job whose
 * `dedupeKey` is already taken is left out. Nothing when `items` is empty.
 */
export async function scheduleMany(
  db: Db | Tx,
  kind: string,
  items: readonly { payload: Record<string, unknown>; runAt: Date; dedupeKey?: string }[],
): Promise<void> {
  if (items.length === 0) return;
  await db
    .insert(jobs)
    .values(
      items.map((item) => ({
        kind,
        payload: item.payload,
        runAt: item.runAt,
        dedupeKey: item.dedupeKey ?? null,
        createdAt: item.runAt,
      })),
    )
    .onConflictDoNothing();
}

/**
 * An operator's retry of a dead job: back in the queue now with all its attempts, the retry recorded on the
 * row (who, when, how many) and in the log. Null when the job is not (or no longer) dead.
 */
export async function retryDeadJob(
  db: Db,
  jobId: number,
  operatorId: number,
  now: Date,
): Promise<{ id: number; kind: string } | null> {
  const [row] = await db
    .update(jobs)
    .set({
      deadAt: null,
      attempts: 0,
      runAt: now,
      lockedUntil: null,
      lockedBy: null,
      retriedAt: now,
      retriedBy: operatorId,
      retries: sql`${jobs.retries} + 1`,
    })
    .where(and(eq(jobs.id, jobId), isNotNull(jobs.deadAt)))
    .returning({ id: jobs.id, kind: jobs.kind });
  if (row) console.warn(`[jobs] job ${row.id} (${row.kind}) retried by operator ${operatorId}`);
  return row ?? null;
}

type Claimed = {
  id: number;
  kind: string;
  payload: Record<string, unknown>;
  attempts: number;
  lastError: string | null;
};

/** What of an error is kept on the row and logged: never the values it was working on (docs/decisions/024). */
const errorText = (error: unknown) => errorSummary(error, false).slice(0, 2000);

export type RunnerOptions = {
  /** The process claiming jobs (default: this process). Tests pass others to play several processes. */
  worker?: Worker;
  leaseMs?: number;
  heartbeatMs?: number;
  stopGraceMs?: number;
};

/**
 * The job runner of one process: claims due jobs, runs them with a heartbeat, retries with a growing delay,
 * buries the ones out of attempts. Leases are measured on the database's clock (one clock for every
 * process); whether a job is due, on the services' clock (which tests move).
 */
export function createJobRunner(services: Deps, registry: JobRegistry, options: RunnerOptions = {}) {
  const worker = options.worker ?? thisProcess;
  const label = workerLabel(worker);
  // Every runner of the process (its job loop, a test fixture's) holds the lease the environment sets.
  const leaseMs = options.leaseMs ?? services.env.jobsLeaseMs ?? LEASE_MS;
  const heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
  const stopGraceMs = options.stopGraceMs ?? STOP_GRACE_MS;
  const db = services.db;
  /** The heartbeats of the jobs running now; cleared when they end, or all at once by stop. */
  const heartbeats = new Set<NodeJS.Timeout>();
  let stopped = false;
  const leaseEnd = sql`clock_timestamp() + ${leaseMs}::int * interval '1 millisecond'`;
  const mine = (id: number) => and(eq(jobs.id, id), eq(jobs.lockedBy, label));

  /**
   * Claims the next due job, or the job `jobId` due or not (its run time then becomes now, so that after a
   * crash it is due for whoever takes it up). A job is free when no live lease holds it.
   */
  async function claim(jobId?: number): Promise<Claimed | undefined> {
    const now = services.now().toISOString();
    const which = jobId === undefined ? sql`run_at <= ${now}` : sql`id = ${jobId}`;
    const result = await db.execute(sql`
      UPDATE ${jobs} SET locked_until = ${leaseEnd}, locked_by = ${label}, attempts = attempts + 1, run_at = LEAST(run_at, ${now}::timestamptz)
      WHERE id = (
        SELECT id FROM ${jobs}
        WHERE done_at IS NULL AND dead_at IS NULL AND ${which}
          AND (locked_until IS NULL OR locked_until < clock_timestamp())
        ORDER BY run_at, id LIMIT 1 FOR UPDATE SKIP LOCKED
      )
      RETURNING id, kind, payload, attempts, last_error`);
    type Row = {
      id: number | string;
      kind: string;
      payload: Record<string, unknown>;
      attempts: number;
      last_error: string | null;
    };
    const row = (result as unknown as { rows: Row[] }).rows[0];
    return row
      ? {
          id: Number(row.id),
          kind: row.kind,
          payload: row.payload,
          attempts: Number(row.attempts),
          lastError: row.last_error,
        }
      : undefined;
  }

  /** Renews the lease every `heartbeatMs` while `work` runs; never keeps the process alive. */
  async function withHeartbeat(jobId: number, work: () => Promise<void>) {
    let lost = false;
    const timer = setInterval(() => {
      db.update(jobs)
        .set({ lockedUntil: leaseEnd })
        .where(and(mine(jobId), isNull(jobs.doneAt)))
        .returning({ id: jobs.id })
        .then((rows) => {
          if (rows.length === 0 && !lost) {
            lost = true;
            console.warn(`[jobs] job ${jobId}: lease lost (another process took it over); finishing this run anyway`);
          }
        })
        .catch((error) => {
          if (!stopped) console.warn(`[jobs] job ${jobId}: heartbeat failed: ${errorText(error)}`);
        });
    }, heartbeatMs);
    timer.unref();
    heartbeats.add(timer);
    try {
      await work();
    } finally {
      clearInterval(timer);
      heartbeats.delete(timer);
    }
  }

  /** Marks the job dead with its last error and tells the owner of its resource, when its kind knows them. */
  async function bury(job: Claimed, error: string) {
    const definition = registry.get(job.kind);
    const owner = await (definition?.ownerOf?.(job.payload, db) ?? Promise.resolve(null)).catch((failure) => {
      console.warn(`[jobs] job ${job.id}: its owner could not be found: ${errorText(failure)}`);
      return null;
    });
    const now = services.now();
    await db.transaction(async (tx) => {
      const [row] = await tx
        .update(jobs)
        .set({
          deadAt: now,
          lockedUntil: null,
          lockedBy: null,
          attempts: Math.min(job.attempts, MAX_ATTEMPTS),
          lastError: error,
          ownerId: owner?.userId ?? null,
        })
        .where(mine(job.id))
        .returning({ id: jobs.id });
      if (!row || !owner) return;
      await tx.insert(messages).values({
        userId: owner.userId,
        textKey: JOB_DEAD_MESSAGE,
        params: { kind: job.kind, subject: owner.subject, attempts: String(Math.min(job.attempts, MAX_ATTEMPTS)) },
        createdAt: now,
      });
    });
    console.warn(
      `[jobs] job ${job.id} (${job.kind}) is dead after ${Math.min(job.attempts, MAX_ATTEMPTS)} attempts: ${error}`,
    );
  }

  async function execute(job: Claimed) {
    // Its earlier attempts used them all up: the last one's process stopped before it finished.
    if (job.attempts > MAX_ATTEMPTS)
      return bury(job, job.lastError ?? "the process running its last attempt stopped before it finished");
    const definition = registry.get(job.kind);
    try {
      if (!definition) throw new Error(`no handler for job kind ${job.kind}`);
      await withHeartbeat(job.id, () =>
        definition.run(job.payload, services, { id: job.id, kind: job.kind, attempt: job.attempts }),
      );
      await db
        .update(jobs)
        .set({ doneAt: services.now(), lockedUntil: null, lockedBy: null, lastError: null })
        .where(mine(job.id));
    } catch (error) {
      const message = errorText(error);
      if (job.attempts >= MAX_ATTEMPTS) return bury(job, message);
      // Retried later with a growing delay; the error is kept on the row for operators.
      const delay = Math.min(MAX_DELAY_MS, 2 ** job.attempts * 1000);
      await db
        .update(jobs)
        .set({
          lockedUntil: null,
          lockedBy: null,
          lastError: message,
          runAt: new Date(services.now().getTime() + delay),
        })
        .where(mine(job.id));
    }
  }

  /** Runs the jobs due now, one after another, until none is left, `limit` ran or the runner stopped; returns how many ran. */
  async function runDue(limit = 100): Promise<number> {
    let ran = 0;
    while (ran < limit && !stopped) {
      const job = await claim();
      if (!job) break;
      ran += 1;
      await execute(job);
    }
    return ran;
  }

  /** Runs one job now, due or not, if it is free and neither done nor dead (test fixtures); false when it was not. */
  async function runJob(jobId: number): Promise<boolean> {
    const job = await claim(jobId);
    if (!job) return false;
    await execute(job);
    return true;
  }

  /**
   * Frees the jobs held by processes that have certainly ended (a crash, a kill -9, a restart): their leases
   * would free them anyway, this does it at once. Ended are the holders on this host whose pid is gone (or is
   * an earlier life of this pid) and, when `exclusive` (this process holds the DATA_DIR lock of the embedded
   * database, so no other process can run jobs on it), every other holder. The attempt they were on stays counted.
   */
  async function reclaimOrphans(exclusive = false): Promise<number> {
    const held = await db
      .select({ id: jobs.id, lockedBy: jobs.lockedBy })
      .from(jobs)
      .where(
        and(
          isNull(jobs.doneAt),
          isNull(jobs.deadAt),
          isNotNull(jobs.lockedBy),
          sql`${jobs.lockedUntil} >= clock_timestamp()`,
        ),
      );
    let freed = 0;
    for (const row of held) {
      const holder = parseWorker(row.lockedBy);
      if (!exclusive && (!holder || !hasEnded(holder, worker))) continue;
      if (row.lockedBy === label) continue;
      const [done] = await db
        .update(jobs)
        .set({
          lockedUntil: null,
          lockedBy: null,
          lastError: `interrupted: ${holder ? `process ${holder.pid} on ${holder.host}` : row.lockedBy} ended while running it`,
        })
        .where(and(eq(jobs.id, row.id), eq(jobs.lockedBy, row.lockedBy!)))
        .returning({ id: jobs.id });
      if (done) freed += 1;
    }
    if (freed > 0) console.warn(`[jobs] ${freed} job(s) of ended processes taken up again`);
    return freed;
  }

  /**
   * Frees the orphans (`exclusive`: see reclaimOrphans), then polls for due jobs every `intervalMs` until
   * stopped. The stop function claims no further job, waits up to the grace period for the one under way, and
   * clears every heartbeat (a job still running then keeps its lease only until it lapses).
   */
  function start(intervalMs: number, { exclusive = false }: { exclusive?: boolean } = {}): () => Promise<void> {
    let pass: Promise<void> | null = null;
    const runPass = (work: () => Promise<unknown>) => {
      if (pass || stopped) return;
      pass = work()
        .then(() => undefined)
        .catch((error) => {
          if (!stopped) console.error(`job loop failed: ${errorSummary(error)}`);
        })
        .finally(() => {
          pass = null;
        });
    };
    runPass(async () => {
      await reclaimOrphans(exclusive);
      await runDue();
    });
    const timer = setInterval(() => runPass(() => runDue()), intervalMs);
    timer.unref();
    return async () => {
      stopped = true;
      clearInterval(timer);
      if (pass) {
        let grace: NodeJS.Timeout | undefined;
        await Promise.race([pass, new Promise<void>((resolve) => (grace = setTimeout(resolve, stopGraceMs).unref()))]);
        clearTimeout(grace);
      }
      for (const heartbeat of heartbeats) clearInterval(heartbeat);
      heartbeats.clear();
    };
  }

  return { worker, label, runDue, runJob, reclaimOrphans, start };
}

export type JobRunner = ReturnType<typeof createJobRunner>;
