import type { Db } from "#backend/db/client.ts";
import { Meter } from "./meter.ts";
import { hitKey, purgeEnded } from "./rate-limit.ts";
import { addressKey, type LimitRule, type RateLimitConfig } from "./rate-limit-rules.ts";

/**
 * Request rates per client address on the doors outside /vueapi (docs/decisions/067): each endpoint's declared
 * `ratePerMinute` (or RATE_LIMITS's "door:<path>=…"). A process counts the requests it lets through in memory
 * and writes them to the `rate_limits` counter of ADR 021 once a second through the meter kit (ADR 057): one
 * transaction of atomic upserts that add a second's worth per (door, address), each answering the total of all
 * processes and when the window ends. A request is refused when the last total it heard plus what this process
 * let through since reaches the limit, so with one process the limit is exact, and with several each may let
 * through at most one second of traffic past it (what the others counted in that second). Refused requests are
 * not counted: a flood that is refused costs no database write. Nothing is read per request.
 */
type Entry = {
  /** All processes' hits in the window, as the last write answered. */
  hits: number;
  /** When that window ends (ms); before the first write, 0. */
  resetAt: number;
  /** Hits this process let through that the last write did not include. */
  since: number;
};

const PURGE_EVERY_MS = 60_000;

/**
 * The request rate per address of the chain's JSON-RPC doors (`/chain/rpc`, `/chain/service`, the dedicated
 * gateways, the fixtures' `/chain/test-rpc`): 50 a second. A wallet polls every few seconds and an indexer
 * catching up sends a few a second; a project's daily cap (a key's whole day) bounds its use, this bounds what
 * one address can take of the server (docs/decisions/067).
 */
export const RPC_DOOR_RATE_PER_MINUTE = 3000;

export type RateAnswer = { over: false } | { over: true; retryAfterSeconds: number };

export class DoorRates {
  private entries = new Map<string, Entry>();
  private rules = new Map<string, LimitRule>();
  private readonly meter: Meter<{ key: string }, { hits: number }>;
  private lastPurge = 0;

  constructor(
    private readonly db: Db,
    private readonly config: RateLimitConfig,
    private readonly now: () => Date,
    flushMs?: number,
  ) {
    this.meter = new Meter((batch) => this.write(batch), "door rates", flushMs);
  }

  /** The rule of a door: RATE_LIMITS's override, else its declared rate per minute. */
  ruleOf(path: string, ratePerMinute: number): LimitRule {
    return this.config.doors.get(path) ?? { limit: ratePerMinute, windowMs: 60_000, scope: "address" };
  }

  /**
   * One request at door `path` from `clientAddress`: let through (and counted) or refused. RATE_LIMITS=off and
   * the exempt addresses (RATE_LIMIT_EXEMPT) are let through uncounted.
   */
  admit(path: string, ratePerMinute: number, clientAddress: string | null): RateAnswer {
    const address = addressKey(clientAddress);
    if (!this.config.enabled || this.config.exempt.has(address)) return { over: false };
    const rule = this.ruleOf(path, ratePerMinute);
    const key = `door.rate:${path}|${address}`;
    const now = this.now().getTime();
    let entry = this.entries.get(key);
    if (!entry) this.entries.set(key, (entry = { hits: 0, resetAt: 0, since: 0 }));
    const counted = entry.resetAt > now ? entry.hits : 0;
    if (counted + entry.since >= rule.limit) {
      // The window ends when the database says; hits not yet written start a window at their write.
      const ms = entry.resetAt > now ? entry.resetAt - now : rule.windowMs;
      return { over: true, retryAfterSeconds: Math.max(1, Math.ceil(ms / 1000)) };
    }
    entry.since += 1;
    this.rules.set(key, rule);
    this.meter.add({ key }, { hits: 1 });
    return { over: false };
  }

  private async write(batch: { key: { key: string }; counts: { hits: number } }[]): Promise<void> {
    const now = this.now();
    const totals = await this.db.transaction(async (tx) => {
      const out: { key: string; hits: number; resetAt: number; added: number }[] = [];
      for (const { key, counts } of batch) {
        const rule = this.rules.get(key.key)!;
        const result = await hitKey(tx, key.key, rule, now, counts.hits);
        out.push({
          key: key.key,
          hits: result.hits,
          resetAt: now.getTime() + result.retryAfterSeconds * 1000,
          added: counts.hits,
        });
      }
      if (now.getTime() - this.lastPurge >= PURGE_EVERY_MS) {
        this.lastPurge = now.getTime();
        await purgeEnded(tx, now);
      }
      return out;
    });
    for (const t of totals) {
      const entry = this.entries.get(t.key);
      if (!entry) continue;
      entry.hits = t.hits;
      entry.resetAt = t.resetAt;
      entry.since = Math.max(0, entry.since - t.added);
    }
    // Forget the addresses whose window is over and that sent nothing since (memory stays bounded by traffic).
    const at = now.getTime();
    for (const [key, entry] of this.entries)
      if (entry.since === 0 && entry.resetAt <= at) {
        this.entries.delete(key);
        this.rules.delete(key);
      }
  }

  /** Writes what this process let through so far (tests; the meter does it every second). */
  flush(): Promise<void> {
    return this.meter.flush();
  }

  /** Writes what is left (at stop, before the database closes). */
  stop(): Promise<void> {
    return this.meter.stop();
  }
}

const rates = new WeakMap<object, DoorRates>();

/** The door rates of one database in this process. */
export function doorRatesOf(db: Db, config: RateLimitConfig, now: () => Date): DoorRates {
  let found = rates.get(db);
  if (!found) rates.set(db, (found = new DoorRates(db, config, now)));
  return found;
}

/** Writes the last counts of `db`'s door rates and forgets them (the service's close). */
export async function stopDoorRatesOf(db: Db): Promise<void> {
  const found = rates.get(db);
  rates.delete(db);
  await found?.stop();
}
