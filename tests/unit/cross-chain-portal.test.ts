import { describe, expect, it } from "vitest";
import { allowedActions, canReopen } from "#app/lib/cross-chain-rules.ts";
import { callHref, exportHref } from "#app/lib/cross-chain-urls.ts";
import { callsPerDay } from "#app/components/cross-chain/calls.tsx";
import { sampleKinds } from "#app/components/cross-chain/send.tsx";
import { callFilterOf, chartRange, confirmOf, crossStatusParam } from "#app/lib/cross-chain.server.ts";

// The cross-chain screens' pure helpers (docs/decisions/048): the call filters read from the query, the chart's
// days and series, the Index list's confirm step and actions, and the links.

const at = (query: string) => new URL(`http://x/g/home/CrossChainService/CrossChainDetail?${query}`);

describe("callFilterOf", () => {
  it("reads status, days and target; leaves out what is not a value", () => {
    expect(callFilterOf(at("status=1&from=2026-03-01&to=2026-03-05&target=open-alliance"))).toEqual({
      status: 1,
      from: "2026-03-01",
      to: "2026-03-05",
      target: "open-alliance",
    });
    expect(callFilterOf(at("status=7&from=2026-13-40&to=yesterday&target=%20%20"))).toEqual({
      status: undefined,
      from: undefined,
      to: undefined,
      target: undefined,
    });
    expect(callFilterOf(at(""))).toEqual({ status: undefined, from: undefined, to: undefined, target: undefined });
    expect(callFilterOf(at("status=0")).status).toBe(0);
  });

  it("reads a range given backwards the right way round and cuts a long target", () => {
    expect(callFilterOf(at("from=2026-03-09&to=2026-03-02"))).toMatchObject({ from: "2026-03-02", to: "2026-03-09" });
    expect(callFilterOf(at(`target=${"a".repeat(150)}`)).target).toHaveLength(100);
  });
});

describe("chartRange", () => {
  // 2026-03-10 20:00 UTC is 2026-03-11 in UTC+8.
  const now = new Date("2026-03-10T20:00:00Z");
  it("is the last 14 UTC+8 days to today without a range", () => {
    expect(chartRange({}, now)).toEqual({ from: "2026-02-26", to: "2026-03-11" });
  });
  it("follows the filter's days, 14 days back from `to` when only `to` is given", () => {
    expect(chartRange({ from: "2026-03-01", to: "2026-03-05" }, now)).toEqual({ from: "2026-03-01", to: "2026-03-05" });
    expect(chartRange({ to: "2026-03-05" }, now)).toEqual({ from: "2026-02-20", to: "2026-03-05" });
    expect(chartRange({ from: "2026-03-01" }, now)).toEqual({ from: "2026-03-01", to: "2026-03-11" });
    // A `from` after today ends the range on it.
    expect(chartRange({ from: "2026-04-01" }, now)).toEqual({ from: "2026-04-01", to: "2026-04-01" });
  });
  it("covers at most 92 days, the last ones", () => {
    expect(chartRange({ from: "2025-01-01", to: "2026-03-05" }, now)).toEqual({ from: "2025-12-04", to: "2026-03-05" });
  });
});

describe("callsPerDay", () => {
  const name = (s: number) => ["unknown", "success", "failure"][s]!;
  it("counts calls per UTC+8 day by status, successes first, only statuses that occur", () => {
    const rows = [
      { createdAt: "2026-03-01T17:00:00Z", status: 1 }, // 2026-03-02 in UTC+8
      { createdAt: "2026-03-02T01:00:00Z", status: 1 },
      { createdAt: "2026-03-03T02:00:00Z", status: 2 },
      { createdAt: "2026-02-27T02:00:00Z", status: 1 }, // before the range
    ];
    expect(callsPerDay(rows, "2026-03-01", "2026-03-03", name)).toEqual({
      days: ["2026-03-01", "2026-03-02", "2026-03-03"],
      series: [
        { name: "success", data: [0, 2, 0] },
        { name: "failure", data: [0, 0, 1] },
      ],
    });
  });
  it("has no series without calls and at most 92 days", () => {
    expect(callsPerDay([], "2026-03-01", "2026-03-01", name)).toEqual({ days: ["2026-03-01"], series: [] });
    expect(callsPerDay([], "2025-01-01", "2026-03-01", name).days).toHaveLength(92);
  });
});

describe("the Index list", () => {
  it("offers deactivate when activated, close when deactivated or pending activation, nothing otherwise; reopening when 0 or 2", () => {
    expect([0, 1, 2, 3, 4].map(allowedActions)).toEqual([["close"], ["deactivate"], [], ["close"], []]);
    expect([0, 1, 2, 3, 4].map(canReopen)).toEqual([true, false, true, false, false]);
  });

  it("reads the status filter and the confirm step only for a listed service and an allowed action", () => {
    expect(crossStatusParam(at("status=4"))).toBe(4);
    expect(crossStatusParam(at("status=5"))).toBeUndefined();
    const rows = [
      { appId: 7, crossStatus: 1 },
      { appId: 8, crossStatus: 0 },
    ];
    expect(confirmOf(at("confirm=7&confirmAction=deactivate"), rows)).toEqual({ row: rows[0], action: "deactivate" });
    expect(confirmOf(at("confirm=8&confirmAction=close"), rows)).toEqual({ row: rows[1], action: "close" });
    expect(confirmOf(at("confirm=7&confirmAction=close"), rows)).toBeNull();
    expect(confirmOf(at("confirm=9&confirmAction=close"), rows)).toBeNull();
    expect(confirmOf(at("confirm=8&confirmAction=drop"), rows)).toBeNull();
  });
});

describe("links and samples", () => {
  it("links a call within its service and exports with the filters, without the page", () => {
    expect(callHref(3, 42)).toBe("/g/home/CrossChainService/CrossChainDetailView?appId=3&callId=42");
    expect(exportHref(3, new URLSearchParams("status=1&page=4&appId=9"))).toBe(
      "/g/home/CrossChainService/CrossChainDetail/export.csv?status=1&appId=3",
    );
  });
  it("offers NFT and deposit samples to protocol 2 only", () => {
    expect(sampleKinds(2)).toEqual(["message", "nft", "deposit"]);
    expect(sampleKinds(1)).toEqual(["message"]);
    expect(sampleKinds(null)).toEqual(["message"]);
  });
});
