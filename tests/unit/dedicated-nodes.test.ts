import { describe, expect, it } from "vitest";
import { prnCreateSchema, prnPasswordSchema, prnTrySchema } from "#contract/dedicated-nodes.ts";
import { PrnStatus, PrnUpdateType } from "#contract/dedicated-nodes-codes.ts";
import { Msg } from "#contract/messages.ts";
import { prnProjectMachine } from "#backend/domains/dedicated-nodes/machine.ts";
import {
  applyUpgrade,
  isProjectName,
  isProjectPassword,
  monthCents,
  type PriceBook,
  periodCents,
  remainingDays,
  upgradeDiffCents,
  upgradeValues,
} from "#backend/domains/dedicated-nodes/rules.ts";

// The pure rules of dedicated nodes (docs/decisions/047): SPEC §5 name and password, prices, prorating, upgrades.

const DAY = 86_400_000;
const base = { nodeCount: 2, hostConfig: "c2m4", dataCapacityGb: 20 };
const form = {
  name: "alpha",
  framework: "fisco",
  consensus: "pbft",
  cloud: "China Mobile Cloud",
  nodeId: "1",
  nodeCount: "2",
  hostConfig: "c2m4",
  dataCapacityGb: "20",
  cycle: "2",
  authUser: "admin",
  password: "abc123",
  confirmPassword: "abc123",
  idempotencyKey: "prn-unit-0123456789",
};
const fieldErrors = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((r.error?.issues ?? []).map((i) => [i.path.join("."), i.message]));

describe("§5 project name: lowercase letters, 3-20", () => {
  it.each([
    ["abc", true],
    ["a".repeat(20), true],
    ["ab", false],
    ["a".repeat(21), false],
    ["Abc", false],
    ["abc1", false],
    ["ab-c", false],
    ["", false],
  ])("%s → %s", (name, ok) => expect(isProjectName(name)).toBe(ok));
});

describe("§5 password: 6-20 letters and digits", () => {
  it.each([
    ["abc123", true],
    ["ABCdef", true],
    ["a1".repeat(10), true],
    ["abc12", false],
    ["a1".repeat(10) + "x", false],
    ["abc 123", false],
    ["abc12!", false],
  ])("%s → %s", (pw, ok) => expect(isProjectPassword(pw)).toBe(ok));
});

describe("the create form's schema", () => {
  it("accepts a complete form", () => expect(prnCreateSchema.safeParse(form).success).toBe(true));
  it("puts each refusal at its field", () => {
    expect(fieldErrors(prnCreateSchema.safeParse({ ...form, name: "Alpha1" }))).toEqual({
      name: "dedicatedNodeRules:validation.name",
    });
    expect(fieldErrors(prnCreateSchema.safeParse({ ...form, consensus: "cita-bft" }))).toEqual({
      consensus: "dedicatedNodeRules:validation.consensus",
    });
    expect(fieldErrors(prnCreateSchema.safeParse({ ...form, consensus: "" }))).toEqual({
      consensus: "validation.required",
    });
    expect(fieldErrors(prnCreateSchema.safeParse({ ...form, framework: "fabric" }))).toMatchObject({
      framework: "dedicatedNodeRules:validation.framework",
    });
    expect(fieldErrors(prnCreateSchema.safeParse({ ...form, nodeCount: "8" }))).toEqual({
      nodeCount: "dedicatedNodeRules:validation.nodeCount",
    });
    expect(fieldErrors(prnCreateSchema.safeParse({ ...form, nodeCount: "0" }))).toEqual({
      nodeCount: "dedicatedNodeRules:validation.nodeCount",
    });
    expect(fieldErrors(prnCreateSchema.safeParse({ ...form, hostConfig: "c1m1" }))).toEqual({
      hostConfig: "dedicatedNodeRules:validation.hostConfig",
    });
    expect(fieldErrors(prnCreateSchema.safeParse({ ...form, dataCapacityGb: "30" }))).toEqual({
      dataCapacityGb: "dedicatedNodeRules:validation.dataCapacity",
    });
    expect(fieldErrors(prnCreateSchema.safeParse({ ...form, password: "abc!23", confirmPassword: "abc!23" }))).toEqual({
      password: "dedicatedNodeRules:validation.password",
    });
    expect(fieldErrors(prnCreateSchema.safeParse({ ...form, confirmPassword: "abc124" }))).toEqual({
      confirmPassword: "dedicatedNodeRules:validation.confirmPassword",
    });
    expect(fieldErrors(prnCreateSchema.safeParse({ ...form, authUser: "1admin" }))).toEqual({
      authUser: "dedicatedNodeRules:validation.user",
    });
  });
  it("change password: the new passwords must match", () => {
    expect(
      prnPasswordSchema.safeParse({ prnProjectId: 1, password: "new123", confirmPassword: "new123" }).success,
    ).toBe(true);
    expect(
      fieldErrors(prnPasswordSchema.safeParse({ prnProjectId: 1, password: "new123", confirmPassword: "new124" })),
    ).toEqual({ confirmPassword: "dedicatedNodeRules:validation.confirmPassword" });
  });
  it("try it: params are a JSON array", () => {
    expect(
      prnTrySchema.safeParse({ prnProjectId: 1, method: "eth_getBalance", params: '["0x00", "latest"]', password: "x" })
        .success,
    ).toBe(true);
    expect(prnTrySchema.safeParse({ prnProjectId: 1, method: "eth_blockNumber", password: "x" }).success).toBe(true);
    expect(
      fieldErrors(prnTrySchema.safeParse({ prnProjectId: 1, method: "eth_blockNumber", params: "{}", password: "x" })),
    ).toEqual({ params: "dedicatedNodeRules:validation.params" });
    expect(fieldErrors(prnTrySchema.safeParse({ prnProjectId: 1, method: "eth block", password: "x" }))).toEqual({
      method: "dedicatedNodeRules:validation.method",
    });
  });
});

