import { sql } from "drizzle-orm";
import type { Db, Tx } from "#backend/db/client.ts";
import { thisProcess, workerLabel } from "#backend/jobs/worker.ts";

/**
 * One holder per embedded engine among the portal processes on one database (issue 32, docs/decisions/095): a row
 * of `engine_leases` per engine, with its holder, the address where the holder answers the others' calls, an epoch
 * that grows at each change of holder, and an end (the database's clock, so the hosts' clocks do not matter).
 *
 * The holder renews it every `renewMs`; a process that is not the holder tries to take it every `pollMs`, which
 * succeeds only once the end has passed. So a holder killed with -9 loses it `ttlMs` after its last renewal at the
 * latest and another process has it within one poll more; a holder that stops gracefully ends it at once
 * (`release`). A holder that cannot renew (its database connection is gone) gives the engine up by itself once
 * its own clock says the lease may have ended, before anyone else can take it: `holding` turns false and `onLost`
 * runs. Writes that must come from the holder only are made under `fence`, which the change of holder waits for.
 */
export type LeaseHolder = { holder: string; address: string; epoch: number; expiresAt: Date };

export type LeaseOptions = {
  ttlMs?: number;
  renewMs?: number;
  pollMs?: number;
  /** Called once this process holds the lease (a takeover), renewing it meanwhile (`keepWhile`). */
  onAcquired?: (epoch: number) => Promise<void>;
  /** Called once this process stopped holding it (not renewed in time, or taken: the engine must stop at once). */
  onLost?: () => Promise<void>;
};

/** A write under `fence` when this process no longer holds the lease. */
export class NotLeaseHolderError extends Error {
  constructor(readonly engine: string) {
    super(`this process no longer holds the ${engine} engine's lease`);
    this.name = "NotLeaseHolderError";
  }
}

export const LEASE_TTL_MS = 6_000;
export const LEASE_RENEW_MS = 2_000;
export const LEASE_POLL_MS = 1_000;

type Row = { holder: string; address: string; epoch: number; expires_at: Date | string };
const rowsOf = (result: unknown): Row[] =>
  ((result as { rows?: Row[] }).rows ?? (result as Row[])).map((r) => ({ ...r, epoch: Number(r.epoch) }));

export class EngineLease {
  /** This process's name in the lease row (host, pid namespace, pid, a random id per start). */
  readonly me: string;
  private epoch: number | null = null;
  /** performance.now() after which this process no longer counts on holding it (its last renewal + ttl − margin). */
  private deadline = 0;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private tick: Promise<void> = Promise.resolve();
  private readonly ttlMs: number;
  private readonly renewMs: number;
  private readonly pollMs: number;

  constructor(
    private readonly db: Db,
    readonly engine: string,
    private readonly address: string,
    private readonly options: LeaseOptions = {},
    me = workerLabel(thisProcess),
  ) {
    this.me = me;
    this.ttlMs = options.ttlMs ?? LEASE_TTL_MS;
    this.renewMs = options.renewMs ?? LEASE_RENEW_MS;
    this.pollMs = options.pollMs ?? LEASE_POLL_MS;
  }

  /** Whether this process holds the lease now, as far as its own clock can tell. */
  get holding(): boolean {
    return this.epoch !== null && performance.now() < this.deadline;
  }

  /** The epoch this process holds, or null. */
  get heldEpoch(): number | null {
    return this.holding ? this.epoch : null;
  }

  /** Takes the lease when it is free (never taken, ended or released); whether this process holds it now. */
  async tryAcquire(): Promise<boolean> {
    const started = performance.now();
    const result = await this.db.execute(sql`
      INSERT INTO engine_leases (engine, holder, address, epoch, acquired_at, renewed_at, expires_at)
      VALUES (${this.engine}, ${this.me}, ${this.address}, 1, now(), now(), now() + ${this.ttlMs}::int * interval '1 millisecond')
      ON CONFLICT (engine) DO UPDATE SET holder = excluded.holder, address = excluded.address,
        epoch = engine_leases.epoch + 1, acquired_at = now(), renewed_at = now(), expires_at = excluded.expires_at
      WHERE engine_leases.expires_at < clock_timestamp()
      RETURNING epoch`);
    const [row] = rowsOf(result);
    if (!row) return false;
    this.epoch = row.epoch;
    this.deadline = started + this.ttlMs - this.renewMs / 2;
    return true;
  }

