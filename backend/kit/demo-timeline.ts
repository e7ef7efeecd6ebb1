import type { Tx } from "#backend/db/client.ts";

/** A demo event that moves money (it posts to the ledger), run inside the transaction it is given. */
export type DemoStep = (tx: Tx) => Promise<unknown>;

/**
 * The demo's money in time order (docs/decisions/028). The ledger writes each entry's "balance after" from
 * the wallet as it is when the entry is posted, so the demo's entries chain on My account only if they are
 * posted in the order of their dates, whichever domain seeds them. A seeder schedules what can wait with
 * `later(at, step)`; one whose next records need the money moved now (a bill paid before the service is
 * deployed) runs it with `now(tx, at, step)`, which first runs every step scheduled before `at`. The seed
 * runs what is left at the end (`finish`). A step dated before one already run is a mistake in the demo
 * data and is refused, so the chain cannot break silently.
 */
export class DemoTimeline {
  private pending: { at: number; order: number; step: DemoStep }[] = [];
  private last = Number.NEGATIVE_INFINITY;
  private counter = 0;

  later(at: Date, step: DemoStep) {
    this.refuseEarlierThanRun(at);
    this.pending.push({ at: at.getTime(), order: this.counter++, step });
  }

  async now(tx: Tx, at: Date, step: DemoStep) {
    this.refuseEarlierThanRun(at);
    await this.runUntil(tx, at.getTime());
    this.last = at.getTime();
    return step(tx);
  }

  /** Runs every step left, in time order (the same time: in the order they were scheduled). */
  finish(tx: Tx) {
    return this.runUntil(tx, Number.POSITIVE_INFINITY);
  }

  private async runUntil(tx: Tx, until: number) {
    this.pending.sort((a, b) => a.at - b.at || a.order - b.order);
    while (this.pending.length > 0 && this.pending[0].at <= until) {
      const next = this.pending.shift()!;
      this.last = next.at;
      await next.step(tx);
    }
  }

  private refuseEarlierThanRun(at: Date) {
    if (at.getTime() < this.last)
      throw new Error(
        `demo money dated ${at.toISOString()} comes after money dated ${new Date(this.last).toISOString()}: the ledger would not chain`,
      );
  }
}
