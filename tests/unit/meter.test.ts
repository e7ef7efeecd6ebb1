import { describe, expect, it, vi } from "vitest";
import {
  Meter,
  QuotaBlocks,
  blockOf,
  meterOf,
  onFlush,
  stopMeterOf,
  type Metered,
  type QuotaStore,
} from "#backend/kit/meter.ts";

// The one meter kit (docs/decisions/057): counts in memory, one write a batch, counts put back when a write
// fails, the last write at stop; daily caps taken in blocks of at most 1 % of the cap, never past it.

type Key = { a: number; b: string };
type Counts = { n: number; bytes: number };

function sink() {
  const written: Metered<Key, Counts>[][] = [];
  let failNext = false;
  return {
    written,
    failOnce: () => {
      failNext = true;
    },
    write: async (batch: Metered<Key, Counts>[]) => {
      if (failNext) {
        failNext = false;
        throw new Error("database away");
      }
      written.push(batch.map((e) => ({ key: { ...e.key }, counts: { ...e.counts } })));
    },
  };
}

describe("Meter", () => {
  it("adds up counts per key (whatever the order of the key's fields) and writes them in one batch", async () => {
    const s = sink();
    const meter = new Meter<Key, Counts>(s.write, "test", 60_000);
    meter.add({ a: 1, b: "x" }, { n: 1, bytes: 10 });
    meter.add({ b: "x", a: 1 }, { n: 2, bytes: 5 });
    meter.add({ a: 2, b: "x" }, { n: 1, bytes: 0 });
    meter.add({ a: 3, b: "x" }, { n: 0, bytes: 0 });
    expect(meter.waiting).toBe(2);
    await meter.flush();
    expect(s.written).toEqual([
      [
        { key: { a: 1, b: "x" }, counts: { n: 3, bytes: 15 } },
        { key: { a: 2, b: "x" }, counts: { n: 1, bytes: 0 } },
      ],
    ]);
    await meter.flush();
    expect(s.written).toHaveLength(1);
    await meter.stop();
  });

  it("puts the counts of a failed write back, with what came in since, and writes them once", async () => {
    const s = sink();
    const meter = new Meter<Key, Counts>(s.write, "test", 60_000);
    meter.add({ a: 1, b: "x" }, { n: 1, bytes: 100 });
    s.failOnce();
    await expect(meter.flush()).rejects.toThrow("database away");
    meter.add({ a: 1, b: "x" }, { n: 1, bytes: 1 });
    await meter.flush();
    expect(s.written).toEqual([[{ key: { a: 1, b: "x" }, counts: { n: 2, bytes: 101 } }]]);
    await meter.stop();
  });

  it("writes on its own after the interval, and what is left at stop", async () => {
    const s = sink();
    const meter = new Meter<Key, Counts>(s.write, "test", 10);
    meter.add({ a: 1, b: "x" }, { n: 1, bytes: 1 });
    await expect.poll(() => s.written.length).toBe(1);
    meter.add({ a: 1, b: "y" }, { n: 4, bytes: 4 });
    await meter.stop();
    expect(s.written[1]).toEqual([{ key: { a: 1, b: "y" }, counts: { n: 4, bytes: 4 } }]);
    expect(meter.waiting).toBe(0);
  });
});

/** A database row of reservations per key, as the public chain's `pub_chain_daily_use` keeps it. */
function store() {
  const reserved = new Map<string, number>();
  const calls: number[] = [];
  const s: QuotaStore = {
    reserve: async (key, want, need, cap) => {
      const free = cap - (reserved.get(key) ?? 0);
      if (free < need) return 0;
      const got = Math.min(want, free);
      calls.push(got);
      reserved.set(key, (reserved.get(key) ?? 0) + got);
      return got;
    },
    release: async (key, units) => {
      reserved.set(key, (reserved.get(key) ?? 0) - units);
    },
  };
  return { s, reserved, calls };
}

describe("QuotaBlocks", () => {
  it("reserves blocks of 1 % of the cap (at least 1) and refuses exactly at the cap in one process", async () => {
    expect([blockOf(10), blockOf(100), blockOf(250), blockOf(10_000)]).toEqual([1, 1, 2, 100]);
    const db = store();
    const q = new QuotaBlocks(db.s);
    let taken = 0;
    while (await q.take("p@d", 1, 1_000)) taken += 1;
    expect(taken).toBe(1_000);
    // 100 reservations of 10 (1 % of 1,000), never past the cap.
    expect(db.calls).toHaveLength(100);
    expect(Math.max(...db.calls)).toBe(10);
    expect(db.reserved.get("p@d")).toBe(1_000);
    // A request bigger than a block reserves what it needs.
    const big = store();
    const q2 = new QuotaBlocks(big.s);
    expect(await q2.take("p@d", 37, 1_000)).toBe(true);
    expect(big.calls).toEqual([37]);
    expect(await q2.take("p@d", 964, 1_000)).toBe(false);
    expect(await q2.take("p@d", 963, 1_000)).toBe(true);
  });

  it("with several processes never goes past the cap, and gives unused blocks back at stop", async () => {
    const db = store();
    const processes = [new QuotaBlocks(db.s), new QuotaBlocks(db.s), new QuotaBlocks(db.s)];
    let taken = 0;
    for (let i = 0; i < 2_000; i++) if (await processes[i % 3].take("p@d", 1, 500)) taken += 1;
    expect(taken).toBeLessThanOrEqual(500);
    // Refused early by at most the unused blocks the other processes hold (one block, 5, each).
    expect(taken).toBeGreaterThanOrEqual(500 - 2 * 5);
    expect(db.reserved.get("p@d")).toBe(500);
    for (const p of processes) await p.stop();
    expect(db.reserved.get("p@d")).toBe(taken);
  });

  it("serialises the takes of one key, so concurrent requests reserve no more than they need", async () => {
    const db = store();
    const q = new QuotaBlocks(db.s);
    const results = await Promise.all(Array.from({ length: 30 }, () => q.take("p@d", 1, 20)));
    expect(results.filter(Boolean)).toHaveLength(20);
    expect(db.reserved.get("p@d")).toBe(20);
  });
});

describe("flush listeners (docs/decisions/090)", () => {
  it("are told the keys a flush wrote, only once it is written; a throwing listener neither fails it nor stops the others", async () => {
    const db = {};
    const s = sink();
    const meter = meterOf(db, "listened", () => new Meter<Key, Counts>(s.write, "listened", 60_000));
    const heard: [string, unknown[]][] = [];
    const unlisten = onFlush(db, (name, keys) => heard.push([name, keys]));
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    onFlush(db, () => {
      throw new Error("listener broke");
    });
    meter.add({ a: 1, b: "x" }, { n: 1, bytes: 1 });
    s.failOnce();
    await expect(meter.flush()).rejects.toThrow("database away");
    expect(heard).toEqual([]);
    await meter.flush();
    expect(heard).toEqual([["listened", [{ a: 1, b: "x" }]]]);
    expect(warn).toHaveBeenCalledTimes(1);
    unlisten();
    meter.add({ a: 2, b: "y" }, { n: 1, bytes: 1 });
    await meter.flush();
    expect(heard).toHaveLength(1);
    // Another database's listeners hear nothing of this one.
    expect(onFlush({}, () => heard.push(["other", []]))).toBeTypeOf("function");
    await stopMeterOf(db, "listened");
    expect(heard).toHaveLength(1);
    warn.mockRestore();
  });
});
