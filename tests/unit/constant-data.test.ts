import { describe, expect, it } from "vitest";
import { ConstantData } from "#backend/kit/constant-data.ts";

describe("kept platform data", () => {
  it("reads once, shares the first read between concurrent callers, and reads again after a clear", async () => {
    const kept = new ConstantData();
    let reads = 0;
    const read = async () => ++reads;
    expect(await Promise.all([kept.get("n", read), kept.get("n", read)])).toEqual([1, 1]);
    expect(await kept.get("n", read)).toBe(1);
    kept.clear("n");
    expect(await kept.get("n", read)).toBe(2);
    kept.clear();
    expect(await kept.get("n", read)).toBe(3);
  });

  it("runs a lazy query (a thenable that runs at every then, as Drizzle's do) once", async () => {
    const kept = new ConstantData();
    let runs = 0;
    const query: PromiseLike<number> = { then: (onValue, onError) => Promise.resolve(++runs).then(onValue, onError) };
    expect(await kept.get("q", () => query)).toBe(1);
    expect(await kept.get("q", () => query)).toBe(1);
    expect(await Promise.all([kept.get("q", () => query), kept.get("q", () => query)])).toEqual([1, 1]);
    expect(runs).toBe(1);
  });

  it("does not keep a failed read", async () => {
    const kept = new ConstantData();
    await expect(kept.get("n", () => Promise.reject(new Error("down")))).rejects.toThrow("down");
    expect(await kept.get("n", async () => 7)).toBe(7);
  });

  it("reads again once an entry is older than its bound (processes sharing one database)", async () => {
    let now = 1_000;
    const kept = new ConstantData(5_000, () => now);
    let value = 1;
    expect(await kept.get("p", async () => value)).toBe(1);
    value = 2;
    now += 4_999;
    expect(await kept.get("p", async () => value)).toBe(1);
    now += 1;
    expect(await kept.get("p", async () => value)).toBe(2);
  });
});
