/**
 * The one meter of data traffic (docs/decisions/057): what a door serves is counted in memory per process and
 * handed to the owner's `write` once a second in one batch (one transaction), and at once when the domain
 * stops (its `stop` runs before the database closes). A crash loses at most the last second; a write that
 * fails puts its counts back for the next one, so nothing is lost by a failed write and nothing is counted
 * twice. Each use gives its own key (the columns of its row) and counters (the numbers its row adds up).
 *
 * `QuotaBlocks` is the other half for a daily cap: a process takes quota from the database in blocks of at most
 * 1 % of the cap (at least 1, and never past the cap), answers from its block in memory, and gives back what it
 * did not use when it stops.
 */
export type Counts = Record<string, number>;
export type Metered<K, C extends Counts> = { key: K; counts: C };

const FLUSH_MS = 1000;

export class Meter<K extends Record<string, string | number | null>, C extends Counts> {
  private pending = new Map<string, Metered<K, C>>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  /** Told what each write wrote, once it is written (set by `meterOf`: the flush listeners of its database). */
  written?: (batch: Metered<K, C>[]) => void;

  constructor(
    /** Writes one batch in one transaction (adding to what the rows hold); throws when nothing was written. */
    private readonly write: (batch: Metered<K, C>[]) => Promise<void>,
    private readonly name: string,
    private readonly flushMs = FLUSH_MS,
  ) {}

  /** Counts `counts` under `key`; nothing when every counter is zero. */
  add(key: K, counts: C): void {
    if (!Object.values(counts).some((n) => n !== 0)) return;
    const id = JSON.stringify(
      Object.keys(key)
        .sort()
        .map((k) => key[k]),
    );
    const entry = this.pending.get(id);
    if (entry) {
      const sum = entry.counts as Counts;
      for (const [k, n] of Object.entries(counts)) sum[k] = (sum[k] ?? 0) + n;
    } else this.pending.set(id, { key, counts: { ...counts } });
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.flush().catch((error: unknown) =>
        console.warn(`${this.name}: the meter could not write, it retries:`, error),
      );
    }, this.flushMs).unref();
  }

  /** How many rows wait for the next write (tests). */
  get waiting(): number {
    return this.pending.size;
  }

  /** Writes what was counted so far; resolves once it is written (rejects, with the counts put back, if not). */
  flush(): Promise<void> {
    const run = async () => {
      if (!this.pending.size) return;
      const batch = [...this.pending.values()];
      this.pending = new Map();
      try {
        await this.write(batch);
      } catch (error) {
        for (const e of batch) this.add(e.key, e.counts);
        throw error;
      }
      this.written?.(batch);
    };
    this.flushing = this.flushing.then(run, run);
    return this.flushing;
  }

  /** Stops the timer and writes what is left. */
  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.flush();
  }
}

/** One meter per database and name: the process's meter of a use (a door, a domain). */
const meters = new WeakMap<object, Map<string, Meter<never, never>>>();

/**
 * What a flush wrote: the meter's name and the keys of the rows it moved. A listener is called synchronously after
 * the write's transaction committed; it must only note the keys and do its work later (it runs on a flush, which a
 * request may await), never throw (a throw is logged and ignored) and never write counts itself.
 */
export type FlushListener = (meter: string, keys: Record<string, string | number | null>[]) => void;
const listeners = new WeakMap<object, Set<FlushListener>>();

/** Listens to every flush of the meters of `db` (docs/decisions/090: alerts checked after a flush); answers the unlisten. */
export function onFlush(db: object, listener: FlushListener): () => void {
  let set = listeners.get(db);
  if (!set) listeners.set(db, (set = new Set()));
  set.add(listener);
  return () => void listeners.get(db)?.delete(listener);
}

export function meterOf<K extends Record<string, string | number | null>, C extends Counts>(
  db: object,
  name: string,
  make: () => Meter<K, C>,
): Meter<K, C> {
  let byName = meters.get(db);
  if (!byName) meters.set(db, (byName = new Map()));
  let meter = byName.get(name) as unknown as Meter<K, C> | undefined;
  if (!meter) {
    byName.set(name, (meter = make()) as unknown as Meter<never, never>);
    meter.written = (batch) => {
      const set = listeners.get(db);
      if (!set?.size) return;
      const keys = batch.map((e) => e.key);
      for (const listener of set)
        try {
          listener(name, keys);
        } catch (error) {
          console.warn(`${name}: a flush listener failed:`, error);
        }
    };
  }
  return meter;
}

/** Stops the meter `name` of `db` (its last write) and forgets it. */
export async function stopMeterOf(db: object, name: string): Promise<void> {
  const byName = meters.get(db);
  const meter = byName?.get(name);
  byName?.delete(name);
  await meter?.stop();
}

/* ------------------------------------------ daily caps in blocks ------------------------------------------ */

/** The block a process reserves at a time: 1 % of the daily cap, at least 1. */
export const blockOf = (cap: number) => Math.max(1, Math.floor(cap / 100));

export type QuotaStore = {
  /**
   * Reserves up to `want` units (at least `need`) of `key`'s cap from the database atomically, never past `cap`;
   * answers how many it reserved: 0 when fewer than `need` are left.
   */
  reserve(key: string, want: number, need: number, cap: number): Promise<number>;
  /** Gives `units` reserved and not used back to `key`. */
  release(key: string, units: number): Promise<void>;
};

type Held = { granted: number; used: number; queue: Promise<unknown> };

export class QuotaBlocks {
  private held = new Map<string, Held>();

  constructor(private readonly store: QuotaStore) {}

  /**
   * Takes `units` of `key`'s `cap` (a key is one project's day): from this process's block when it covers them,
   * else after reserving another block from the database. False (nothing taken) when the cap would be passed.
   */
  take(key: string, units: number, cap: number): Promise<boolean> {
    let h = this.held.get(key);
    if (!h) this.held.set(key, (h = { granted: 0, used: 0, queue: Promise.resolve() }));
    const held = h;
    const run = async () => {
      if (held.used + units <= held.granted) {
        held.used += units;
        return true;
      }
      const need = held.used + units - held.granted;
      const got = await this.store.reserve(key, Math.max(need, blockOf(cap)), need, cap);
      held.granted += got;
      if (held.used + units > held.granted) return false;
      held.used += units;
      return true;
    };
    const result = held.queue.then(run, run);
    held.queue = result.catch(() => undefined);
    return result;
  }

  /** Gives back the unused part of the blocks of keys `done` says are over (a past day), and forgets them. */
  async forget(done: (key: string) => boolean): Promise<void> {
    for (const [key, h] of [...this.held]) {
      if (!done(key)) continue;
      this.held.delete(key);
      await h.queue;
      if (h.granted > h.used) await this.store.release(key, h.granted - h.used);
    }
  }

  /** Gives every unused reservation back (at stop). */
  stop(): Promise<void> {
    return this.forget(() => true);
  }
}
