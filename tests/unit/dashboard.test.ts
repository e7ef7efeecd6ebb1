import { describe, expect, it } from "vitest";
import { VER_STATES } from "#contract/service-status.ts";
import { groupServices, mbToGbText, queueOf, SERVICE_GROUPS } from "#app/lib/dashboard.ts";
import { OPERATIONS_QUEUES } from "#app/lib/menu.ts";
import { OPS_QUEUES } from "#contract/platform.ts";

describe("the console home's service groups", () => {
  it("puts every §4 status in exactly one group", () => {
    for (const state of VER_STATES) {
      const groups = Object.entries(SERVICE_GROUPS).filter(([, states]) =>
        (states as readonly number[]).includes(state),
      );
      expect(
        groups.map(([g]) => g),
        `status ${state}`,
      ).toHaveLength(1);
    }
  });

  it("adds the counts of a group's statuses and takes drafts from their own count", () => {
    const byState = [
      { verState: 25, count: 2 },
      { verState: 24, count: 1 },
      { verState: 23, count: 1 },
      { verState: 20, count: 3 },
      { verState: 15, count: 4 },
      { verState: 40, count: 1 },
      { verState: 1, count: 9 },
    ];
    expect(Object.fromEntries(groupServices(byState, 2).map((g) => [g.group, g.count]))).toEqual({
      running: 3,
      actionNeeded: 4,
      inReview: 4,
      stopped: 1,
      drafts: 2,
    });
    expect(groupServices([], 0).every((g) => g.count === 0)).toBe(true);
  });
});

describe("the operations queues' counts", () => {
  it("names each counted queue by a tab of the operations area", () => {
    const tabs = OPERATIONS_QUEUES.map((q) => queueOf(q.to));
    for (const queue of OPS_QUEUES) expect(tabs).toContain(queue);
  });
});

describe("traffic in GB", () => {
  it("counts 1024 MB a GB with two decimals", () => {
    expect(mbToGbText(0)).toBe("0.00");
    expect(mbToGbText(1024)).toBe("1.00");
    expect(mbToGbText(1536)).toBe("1.50");
  });
});
