import { describe, expect, it } from "vitest";
import { NODE_DEFAULTS, nodeCycleCents, runningTotal } from "#contract/service-cost.ts";
import { fillNodeDefaults } from "#app/lib/wizard-nodes.ts";

const beijing = { tpsPricePerMonthCents: 150, tpsPricePerYearCents: 1500, capacityPricePerGbMonthCents: 20 };
const frankfurt = { tpsPricePerMonthCents: 210, tpsPricePerYearCents: 2100, capacityPricePerGbMonthCents: 28 };
const prices = new Map([
  [1, beijing],
  [7, frankfurt],
]);

describe("one node's cost for a payment cycle", () => {
  it.each([
    // [tps, GB, cycle, TPS cents, capacity cents]
    [100, 50, 2, 15000, 1000],
    [100, 50, 1, 150000, 12000],
    [0, 0, 2, 0, 0],
    [1, 1, 1, 1500, 240],
  ] as const)("%i TPS and %i GB, cycle %i", (tps, gb, cycle, tpsCents, capacityCents) => {
    expect(nodeCycleCents(beijing, tps, gb, cycle)).toEqual({
      tpsCents,
      capacityCents,
      peerCents: 0,
      totalCents: tpsCents + capacityCents,
    });
  });
});

describe("the running total of the nodes form", () => {
  it("adds the chosen rows only, for the cycle", () => {
    const rows = [
      { cityNodeId: "1", selected: "on", tps: "100", capacityGb: "50", peers: "1" },
      { cityNodeId: "7", selected: "on", tps: "10", capacityGb: "10", peers: "2" },
      { cityNodeId: "7", tps: "999", capacityGb: "999" },
    ];
    const monthly = runningTotal(rows, prices, 2);
    expect(monthly.totalCents).toBe(16000 + 2100 + 280);
    expect(monthly.chosen).toBe(2);
    expect(monthly.complete).toBe(true);
    expect(runningTotal(rows, prices, 1).totalCents).toBe(150000 + 12000 + 21000 + 3360);
  });

  it("leaves out a row whose numbers are not whole yet, and says the total is incomplete", () => {
    const total = runningTotal(
      [
        { cityNodeId: "1", selected: "on", tps: "", capacityGb: "5" },
        { cityNodeId: "7", selected: "on", tps: "1.5", capacityGb: "5" },
        { cityNodeId: "1", selected: "on", tps: " 2 ", capacityGb: "0" },
      ],
      prices,
      2,
    );
    expect(total.lines.get(7)).toBeNull();
    expect(total.totalCents).toBe(300);
    expect(total.complete).toBe(false);
  });

  it("ignores nodes missing from the catalogue and empty rows", () => {
    expect(
      runningTotal([undefined, { cityNodeId: "99", selected: "on", tps: "1", capacityGb: "1" }], prices, 2),
    ).toMatchObject({ totalCents: 0, chosen: 0, complete: true });
  });
});

describe("defaults of a node chosen without JavaScript", () => {
  it("fills only the missing inputs of chosen rows", () => {
    const form = new FormData();
    form.set("intent", "recalculateNodes");
    form.set("nodes[0].cityNodeId", "1");
    form.set("nodes[0].selected", "on");
    form.set("nodes[1].cityNodeId", "7");
    form.set("nodes[1].selected", "on");
    form.set("nodes[1].tps", "7");
    form.set("nodes[2].cityNodeId", "3");
    const filled = fillNodeDefaults(form);
    expect(filled.get("nodes[0].tps")).toBe(NODE_DEFAULTS.tps);
    expect(filled.get("nodes[0].capacityGb")).toBe(NODE_DEFAULTS.capacityGb);
    expect(filled.get("nodes[0].peers")).toBe(NODE_DEFAULTS.peers);
    expect(filled.get("nodes[1].tps")).toBe("7");
    expect(filled.get("nodes[1].peers")).toBe(NODE_DEFAULTS.peers);
    expect(filled.has("nodes[2].tps")).toBe(false);
    expect(filled.get("intent")).toBe("recalculateNodes");
  });
});
