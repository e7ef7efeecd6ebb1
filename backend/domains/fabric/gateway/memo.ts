import { createHash } from "node:crypto";

/**
 * The gateway's memory of who may call (issue 28 "Proof: bench:fabric"; docs/decisions/068 addendum): a channel's
 * resolution (its service, CA, endorsing identity) and each admitted caller (keyed by the SHA-256 of its
 * certificate) are kept for `FABRIC_CALLER_TTL_MS` after they were read, so an Evaluate makes no database query
 * and opens no sealed key while they last. Refusals are never kept.
 *
 * Revocation, as the session cache does it (docs/decisions/030): every write in this process that takes access
 * away from a participant (disabled, rejected, certificate revoked) calls `forgetCallers` after it has committed,
 * which drops every entry and bumps the generation; a read that started before a bump is not stored, so in that
 * process the next call is refused. Another process keeps its entry until its time ends: that is the bound, and
 * also how long a service that stopped running may still be called through a process that did not stop it.
 */
export const FABRIC_CALLER_TTL_MS = 5_000;
/** At most this many entries per memo; the oldest go first. */
export const FABRIC_CALLER_MAX_ENTRIES = 10_000;

let generation = 0;
const memos = new Set<Memo<unknown>>();

/** Drops every remembered channel and caller of this process (after a write that withdrew access). */
export function forgetCallers(): void {
  generation++;
  for (const memo of memos) memo.clear();
}

export const certificateKey = (pem: string) => createHash("sha256").update(pem).digest("hex");

export class Memo<V> {
  private readonly entries = new Map<string, { value: V; until: number }>();
  private readonly reading = new Map<string, { generation: number; value: Promise<V> }>();

  constructor(
    private readonly ttlMs = FABRIC_CALLER_TTL_MS,
    private readonly clock: () => number = Date.now,
  ) {
    memos.add(this as Memo<unknown>);
  }

  clear() {
    this.entries.clear();
    this.reading.clear();
  }

  /** The remembered value, or `read`'s (shared by the calls that ask meanwhile); kept only when `keep` says so. */
  async get(key: string, read: () => Promise<V>, keep: (value: V) => boolean): Promise<V> {
    const now = this.clock();
    const held = this.entries.get(key);
    if (held && held.until > now) return held.value;
    if (held) this.entries.delete(key);
    const pending = this.reading.get(key);
    if (pending && pending.generation === generation) return pending.value;
    const started = generation;
    const value = read();
    this.reading.set(key, { generation: started, value });
    try {
      const v = await value;
      if (started === generation && keep(v)) {
        if (this.entries.size >= FABRIC_CALLER_MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
        this.entries.set(key, { value: v, until: this.clock() + this.ttlMs });
      }
      return v;
    } finally {
      if (this.reading.get(key)?.value === value) this.reading.delete(key);
    }
  }
}