/** The prices the migration seeds (docs/decisions/073): the price tables' rows of a new database. */
const book: PriceBook = {
  hosts: [
    { code: "c2m4", cpu: 2, memoryGb: 4, peerPricePerMonthCents: 3000 },
    { code: "c4m8", cpu: 4, memoryGb: 8, peerPricePerMonthCents: 5500 },
    { code: "c8m16", cpu: 8, memoryGb: 16, peerPricePerMonthCents: 10000 },
  ],
  capacities: [
    { gb: 20, pricePerMonthCents: 400 },
    { gb: 50, pricePerMonthCents: 900 },
    { gb: 100, pricePerMonthCents: 1600 },
    { gb: 200, pricePerMonthCents: 3000 },
  ],
  basePricePerMonthCents: 2000,
};

describe("prices", () => {
  it("a month: the base, then per peer its host and data capacity", () => {
    expect(monthCents(base, book)).toBe(2000 + 2 * (3000 + 400));
    expect(monthCents({ nodeCount: 7, hostConfig: "c8m16", dataCapacityGb: 200 }, book)).toBe(
      2000 + 7 * (10000 + 3000),
    );
  });
  it("a year costs ten months", () => expect(periodCents(base, 1, book)).toBe(periodCents(base, 2, book)! * 10));
  it("unknown values have no price", () => {
    expect(monthCents({ ...base, hostConfig: "x" }, book)).toBeNull();
    expect(monthCents({ ...base, dataCapacityGb: 30 }, book)).toBeNull();
    expect(monthCents({ ...base, nodeCount: 8 }, book)).toBeNull();
  });
});

describe("upgrades", () => {
  const now = new Date("2026-11-26T00:00:00Z");
  it("the difference is prorated on the days left, rounded up, never negative", () => {
    const to = applyUpgrade(base, PrnUpdateType.NODE_COUNT, "3", book)!;
    const full = monthCents(to, book)! - monthCents(base, book)!;
    expect(upgradeDiffCents(base, to, 2, new Date(now.getTime() + 15 * DAY), now, book)).toEqual({
      fullPeriodDiffCents: full,
      priceDiffCents: Math.ceil(full / 2),
      remainingDays: 15,
      periodDays: 30,
    });
    expect(upgradeDiffCents(base, to, 2, new Date(now.getTime() + 30 * DAY), now, book)!.priceDiffCents).toBe(full);
    const smaller = applyUpgrade({ ...base, hostConfig: "c4m8" }, PrnUpdateType.HOST_CONFIG, "c2m4", book)!;
    expect(
      upgradeDiffCents({ ...base, hostConfig: "c4m8" }, smaller, 2, new Date(now.getTime() + 10 * DAY), now, book)!
        .priceDiffCents,
    ).toBe(0);
  });
  it("remaining days round up and stop at 0", () => {
    expect(remainingDays(new Date(now.getTime() + DAY / 2), now)).toBe(1);
    expect(remainingDays(new Date(now.getTime() - DAY), now)).toBe(0);
  });
  it("values: more peers only, another host, a capacity not below what is used", () => {
    expect(upgradeValues(base, PrnUpdateType.NODE_COUNT, 0, book)).toEqual(["3", "4", "5", "6", "7"]);
    expect(upgradeValues(base, PrnUpdateType.HOST_CONFIG, 0, book)).toEqual(["c4m8", "c8m16"]);
    expect(upgradeValues({ ...base, dataCapacityGb: 100 }, PrnUpdateType.DATA_CAPACITY, 30 * 1024 ** 3, book)).toEqual([
      "50",
      "200",
    ]);
    expect(applyUpgrade(base, PrnUpdateType.NODE_COUNT, "9", book)).toBeNull();
    expect(applyUpgrade(base, PrnUpdateType.NODE_COUNT, "2.5", book)).toBeNull();
    expect(applyUpgrade(base, PrnUpdateType.DATA_CAPACITY, "25", book)).toBeNull();
  });
});

describe("the project machine (SPEC §4)", () => {
  it("unsubscribe only while running; delete after unsubscribe or failure", () => {
    expect(prnProjectMachine.transition(PrnStatus.RUNNING, "unsubscribe", "user")).toEqual({
      ok: true,
      to: PrnStatus.UNSUBSCRIBED,
    });
    expect(prnProjectMachine.transition(PrnStatus.RUNNING, "delete", "user")).toEqual({
      ok: false,
      messageKey: Msg.PRN_NOT_ALLOWED_IN_STATUS,
    });
    expect(prnProjectMachine.transition(PrnStatus.DEPLOYING, "unsubscribe", "user")).toEqual({
      ok: false,
      messageKey: Msg.PRN_NOT_ALLOWED_IN_STATUS,
    });
    expect(prnProjectMachine.transition(PrnStatus.UNSUBSCRIBED, "delete", "user")).toEqual({
      ok: true,
      to: PrnStatus.DELETED,
    });
    expect(prnProjectMachine.transition(PrnStatus.FAILED, "delete", "user")).toEqual({
      ok: true,
      to: PrnStatus.DELETED,
    });
    expect(prnProjectMachine.transition(PrnStatus.DEPLOYING, "deployed", "user")).toEqual({
      ok: false,
      messageKey: Msg.NO_PERMISSION,
    });
  });
});
