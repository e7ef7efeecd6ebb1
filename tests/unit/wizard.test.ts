import "./setup-env.ts";
import { describe, expect, it } from "vitest";
import { computeCost, type PricedNode } from "#backend/domains/service-wizard/cost.ts";
import {
  allowedSteps,
  basicFormValue,
  basicInfoSchema,
  functionFormSchema,
  furthestOf,
  isStepAllowed,
  nextStep,
  nodesFormSchema,
  packageFormSchema,
  previousStep,
  stepsFor,
  WIZARD_STEPS,
  zipProblem,
  type AppState,
  type WizardStep,
} from "#contract/service-wizard.ts";
import { getFlash } from "#app/lib/session.server.ts";
import { unlessRefusedForBills } from "#app/lib/unpaid-guard.server.ts";
import type { VueapiFailure } from "#app/lib/vueapi.server.ts";

describe("the wizard's step graph is data", () => {
  const all = WIZARD_STEPS;
  it.each([
    ["add", all],
    ["update", all],
    ["mod2", all],
    ["mod", ["basic"]],
  ] as [AppState, readonly WizardStep[]][])("%s walks %j", (appState, steps) => {
    expect(stepsFor(appState)).toEqual(steps);
  });

  it.each([
    ["add", "basic", "packages", null],
    ["add", "packages", "functions", "basic"],
    ["add", "roles", "nodes", "functions"],
    ["add", "cost", null, "certificate"],
    ["update", "certificate", "cost", "nodes"],
    ["mod2", "nodes", "certificate", "roles"],
    ["mod", "basic", null, null],
    ["mod", "packages", null, null],
  ] as [AppState, WizardStep, WizardStep | null, WizardStep | null][])(
    "%s: after %s comes %s, before it %s",
    (appState, step, next, prev) => {
      expect(nextStep(appState, step)).toBe(next);
      expect(previousStep(appState, step)).toBe(prev);
    },
  );

  it.each([
    ["add", null, ["basic"]],
    ["add", "packages", ["basic", "packages"]],
    ["add", "cost", all],
    ["update", "roles", ["basic", "packages", "functions", "roles"]],
    ["mod", "cost", ["basic"]],
    ["mod", null, ["basic"]],
  ] as [AppState, WizardStep | null, WizardStep[]][])(
    "%s with furthest %s allows %j",
    (appState, furthest, allowed) => {
      expect(allowedSteps(appState, furthest)).toEqual(allowed);
      for (const s of all) expect(isStepAllowed(appState, furthest, s)).toBe(allowed.includes(s));
    },
  );

  it("keeps the furthest step", () => {
    expect(furthestOf("roles", "packages")).toBe("roles");
    expect(furthestOf("basic", "cost")).toBe("cost");
  });
});

describe("the cost of one payment cycle (computed by the backend)", () => {
  const bj: PricedNode = {
    id: 1,
    name: "Beijing",
    nameZh: "北京",
    tpsPricePerMonthCents: 150,
    tpsPricePerYearCents: 1500,
    capacityPricePerGbMonthCents: 20,
  };
  const sg: PricedNode = {
    id: 6,
    name: "Singapore",
    nameZh: "新加坡",
    tpsPricePerMonthCents: 190,
    tpsPricePerYearCents: 1900,
    capacityPricePerGbMonthCents: 26,
  };
  const catalogue = new Map([
    [1, bj],
    [6, sg],
  ]);
  const nodes = [
    { cityNodeId: 1, tps: 100, capacityGb: 50, peers: 3 },
    { cityNodeId: 6, tps: 20, capacityGb: 10, peers: 1 },
  ];

  it.each([
    // monthly: tps × month price + GB × GB-month price × 1
    [2, [100 * 150 + 50 * 20, 20 * 190 + 10 * 26]],
    // yearly: tps × year price + GB × GB-month price × 12
    [1, [100 * 1500 + 50 * 20 * 12, 20 * 1900 + 10 * 26 * 12]],
  ] as [1 | 2, number[]][])("cycle %s", (cycle, totals) => {
    const cost = computeCost(nodes, catalogue, cycle, false);
    expect(cost.lines.map((l) => l.totalCents)).toEqual(totals);
    expect(cost.totalCents).toBe(totals[0] + totals[1]);
    expect(cost.lines.every((l) => Number.isInteger(l.tpsCents) && Number.isInteger(l.capacityCents))).toBe(true);
  });

  it("peers carry no price of their own; unknown nodes are left out; a free service still shows its cost", () => {
    const a = computeCost([{ cityNodeId: 1, tps: 1, capacityGb: 1, peers: 1 }], catalogue, 2, false);
    const b = computeCost([{ cityNodeId: 1, tps: 1, capacityGb: 1, peers: 3 }], catalogue, 2, true);
    expect(a.totalCents).toBe(b.totalCents);
    expect(b.free).toBe(true);
    expect(computeCost([{ cityNodeId: 99, tps: 1, capacityGb: 1, peers: 1 }], catalogue, 2, false)).toMatchObject({
      lines: [],
      totalCents: 0,
    });
  });
});

