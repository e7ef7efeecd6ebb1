import { describe, expect, it } from "vitest";
import {
  changeKind,
  cycleDays,
  proratedCents,
  upgradeRefusal,
  UpgradeRefusal,
} from "#contract/config-upgrade-codes.ts";
import { configCycleCents, nodeCycleCents } from "#contract/service-cost.ts";

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const now = new Date("2026-05-10T00:00:00Z");
const at = (ms: number) => new Date(now.getTime() + ms);

describe("§5 Config upgrade rules (docs/decisions/036)", () => {
  const cases: [string, Parameters<typeof upgradeRefusal>[0], string | null][] = [
    [
      "allowed mid-cycle, never upgraded",
      { now, cycleEnd: at(20 * DAY), inProgress: false, lastSuccessAt: null },
      null,
    ],
    [
      "another upgrade in progress",
      { now, cycleEnd: at(20 * DAY), inProgress: true, lastSuccessAt: null },
      UpgradeRefusal.IN_PROGRESS,
    ],
    [
      "5 hours 59 minutes after a success",
      { now, cycleEnd: at(20 * DAY), inProgress: false, lastSuccessAt: at(-(6 * HOUR - 60_000)) },
      UpgradeRefusal.COOLDOWN,
    ],
    [
      "exactly 6 hours after a success",
      { now, cycleEnd: at(20 * DAY), inProgress: false, lastSuccessAt: at(-6 * HOUR) },
      null,
    ],
    [
      "5 days before the cycle end, less a minute",
      { now, cycleEnd: at(5 * DAY - 60_000), inProgress: false, lastSuccessAt: null },
      UpgradeRefusal.CYCLE_END,
    ],
    [
      "exactly 5 days before the cycle end",
      { now, cycleEnd: at(5 * DAY), inProgress: false, lastSuccessAt: null },
      null,
    ],
    [
      "in progress wins over the cycle end",
      { now, cycleEnd: at(DAY), inProgress: true, lastSuccessAt: null },
      UpgradeRefusal.IN_PROGRESS,
    ],
  ];
  for (const [name, input, expected] of cases) it(name, () => expect(upgradeRefusal(input)).toBe(expected));

  it("tells a node upgrade from a resource upgrade", () => {
    const a = { cityNodeId: 1, tps: 100, capacityGb: 10, peers: 1 };
    const b = { cityNodeId: 2, tps: 50, capacityGb: 5, peers: 1 };
    expect(changeKind([a], [a])).toBe("none");
    expect(changeKind([a], [a, b])).toBe("node");
    expect(changeKind([a, b], [a])).toBe("node");
    expect(changeKind([a], [{ ...a, tps: 200 }])).toBe("resource");
    expect(changeKind([a], [{ ...a, peers: 2 }])).toBe("resource");
    expect(changeKind([a], [{ ...a, tps: 200 }, b])).toBe("mixed");
  });

  it("prices the rest of the cycle, rounded up; a smaller configuration costs nothing now", () => {
    expect(proratedCents(30_000, 30 * DAY, 30 * DAY)).toBe(30_000);
    expect(proratedCents(4_500, 10 * DAY, 30 * DAY)).toBe(1_500);
    expect(proratedCents(100, DAY, 30 * DAY)).toBe(4);
    expect(proratedCents(-500, 10 * DAY, 30 * DAY)).toBe(0);
    expect(proratedCents(500, 0, 30 * DAY)).toBe(0);
  });

  it("one cost formula for yearly, monthly and weekly cycles, with the peer price", () => {
    const prices = {
      tpsPricePerMonthCents: 150,
      tpsPricePerYearCents: 1500,
      capacityPricePerGbMonthCents: 20,
      peerPricePerMonthCents: 30,
    };
    expect(nodeCycleCents(prices, 100, 10, 2, 2).totalCents).toBe(15_000 + 200 + 60);
    expect(nodeCycleCents(prices, 100, 10, 1, 2).totalCents).toBe(150_000 + 2_400 + 720);
    expect(nodeCycleCents(prices, 100, 10, 99, 2).totalCents).toBe(3_500 + 47 + 14);
    expect(
      configCycleCents(
        [
          { cityNodeId: 1, tps: 100, capacityGb: 10, peers: 2 },
          { cityNodeId: 9, tps: 1, capacityGb: 1, peers: 1 },
        ],
        new Map([[1, prices]]),
        2,
      ),
    ).toBe(15_260);
    expect([cycleDays(1), cycleDays(2), cycleDays(99)]).toEqual([365, 30, 7]);
  });
});
