import type { Db } from "#backend/db/client.ts";
import type { Deps } from "#backend/deps.ts";
import { onFlush } from "#backend/kit/meter.ts";
import { fireAll, unfired } from "./tell.ts";
import { requestCandidates, trafficCandidates } from "./usage.ts";

/**
 * Alerts checked when a meter flush crosses a threshold (issue 35 §1, docs/decisions/090), beside the durable job.
 * The meter kit tells this process what each flush wrote (backend/kit/meter.ts `onFlush`); the projects and IPFS
 * services it moved are noted in memory and checked soon after on their own (never inside the flush, which a request
 * may await): one query per meter finds those past 50 % of their cap or budget, and only what is not told yet is
 * fired. Nothing here can fail or slow a request: a failed check is logged and left to the job, which finds the same
 * thresholds; two processes checking at once tell once, by the unique firing row.
 */
const METERS = { requests: "public-chain.requests", traffic: "ipfs.traffic" } as const;

class FlushWatch {
  private projects = new Set<number>();
  private services = new Set<number>();
  private running: Promise<void> | null = null;
  private stopped = false;
  private readonly unlisten: () => void;

  constructor(
    private readonly db: Db,
    private readonly now: () => Date,
  ) {
    this.unlisten = onFlush(db, (meter, keys) => this.note(meter, keys));
  }

  private note(meter: string, keys: Record<string, string | number | null>[]) {
    const into = meter === METERS.requests ? this.projects : meter === METERS.traffic ? this.services : null;
    const field = meter === METERS.requests ? "projectId" : "serviceId";
    if (!into || this.stopped) return;
    for (const key of keys) into.add(Number(key[field]));
    this.kick();
  }

  private kick() {
    if (this.running || this.stopped) return;
    this.running = new Promise((resolve) => setImmediate(resolve))
      .then(() => this.drain())
      .catch((error: unknown) => console.warn("alerts: a check after a meter flush failed (the job retries):", error))
      .finally(() => {
        this.running = null;
        if (this.projects.size || this.services.size) this.kick();
      });
  }

  /** Checks what the flushes since the last drain moved, until nothing is left. */
  private async drain() {
    while (!this.stopped && (this.projects.size || this.services.size)) {
      const projectIds = [...this.projects];
      const serviceIds = [...this.services];
      this.projects.clear();
      this.services.clear();
      const now = this.now();
      const found = [
        ...(projectIds.length ? await requestCandidates(this.db, now, { projectIds }) : []),
        ...(serviceIds.length ? await trafficCandidates(this.db, now, { serviceIds }) : []),
      ];
      await fireAll(this.db, await unfired(this.db, found), now);
    }
  }

  /** Resolves once the checks noted so far are done (tests). */
  async settled() {
    while (this.running) await this.running;
  }

  /** Listens no more and waits for a check under way (the domain's stop, before the database closes). */
  async stop() {
    this.stopped = true;
    this.unlisten();
    await this.running;
  }
}

const watches = new WeakMap<Db, FlushWatch>();

export function watchFlushes(deps: Pick<Deps, "db" | "now">) {
  if (!watches.has(deps.db)) watches.set(deps.db, new FlushWatch(deps.db, () => deps.now()));
}

export async function stopWatchingFlushes(deps: Pick<Deps, "db">) {
  await watches.get(deps.db)?.stop();
  watches.delete(deps.db);
}

/** Waits for the checks under way after the flushes so far (tests). */
export const flushChecks = (db: Db) => watches.get(db)?.settled();
