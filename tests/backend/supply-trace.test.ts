import { createPrivateKey } from "node:crypto";
import * as grpc from "@grpc/grpc-js";
import { connect, hash, signers } from "@hyperledger/fabric-gateway";
import { strFromU8, unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { cityNodes } from "#backend/db/tables.ts";
import { tinyPng } from "../fixtures/files.ts";
import {
  callVueapi,
  downloadedBytes,
  inProcessVueapi,
  insertedUser,
  ownDatabase,
  sessionOf,
  uploadVueapi,
} from "./in-process.ts";
import { uniqueName } from "./client.ts";
import { wizardBasic } from "./wizard-basic.ts";
import { okVia } from "../support/envelope.ts";

// Issue 28 item 9: the market's Node.js sample supply_trace the whole way, through the product's own paths only:
// "Use in a new service" from the market, the wizard, the initial review, the test job, the final review, the
// payment, the deploy job on the embedded Fabric peer; a participant joins, is approved, downloads its access kit
// and invokes the chaincode through the official @hyperledger/fabric-gateway client with the key it downloaded.

const service = inProcessVueapi("supply-trace", {
  TEST_FIXTURES: "1",
  DEMO: "0",
  JOBS_INTERVAL_MS: "0",
  DATABASE_URL: await ownDatabase(process.env.DATABASE_URL),
  PAYMENT_WEBHOOK_SECRET: "backend-test-webhook-secret",
});
const ok = okVia((p: string, body: object, as?: string) => callVueapi(service, p, body, as));

describe("supply_trace from the market to a participant's gateway calls", () => {
  it("is published, tested, approved, paid, deployed, joined and invoked", { timeout: 240_000 }, async () => {
    const pub = await sessionOf(service, await insertedUser(service, uniqueName("stpub")));
    const who = await sessionOf(service, await insertedUser(service, uniqueName("stpar")));
    const operator = await sessionOf(service, await insertedUser(service, uniqueName("stops"), "operator"));
    const { page: market } = await ok("/sys/market/list", { language: "node" }, pub);
    const sample = market.rows.find((r: any) => r.name === "supply_trace");
    expect(sample).toBeDefined();
    const { appId } = await ok(
      "/sys/chainAppInfo/wizard/saveBasic",
      {
        appState: "add",
        basic: { ...wizardBasic(uniqueName("Trace")), framework: "fabric" },
        cover: (await uploadVueapi(service, "cover", "c.png", tinyPng(), pub)).data,
        marketPackageId: sample.marketPackageId,
      },
      pub,
    );
    const ref = { appState: "add", appId };
    const { draft } = await ok("/sys/chainAppInfo/wizard/draft", ref, pub);
    expect(draft.packages.map((p: any) => p.name)).toEqual(["supply_trace"]);
    expect(draft.functions.map((f: any) => f.func)).toEqual(["registerProduct", "addStep", "traceProduct"]);
    await ok("/sys/chainAppInfo/wizard/advance", { ...ref, from: "packages" }, pub);
    await ok("/sys/chainAppInfo/wizard/advance", { ...ref, from: "functions" }, pub);
    await ok(
      "/sys/chainAppInfo/wizard/addRole",
      {
        ...ref,
        role: {
          name: "Carrier",
          description: "Registers products and hands them over",
          functionIds: draft.functions.map((f: any) => String(f.functionId ?? f.id)),
        },
      },
      pub,
    );
    await ok("/sys/chainAppInfo/wizard/advance", { ...ref, from: "roles" }, pub);
    const [node] = await service.services.db.select().from(cityNodes).limit(1);
    await ok(
      "/sys/chainAppInfo/wizard/saveNodes",
      {
        ...ref,
        form: { nodes: [{ cityNodeId: String(node!.id), selected: "on", tps: "100", capacityGb: "10", peers: "1" }] },
      },
      pub,
    );
    await ok("/sys/chainAppInfo/wizard/saveCertificate", { ...ref, form: { certificateMode: "1" } }, pub);
    const { verId: appVerId } = await ok("/sys/chainAppInfo/wizard/submit", { ...ref, form: { agreement: "on" } }, pub);

    // Initial review, then the test job: supply_trace passes it as shipped.
    await ok("/sys/ops/serviceReviews/decide", { appVerId, decision: "approve" }, operator);
    await service.runJobs();
    const tested = await ok("/sys/chainAppInfo/publishedDetail", { appId }, pub);
    expect(tested.contents.testReport, JSON.stringify(tested.contents.testReport)).toMatchObject({
      passed: true,
      reasons: [],
    });
    expect(tested.verState).toBe(15);
    // Final review, the bill paid, the deploy job: running on the embedded peer.
    expect((await ok("/sys/ops/serviceReviews/decide", { appVerId, decision: "approve" }, operator)).verState).toBe(23);
    await ok("/test/fixtures", { grantCents: 1_000_000 }, pub);
    await ok("/sys/chainAppInfo/payPublishBill", { appVerId, idempotencyKey: `st-${Date.now()}` }, pub);
    await service.runJobs();
    await service.runJobs();
    const running = await ok("/sys/chainAppInfo/publishedDetail", { appId }, pub);
    expect(running.verState, JSON.stringify(running.contents.deployReport)).toBe(25);
    expect(running.deployment[0]).toMatchObject({ status: "running" });

    // A participant joins by the invitation, certificate mode 1, and is approved.
    const link = await ok("/sys/chainAppInfo/invite", { appVerId, language: "en" }, pub);
    const invite = new URL(`http://x${link.path}`).searchParams;
    const info = await ok(
      "/sys/chainAppInfo/applyJoinApp",
      { appId, token: invite.get("c"), expiry: invite.get("d"), language: invite.get("e") },
      who,
    );
    const page = { pageSize: 50, pageIndex: 1, condition: { appId, ticket: info.ticket } };
    const roles = await ok("/sys/chainAppInfo/queryRolesForAppList", { page }, who);
    const cities = await ok("/sys/chainAppInfo/queryReleaseCitysForAppList", { page }, who);
    const joined = await ok(
      "/sys/chainAppInfo/joinApp",
      {
        appId,
        ticket: info.ticket,
        roleId: roles.page.rows[0].roleId,
        cityNodeIds: [cities.page.rows.find((c: any) => c.released).cityNodeId],
        certificateMode: 1,
      },
      who,
    );
    await ok("/sys/chainAppInfo/auditAppJoined", { appJoinAuditId: joined.appJoinAuditId, auditState: 1 }, pub);
    await ok(
      "/sys/ops/participations/decide",
      { appJoinAuditId: joined.appJoinAuditId, decision: "approve" },
      operator,
    );
    await service.runJobs();
    const keyPem = (
      await ok("/sys/chainAppInfo/certificateFile", { certificateId: joined.certificateId, kind: "key" }, who)
    ).pem;

    // The access kit names the gateway, its TLS CA, the channel and the chaincode; the official client does the rest.
    const zip = unzipSync(
      new Uint8Array(
        await downloadedBytes(service, "participant-access-kit", { appJoinAuditId: joined.appJoinAuditId }, who),
      ),
    );
    const file = (name: string) => strFromU8(Object.entries(zip).find(([n]) => n.endsWith(`/${name}`))![1]);
    const kit = JSON.parse(file("kit.json"));
    expect(kit.functions.map((f: any) => [f.name, f.call])).toEqual([
      ["registerProduct", "submit"],
      ["addStep", "submit"],
      ["traceProduct", "evaluate"],
    ]);
    const client = new grpc.Client(
      new URL(kit.gateway).host,
      grpc.credentials.createSsl(Buffer.from(file("tls-ca.pem"))),
    );
    const gateway = connect({
      client,
      identity: { mspId: kit.mspId, credentials: Buffer.from(file("certificate.pem")) },
      signer: signers.newPrivateKeySigner(createPrivateKey(keyPem)),
      hash: hash.sha256,
    });
    try {
      const contract = gateway.getNetwork(kit.channel).getContract(kit.chaincode);
      const text = (b: Uint8Array) => JSON.parse(Buffer.from(b).toString());
      expect(text(await contract.submitTransaction("registerProduct", "P-1", "Tea", "Hangzhou Tea Co"))).toMatchObject({
        productId: "P-1",
        steps: [{ holder: "Hangzhou Tea Co", place: "factory" }],
      });
      await contract.submitTransaction("addStep", "P-1", "Shanghai Logistics", "Shanghai port");
      const traced = text(await contract.evaluateTransaction("traceProduct", "P-1"));
      expect(traced.steps.map((s: any) => [s.holder, s.place])).toEqual([
        ["Hangzhou Tea Co", "factory"],
        ["Shanghai Logistics", "Shanghai port"],
      ]);
      // The chaincode's own refusal comes back as the chaincode's message.
      const again = await contract.submitTransaction("registerProduct", "P-1", "Tea", "x").then(
        () => "",
        (e: { details?: { message: string }[]; message: string }) =>
          [e.message, ...(e.details ?? []).map((d) => d.message)].join(" "),
      );
      expect(again).toContain("product P-1 exists already");
    } finally {
      gateway.close();
      client.close();
    }
  });
});
