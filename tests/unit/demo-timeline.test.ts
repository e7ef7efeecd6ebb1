import { describe, expect, it } from "vitest";
import type { Tx } from "#backend/db/client.ts";
import { DemoTimeline } from "#backend/kit/demo-timeline.ts";

// The demo's money in time order (docs/decisions/028): steps run by their dates, whatever order they were given in.
const tx = {} as Tx;
const day = (n: number) => new Date(Date.UTC(2026, 0, n));

describe("DemoTimeline", () => {
  it("runs the steps scheduled for later in time order, and those of one date in the order given", async () => {
    const ran: string[] = [];
    const timeline = new DemoTimeline();
    timeline.later(day(5), async () => ran.push("5"));
    timeline.later(day(2), async () => ran.push("2a"));
    timeline.later(day(9), async () => ran.push("9"));
    timeline.later(day(2), async () => ran.push("2b"));
    await timeline.finish(tx);
    expect(ran).toEqual(["2a", "2b", "5", "9"]);
  });

  it("runs a step now after every step dated before it, and keeps the later ones for the end", async () => {
    const ran: string[] = [];
    const timeline = new DemoTimeline();
    timeline.later(day(1), async () => ran.push("1"));
    timeline.later(day(8), async () => ran.push("8"));
    await timeline.now(tx, day(4), async () => ran.push("4 now"));
    expect(ran).toEqual(["1", "4 now"]);
    await timeline.finish(tx);
    expect(ran).toEqual(["1", "4 now", "8"]);
  });

  it("refuses money dated before money already moved: the ledger would not chain", async () => {
    const timeline = new DemoTimeline();
    await timeline.now(tx, day(6), async () => {});
    expect(() => timeline.later(day(3), async () => {})).toThrow(/would not chain/);
    await expect(timeline.now(tx, day(5), async () => {})).rejects.toThrow(/would not chain/);
  });
});
