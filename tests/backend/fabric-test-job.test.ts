import { eq, like } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { fabricBlocks, fabricChaincodes } from "#backend/domains/fabric/tables.ts";
import { chaincodePackages } from "#backend/domains/services/tables.ts";
import { callVueapi, inProcessVueapi, loginToken, registeredUser } from "./in-process.ts";
import { contractPackage, zipOf } from "./fabric-support.ts";

// docs/decisions/069: the test job of a Fabric service checks its Node.js package and runs it (Init with its init
// parameters) on a throwaway channel of the embedded peer, dropped after; a Fabric service has one Node.js package.
const service = inProcessVueapi("fabrictestjob", { TEST_CAPTCHA: "FTJ1", TEST_FIXTURES: "1", JOBS_INTERVAL_MS: "0" });

/** The FUNCs the fixture declares (backend/domains/services/build.ts), so that the zip inspection passes. */
const FUNCS = ["CreateAsset", "ReadAsset", "TransferAsset", "RecordAudit", "QueryAudit"]
  .map((f) => `  async ${f}(ctx) {}`)
  .join("\n");

async function publisher() {
  const { userName, password } = await registeredUser(service, "ftj");
  return loginToken(service, userName, password);
}

/** A Fabric service waiting for its test (10) whose one Node.js package is replaced by `zip` before the job runs. */
async function testedWith(zip: Uint8Array | null, extraPackage = false) {
  const token = await publisher();
  const made = await callVueapi(service, "/test/services", { verState: 10, framework: "fabric" }, token);
  expect(made.code, JSON.stringify(made)).toBe(0);
  const { appId, appVerId } = made.data as { appId: number; appVerId: number };
  const { db, files, now } = service.services;
  const [pkg] = await db.select().from(chaincodePackages).where(eq(chaincodePackages.verId, appVerId));
  if (zip) {
    const file = await files.put(db, {
      name: "cc.zip",
      mime: "application/zip",
      bytes: Buffer.from(zip),
      createdAt: now(),
    });
    await db
      .update(chaincodePackages)
      .set({ fileId: file.id, mainPath: "index.js" })
      .where(eq(chaincodePackages.id, pkg!.id));
  }
  if (extraPackage) {
    const { id: _id, ...copy } = pkg!;
    await db.insert(chaincodePackages).values({ ...copy, name: "second_cc" });
  }
  await service.runJobs();
  const detail = await callVueapi(service, "/sys/chainAppInfo/publishedDetail", { appId, appVerId }, token);
  return detail.data as {
    verState: number;
    contents: { testReport: { passed: boolean; reasons: any[]; suggestion: any } };
  };
}

async function trialChannelsLeft() {
  const { db } = service.services;
  const blocks = await db.select().from(fabricBlocks).where(like(fabricBlocks.channel, "trial-%"));
  const chaincodes = await db.select().from(fabricChaincodes).where(like(fabricChaincodes.channel, "trial-%"));
  return blocks.length + chaincodes.length;
}

describe("the test job runs a Fabric service's Node.js chaincode on a throwaway channel", () => {
  it("passes a good package and leaves no channel behind", { timeout: 120_000 }, async () => {
    const d = await testedWith(null);
    expect(d.contents.testReport).toMatchObject({ passed: true, reasons: [] });
    expect(d.verState).toBe(15);
    expect(await trialChannelsLeft()).toBe(0);
  });

  it("refuses a declared dependency other than fabric-shim / fabric-contract-api, naming it", async () => {
    const zip = contractPackage("deps", FUNCS, { "fabric-contract-api": "^2.5.0", lodash: "^4.17.21" });
    const d = await testedWith(zip);
    expect(d.verState).toBe(11);
    const reason = d.contents.testReport.reasons.find((r) => r.key === "report.chaincodeRefused");
    expect(reason?.params.problems).toContain("lodash");
    expect(d.contents.testReport.suggestion.key).toBe("report.suggest.chaincode");
    expect(await trialChannelsLeft()).toBe(0);
  });

  it("fails the test when Init fails, with the chaincode's message", { timeout: 120_000 }, async () => {
    const zip = zipOf({
      "package.json": JSON.stringify({
        name: "bad-init",
        version: "1.0.0",
        main: "index.js",
        dependencies: { "fabric-contract-api": "2.5.8" },
      }),
      "index.js": `'use strict';
const { Contract } = require('fabric-contract-api');
class C extends Contract {
  async init(ctx, value) { throw new Error('init refuses ' + value); }
${FUNCS}
}
module.exports.contracts = [C];
`,
    });
    const d = await testedWith(zip);
    expect(d.verState).toBe(11);
    const reason = d.contents.testReport.reasons.find((r) => r.key === "report.chaincodeInitFailed");
    expect(reason?.params.message).toContain("init refuses 1");
    expect(await trialChannelsLeft()).toBe(0);
  });

  it("fails a Fabric service with more than one Node.js package", async () => {
    const d = await testedWith(null, true);
    expect(d.verState).toBe(11);
    const reason = d.contents.testReport.reasons.find((r) => r.key === "report.oneChaincode");
    expect(reason?.params.packages).toContain("second_cc");
    expect(d.contents.testReport.suggestion.key).toBe("report.suggest.oneChaincode");
  });
});
