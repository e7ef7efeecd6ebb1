import { strToU8, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import {
  inspectPackage,
  normaliseLanguage,
  readReport,
  storeReport,
  suggestionFor,
} from "#backend/domains/services/inspect.ts";
import { sampleChaincode } from "#backend/domains/services/samples.ts";
import { shownActions } from "#app/lib/services-rules.ts";

const pkg = { name: "asset_cc", language: "node", mainPath: "lib/chaincode.js", funcs: ["CreateAsset", "ReadAsset"] };

describe("the test job's package checks", () => {
  it("passes a good package", () => {
    expect(inspectPackage(sampleChaincode("asset_cc", pkg.funcs), pkg)).toEqual([]);
  });
  it("names each problem", () => {
    const keys = (kind: Parameters<typeof sampleChaincode>[2]) =>
      inspectPackage(sampleChaincode("asset_cc", pkg.funcs, kind), pkg).map((f) => f.key);
    expect(keys("zip")).toEqual(["report.zipInvalid"]);
    expect(keys("mainPath")).toEqual(["report.mainPathMissing"]);
    expect(keys("language")).toContain("report.languageMismatch");
    expect(keys("func")).toEqual(["report.funcMissing"]);
    expect(keys("size")).toEqual(["report.zipTooLarge"]);
  });
  it("accepts a main folder, node sources for node, and a FUNC only as a whole word", () => {
    const zip = zipSync({ "src/index.ts": strToU8("export function CreateAssetX() {}\nconst ReadAsset = 1;") });
    const findings = inspectPackage(zip, {
      name: "n",
      language: "Node.js",
      mainPath: "./src/",
      funcs: ["CreateAsset", "ReadAsset"],
    });
    expect(findings).toEqual([{ key: "report.funcMissing", params: { package: "n", funcs: "CreateAsset" } }]);
    expect(normaliseLanguage("Golang")).toBe("go");
  });
  it("stores reports as JSON reasons and reads them back; plain text is kept", () => {
    const findings = [{ key: "report.mainPathMissing", params: { package: "a", path: "m" } }];
    const report = readReport(storeReport(findings, suggestionFor(findings)));
    expect(report).toEqual({
      passed: false,
      reasons: findings,
      suggestion: { key: "report.suggest.mainPath", params: {} },
    });
    expect(readReport({ passed: false, reasons: ["disk full"] })?.reasons[0]).toEqual({
      key: "report.text",
      params: { text: "disk full" },
    });
  });
});

describe("the actions PublishedServices shows (SPEC §4)", () => {
  const row = {
    verState: 25,
    billState: 15,
    verUpable: true,
    crossStatus: 0,
    freeYN: 0,
    refundPending: false,
    enableRequestedAt: null,
    unpaidBillId: null,
  };
  it("running and paid: details, basic edit, join, upgrade, config upgrade, invite, unsubscribe, deactivate", () => {
    expect(shownActions(row)).toEqual([
      "details",
      "basicEdit",
      "join",
      "serviceUpgrade",
      "configUpgrade",
      "invite",
      "unsubscribe",
      "deactivate",
    ]);
    // Paid or free, a running or lapsed service is resized (docs/decisions/060).
    expect(shownActions({ ...row, freeYN: 1 })).toContain("configUpgrade");
    expect(shownActions({ ...row, verState: 40, freeYN: 1 })).toEqual(["details", "configUpgrade", "enable"]);
    expect(shownActions({ ...row, verState: 40 })).toEqual(["details", "configUpgrade", "enable"]);
  });
  it("running with an unpaid renewal bill: Pay (docs/decisions/036)", () => {
    expect(shownActions({ ...row, unpaidBillId: 7 })).toContain("pay");
    expect(shownActions({ ...row, verState: 30, unpaidBillId: 7 })).not.toContain("pay");
  });
  it("to be paid: details and pay; 22/26: edit; 30: enable; an unsubscription under review hides unsubscribe", () => {
    expect(shownActions({ ...row, verState: 23, billState: 1 })).toEqual(["details", "pay"]);
    expect(shownActions({ ...row, verState: 26, billState: 15 })).toEqual(["details", "edit"]);
    expect(shownActions({ ...row, verState: 30 })).toEqual(["details", "enable"]);
    expect(shownActions({ ...row, refundPending: true })).not.toContain("unsubscribe");
    expect(shownActions({ ...row, crossStatus: 3 })).not.toContain("serviceUpgrade");
  });
  it("40: enable (a request to operations) until a request is pending (docs/decisions/015)", () => {
    expect(shownActions({ ...row, verState: 40 })).toEqual(["details", "configUpgrade", "enable"]);
    expect(shownActions({ ...row, verState: 40, enableRequestedAt: "2026-07-01T00:00:00.000Z" })).toEqual([
      "details",
      "configUpgrade",
    ]);
  });
});