describe("step schemas (§5)", () => {
  it("chaincode package names, versions and zip files", () => {
    const ok = { name: "_asset1", version: "1.0.1", language: "go", mainPath: "main.go" };
    expect(packageFormSchema.safeParse(ok).success).toBe(true);
    for (const name of ["abc", "1abcd", "a-bcd", "abcdefghijklmnopq"])
      expect(packageFormSchema.safeParse({ ...ok, name }).success, name).toBe(false);
    for (const version of ["1.0", "v1.0.0", "1.0.0.1", "01.0.0"])
      expect(packageFormSchema.safeParse({ ...ok, version }).success, version).toBe(false);
    expect(zipProblem({ name: "a b.zip", size: 10 })).toBe("wizard:validation.file.spaces");
    expect(zipProblem({ name: "a.rar", size: 10 })).toBe("wizard:validation.file.zipOnly");
    expect(zipProblem({ name: "a.zip", size: 60 * 1024 * 1024 + 1 })).toBe("wizard:validation.file.zipTooLarge");
    expect(zipProblem({ name: "a.ZIP", size: 10 })).toBeNull();
  });

  it("FUNC has no Chinese, spaces or symbols", () => {
    const ok = {
      name: "n",
      packageId: "1",
      funcType: "1",
      func: "do_it2",
      parentId: "top",
      inputFormat: "i",
      outputFormat: "o",
    };
    expect(functionFormSchema.safeParse(ok).success).toBe(true);
    for (const func of ["做", "do it", "do-it", "do.it"])
      expect(functionFormSchema.safeParse({ ...ok, func }).success, func).toBe(false);
  });

  it("nodes: at least one, whole numbers, at most 3 bookkeeping nodes each", () => {
    const row = { cityNodeId: "1", selected: "on", tps: "10", capacityGb: "5", peers: "3" };
    expect(nodesFormSchema.safeParse({ nodes: [row] }).success).toBe(true);
    expect(nodesFormSchema.safeParse({ nodes: [{ ...row, selected: undefined }] }).success).toBe(false);
    expect(nodesFormSchema.safeParse({ nodes: [{ ...row, peers: "4" }] }).error?.issues[0].message).toBe(
      "wizard:validation.peersMax",
    );
    expect(nodesFormSchema.safeParse({ nodes: [{ ...row, tps: "1.5" }] }).success).toBe(false);
  });

  it("basic information: the second interchain protocol needs an APPCode", () => {
    const base = {
      name: "S",
      industry: "finance",
      description: "d",
      introduction: "i",
      version: "1.0.0",
      framework: "fabric",
      platformType: "web",
      contactName: "c",
      contactMobile: "+8613912345678",
      contactEmail: "a@b.co",
      webUrl: "https://a.b",
      paymentCycle: "1",
    };
    expect(basicInfoSchema.safeParse(base).success).toBe(true);
    expect(basicInfoSchema.safeParse({ ...base, crossChain: "on", crossProtocol: "1" }).success).toBe(true);
    expect(basicInfoSchema.safeParse({ ...base, crossChain: "on", crossProtocol: "2" }).success).toBe(false);
    expect(basicInfoSchema.safeParse({ ...base, webUrl: undefined }).success).toBe(false);
  });
});

describe("basicFormValue: saved basic information as the step-1 form posts it", () => {
  const saved = {
    name: "Trade",
    industry: "finance",
    description: "d",
    introduction: "i",
    version: "1.0.0",
    framework: "fabric",
    platformType: "web",
    contactName: "Li",
    contactMobile: "+8613912345678",
    contactEmail: "li@example.com",
    webUrl: "",
    android: "app://x",
    ios: "",
    officialAccount: "",
    miniProgram: "",
    apiInstructions: "",
    crossChain: true,
    crossProtocol: "2",
    crossAppCode: "APP-1",
    isPublic: false,
    paymentCycle: "1",
    freeService: true,
  };

  it('ticks boxes with "on", leaves out what is empty or unticked, and parses with the step-1 schema', () => {
    const value = basicFormValue(saved);
    expect(value).toMatchObject({
      android: "app://x",
      crossChain: "on",
      crossProtocol: "2",
      freeService: "on",
      paymentCycle: "1",
    });
    for (const key of ["webUrl", "ios", "isPublic", "apiInstructions"]) expect(value).not.toHaveProperty(key);
    expect(basicInfoSchema.safeParse(value).success).toBe(true);
  });

  it("a saved service lacking what the rules now require fails the same parse (submission re-checks it)", () => {
    const parsed = basicInfoSchema.safeParse(basicFormValue({ ...saved, android: "", crossProtocol: "" }));
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => i.path.join("."))).toEqual(["webUrl", "crossProtocol"]);
  });
});

describe("unlessRefusedForBills: the backend's own §5 refusal leaves the wizard like the guard", () => {
  const request = () =>
    new Request(
      "http://portal.test/g/home/PermissionedServices/PublishedServices/NewServices?appState=add&appId=7&step=basic",
    );
  const failure = (messageKey: string): VueapiFailure => ({
    ok: false,
    messageKey,
    fieldErrors: {},
    silent: false,
    code: 1,
    status: 200,
  });

  it("MSG_30005 redirects to /g/home/index with the unpaid-bills flash", async () => {
    const thrown = await unlessRefusedForBills(request(), failure("errors:MSG_30005"), "newService").catch(
      (e: unknown) => e,
    );
    expect(thrown).toBeInstanceOf(Response);
    const res = thrown as Response;
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(
      `/g/home/index?blocked=newService&returnTo=${encodeURIComponent("/g/home/PermissionedServices/PublishedServices/NewServices?appState=add&appId=7&step=basic")}`,
    );
    const cookie = res.headers
      .getSetCookie()
      .find((c) => c.startsWith("__flash="))!
      .split(";")[0];
    expect((await getFlash(new Request("http://portal.test/", { headers: { Cookie: cookie } }))).flash).toEqual({
      kind: "error",
      key: "errors:MSG_30005",
    });
  });

  it("hands back any other result as it is", async () => {
    const other = failure("errors:MSG_37001");
    expect(await unlessRefusedForBills(request(), other, "newService")).toBe(other);
    const ok = { ok: true as const, data: { appId: 7 } };
    expect(await unlessRefusedForBills(request(), ok, "newService")).toBe(ok);
  });
});