  /**
   * Extends the lease this process holds; false when it no longer does (another process took it, or this one gave it
   * up). A renewal that comes after the end (a slow database, a long pause) still extends it when nobody took it
   * meanwhile, the row still naming this holder and epoch: no other process ran the engine, so nothing needs
   * reopening (docs/decisions/103); the fence refused this process's writes in between.
   */
  private async renew(): Promise<boolean> {
    if (this.epoch === null) return false;
    const started = performance.now();
    const result = await this.db.execute(sql`
      UPDATE engine_leases SET renewed_at = now(), expires_at = now() + ${this.ttlMs}::int * interval '1 millisecond'
      WHERE engine = ${this.engine} AND holder = ${this.me} AND epoch = ${this.epoch}
      RETURNING epoch`);
    if (!rowsOf(result).length) return false;
    this.deadline = started + this.ttlMs - this.renewMs / 2;
    return true;
  }

  /** Who holds the lease now (null: nobody ever did, or it has ended). */
  async current(): Promise<LeaseHolder | null> {
    const result = await this.db.execute(sql`
      SELECT holder, address, epoch, expires_at FROM engine_leases
      WHERE engine = ${this.engine} AND expires_at >= clock_timestamp()`);
    const [row] = rowsOf(result);
    return row
      ? { holder: row.holder, address: row.address, epoch: row.epoch, expiresAt: new Date(row.expires_at) }
      : null;
  }

  /**
   * Inside a write's transaction: throws NotLeaseHolderError unless this process holds the lease, and keeps it from
   * changing holder until that transaction ends (a takeover waits for the write, and the new holder then sees it).
   */
  async fence(tx: Tx): Promise<void> {
    if (this.epoch === null) throw new NotLeaseHolderError(this.engine);
    const result = await tx.execute(sql`
      SELECT epoch FROM engine_leases
      WHERE engine = ${this.engine} AND holder = ${this.me} AND epoch = ${this.epoch} AND expires_at >= clock_timestamp()
      FOR SHARE`);
    if (!rowsOf(result).length) throw new NotLeaseHolderError(this.engine);
  }

  /** Renews while held, tries to take it while not; calls the hooks on each change. */
  start(): void {
    this.stopped = false;
    const loop = () => {
      if (this.stopped) return;
      this.tick = this.step().finally(() => {
        if (!this.stopped) this.timer = setTimeout(loop, this.epoch !== null ? this.renewMs : this.pollMs);
        this.timer?.unref();
      });
    };
    this.timer = setTimeout(loop, this.epoch !== null ? this.renewMs : this.pollMs);
    this.timer.unref();
  }

  private async step(): Promise<void> {
    if (this.epoch !== null) {
      const renewed = await this.renew().catch((error: Error) => {
        console.warn(`${this.engine} lease: not renewed (${error.message})`);
        return null;
      });
      // Not renewed but maybe still ours (a database hiccup): try again until our own clock says it may have ended.
      if (renewed === false || (renewed === null && !this.holding)) await this.lose();
      return;
    }
    const acquired = await this.tryAcquire().catch(() => false);
    if (acquired) {
      try {
        await this.keepWhile(async () => this.options.onAcquired?.(this.epoch!));
      } catch (error) {
        console.error(`${this.engine} lease: taken, but the engine did not start: ${(error as Error).message}`);
        await this.release();
      }
    }
  }

  /**
   * Runs `work` (opening the engine, which replays its log and may outlast the ttl on a loaded host) while renewing
   * the lease this process holds, so the row keeps naming it meanwhile: no other process takes it over while it opens,
   * and /healthz never reports an engine without a holder because its new holder is still opening it. A renewal that
   * finds the lease taken ends it once `work` is done (`onLost`, queued behind the opening by its owner).
   */
  async keepWhile<T>(work: () => Promise<T>): Promise<T> {
    let taken = false;
    let renewing: Promise<unknown> = Promise.resolve();
    const timer = setInterval(() => {
      renewing = renewing.then(() =>
        this.renew().then(
          (renewed) => void (taken ||= !renewed && this.epoch !== null),
          () => undefined,
        ),
      );
    }, this.renewMs);
    timer.unref();
    try {
      return await work();
    } finally {
      clearInterval(timer);
      await renewing;
      if (taken) await this.lose();
    }
  }

  private async lose(): Promise<void> {
    if (this.epoch === null) return;
    this.epoch = null;
    console.warn(`${this.engine} lease: no longer held by this process; the engine stops here`);
    await this.options.onLost?.().catch((error: Error) => console.error(`${this.engine} lease: ${error.message}`));
  }

  /** Ends the lease this process holds now (a graceful stop hands it over at once), without calling onLost. */
  async release(): Promise<void> {
    const epoch = this.epoch;
    this.epoch = null;
    if (epoch === null) return;
    await this.db
      .execute(
        sql`UPDATE engine_leases SET expires_at = now() - interval '1 millisecond'
            WHERE engine = ${this.engine} AND holder = ${this.me} AND epoch = ${epoch}`,
      )
      .catch(() => undefined);
  }

  /** Stops renewing and trying (the caller releases first when it held the lease). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.tick.catch(() => undefined);
  }
}
