import { createPrivateKey, createPublicKey, X509Certificate } from "node:crypto";
import { zipSync, strToU8 } from "fflate";
import { createPublicClient, http, type Abi } from "viem";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { Msg } from "#contract/messages.ts";
import { TestServiceStatus } from "#contract/test-services-codes.ts";
import { activeUser, call, upload } from "./client.ts";
import { operator } from "./security/world.ts";
import { waitFor } from "../support/wait.ts";
import { BROKEN_SOURCE, GREETER_SOURCE } from "./fixtures/greeter-contract.ts";
import { okVia } from "../support/envelope.ts";
import { contractPackage } from "./fabric-support.ts";

// docs/decisions/034: test services compiled and deployed for real on the test network, their access URL used
// with viem, a compiler's refusal shown with its suggestion, and an operator's reset of the network.

const base = () => inject("baseUrl");

const ok = okVia((p: string, body: unknown, token: string) => call(p, body, token));

const settled = (token: string, id: number) =>
  waitFor(
    "deployment",
    () => ok("/sys/testService/detail", { testServiceId: id }, token),
    (d: any) => d.status !== TestServiceStatus.DEPLOYING,
    90_000,
  );

const greeting = (accessUrl: string, address: string, abi: Abi) =>
  createPublicClient({ transport: http(accessUrl) }).readContract({
    address: address as `0x${string}`,
    abi,
    functionName: "greeting",
  });

describe("test services", () => {
  let token: string;
  beforeAll(async () => {
    token = (await activeUser("ts")).token;
  });

  it(
    "deploys a Solidity source for real: its access parameters and a working call with viem; an operator's reset asks for a re-deploy",
    { timeout: 240_000 },
    async () => {
      const fields = {
        name: "Greeter test",
        version: "1.0.0",
        platform: "evm",
        sourceKind: "source",
        source: GREETER_SOURCE,
        mainContract: "",
        initParams: "hello, 7",
      };
      const created = await ok("/sys/testService/create", fields, token);
      expect(created).toMatchObject({
        status: TestServiceStatus.NOT_DEPLOYED,
        contractAddress: null,
        accessPath: null,
      });
      expect(created.certificatePem).toContain("BEGIN CERTIFICATE");
      expect((await call("/sys/testService/create", fields, token)).message).toBe(Msg.TEST_SERVICE_NAME_TAKEN);
      // Another user sees nothing of it.
      const other = (await activeUser("tso")).token;
      expect((await call("/sys/testService/detail", { testServiceId: created.testServiceId }, other)).message).toBe(
        Msg.NOT_FOUND,
      );
      // The test identity's private key: to its owner, the key of the certificate's public key; to nobody else.
      const key = await ok<{ fileName: string; pem: string }>(
        "/sys/testService/identityKey",
        { testServiceId: created.testServiceId },
        token,
      );
      expect(key.fileName).toBe(`${created.appCode}-1.0.0-identity-key.pem`);
      const certificateKey = new X509Certificate(created.certificatePem).publicKey.export({
        type: "spki",
        format: "der",
      });
      expect(
        createPublicKey(createPrivateKey(key.pem)).export({ type: "spki", format: "der" }).equals(certificateKey),
      ).toBe(true);
      expect(
        (await call("/sys/testService/identityKey", { testServiceId: created.testServiceId }, other)).message,
      ).toBe(Msg.NOT_FOUND);

      expect((await ok("/sys/testService/deploy", { testServiceId: created.testServiceId }, token)).status).toBe(
        TestServiceStatus.DEPLOYING,
      );
      expect(
        (await call("/sys/testService/edit", { ...fields, testServiceId: created.testServiceId }, token)).message,
      ).toBe(Msg.TEST_SERVICE_ACTION_NOT_AVAILABLE);
      const deployed = await settled(token, created.testServiceId);
      expect(deployed, JSON.stringify(deployed)).toMatchObject({
        status: TestServiceStatus.DEPLOYED,
        contractName: "Greeter",
        deploymentName: "Greeter-test-v1.0.0",
        appCode: created.appCode,
      });
      expect(deployed.contractAddress).toMatch(/^0x[0-9a-fA-F]{40}$/);
      expect(deployed.chaincodeAddress).toMatch(/^0x[0-9a-fA-F]{40}$/);
      expect(deployed.accessPath).toMatch(/^\/chain\/test\/[A-Za-z0-9_-]{43}$/);
      const url = `${base()}${deployed.accessPath}`;
      expect(await greeting(url, deployed.contractAddress, deployed.abi)).toBe("hello");
      const client = createPublicClient({ transport: http(url) });
      expect(await client.getChainId()).toBe(deployed.chainId);
      expect(
        await client.readContract({ address: deployed.contractAddress, abi: deployed.abi, functionName: "count" }),
      ).toBe(7n);
      expect((await fetch(`${base()}/chain/test/${"x".repeat(43)}`, { method: "POST", body: "{}" })).status).toBe(401);

      // Upgrade: a new version deployed as a new contract.
      const upgraded = await ok(
        "/sys/testService/upgrade",
        { ...fields, version: "1.0.1", initParams: "bonjour, 1", testServiceId: created.testServiceId },
        token,
      );
      expect(upgraded.status).toBe(TestServiceStatus.DEPLOYING);
      const second = await settled(token, created.testServiceId);
      expect(second.status).toBe(TestServiceStatus.DEPLOYED);
      expect(second.contractAddress).not.toBe(deployed.contractAddress);
      expect(await greeting(url, second.contractAddress, second.abi)).toBe("bonjour");

      // The operator resets the network: the service must be re-deployed, its access URL refuses meanwhile.
      const ops = await operator();
      expect(
        (await call("/sys/ops/testNetwork/reset", { confirmName: "wrong" }, ops)).data.fieldErrors.confirmName,
      ).toEqual(["validation.nameMismatch"]);
      const before = await ok("/sys/ops/testNetwork/status", {}, ops);
      const after = await ok("/sys/ops/testNetwork/reset", { confirmName: "test-network" }, ops);
      expect(after.generation).toBe(before.generation + 1);
      expect(after.chainId).not.toBe(before.chainId);
      expect(after.height).toBe(0);
      const reset = await ok("/sys/testService/detail", { testServiceId: created.testServiceId }, token);
      expect(reset).toMatchObject({ status: TestServiceStatus.TO_REDEPLOY, contractAddress: null, accessPath: null });
      expect(
        (
          await fetch(url, {
            method: "POST",
            headers: { "Content-Type": "application/json" },
            body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId" }),
          })
        ).status,
      ).toBe(403);
      await ok("/sys/testService/redeploy", { testServiceId: created.testServiceId }, token);
      const again = await settled(token, created.testServiceId);
      expect(again).toMatchObject({ status: TestServiceStatus.DEPLOYED, chainId: after.chainId });
      expect(await greeting(url, again.contractAddress, again.abi)).toBe("bonjour");

      await ok("/sys/testService/delete", { testServiceId: created.testServiceId }, token);
      expect((await call("/sys/testService/detail", { testServiceId: created.testServiceId }, token)).message).toBe(
        Msg.NOT_FOUND,
      );
    },
  );

  it(
    "a source the compiler refuses ends in 15 with the compiler's reason and a suggestion; fixed, it deploys",
    { timeout: 180_000 },
    async () => {
      const fields = {
        name: "Broken",
        version: "0.1.0",
        platform: "fisco",
        sourceKind: "source",
        source: BROKEN_SOURCE,
        mainContract: "",
        initParams: "",
      };
      const created = await ok("/sys/testService/create", fields, token);
      await ok("/sys/testService/deploy", { testServiceId: created.testServiceId }, token);
      const failed = await settled(token, created.testServiceId);
      expect(failed).toMatchObject({ status: TestServiceStatus.FAILED, suggestion: "compile", contractAddress: null });
      expect(failed.failReason).toMatch(/ParserError/);
      const fixed = BROKEN_SOURCE.replace("uint256 public value\n", "uint256 public value;\n");
      await ok("/sys/testService/edit", { ...fields, source: fixed, testServiceId: created.testServiceId }, token);
      await ok("/sys/testService/redeploy", { testServiceId: created.testServiceId }, token);
      expect((await settled(token, created.testServiceId)).status).toBe(TestServiceStatus.DEPLOYED);
    },
  );

  it(
    "deploys the contracts of a chaincode package (a zip of .sol files); wrong init params fail with their reason",
    { timeout: 180_000 },
    async () => {
      const zip = zipSync({
        "greeter/Greeter.sol": strToU8(GREETER_SOURCE),
        "greeter/README.md": strToU8("A greeter."),
      });
      const uploaded = await upload("chaincode", "greeter.zip", zip, token);
      expect(uploaded.code, JSON.stringify(uploaded)).toBe(0);
      const fields = {
        name: "Greeter package",
        version: "1.0.0",
        platform: "cita",
        sourceKind: "package",
        uploadId: uploaded.data.uploadId,
        mainContract: "Greeter",
        initParams: "hi",
      };
      const created = await ok("/sys/testService/create", fields, token);
      expect(created).toMatchObject({ packageName: "greeter.zip", sourceKind: "package" });
      await ok("/sys/testService/deploy", { testServiceId: created.testServiceId }, token);
      const failed = await settled(token, created.testServiceId);
      expect(failed).toMatchObject({ status: TestServiceStatus.FAILED, suggestion: "initParams" });
      expect(failed.failReason).toContain("takes 2 parameter(s)");
      await ok(
        "/sys/testService/edit",
        { ...fields, uploadId: undefined, initParams: "hi, 2", testServiceId: created.testServiceId },
        token,
      );
      await ok("/sys/testService/redeploy", { testServiceId: created.testServiceId }, token);
      const deployed = await settled(token, created.testServiceId);
      expect(deployed.status).toBe(TestServiceStatus.DEPLOYED);
      expect(await greeting(`${base()}${deployed.accessPath}`, deployed.contractAddress, deployed.abi)).toBe("hi");

      const empty = await upload("chaincode", "empty.zip", zipSync({ "a/readme.txt": strToU8("nothing") }), token);
      const refused = await call(
        "/sys/testService/create",
        { ...fields, name: "No sol", uploadId: empty.data.uploadId },
        token,
      );
      expect(refused).toMatchObject({
        message: Msg.TEST_SERVICE_PACKAGE_INVALID,
        data: { fieldErrors: { file: ["testServices:validation.package"] } },
      });
    },
  );
  it(
    "runs a Node.js chaincode on Fabric on its own channel: Init with the init params, query and invoke, delete (069)",
    { timeout: 180_000 },
    async () => {
      const methods = `
  async init(ctx, value) {
    await ctx.stub.putState("greeting", Buffer.from(value));
    await ctx.stub.putState("initBy", Buffer.from(ctx.clientIdentity.getMSPID()));
  }
  async whoami(ctx) { return ctx.clientIdentity.getMSPID() + " " + ctx.clientIdentity.getID(); }
  async get(ctx, key) { return (await ctx.stub.getState(key)).toString(); }
  async put(ctx, key, value) { await ctx.stub.putState(key, Buffer.from(value)); return value; }
  async fail(ctx) { throw new Error("refused by the chaincode"); }`;
      // A package that declares another dependency is refused at the field.
      const bad = await upload("chaincode", "bad.zip", contractPackage("bad", methods, { lodash: "^4" }), token);
      const fields = {
        name: "Fabric greeter",
        version: "1.0.0",
        platform: "fabric",
        sourceKind: "package",
        uploadId: bad.data.uploadId,
        mainContract: "",
        initParams: "init,hello",
      };
      expect((await call("/sys/testService/create", fields, token)).message).toBe(Msg.TEST_SERVICE_CHAINCODE_INVALID);
      const good = await upload("chaincode", "greeter.zip", contractPackage("greeter", methods), token);
      const created = await ok("/sys/testService/create", { ...fields, uploadId: good.data.uploadId }, token);
      expect(created).toMatchObject({ language: "node", platform: "fabric", channel: null });
      const callOf = (mode: string, fn: string, args = "") =>
        ok("/sys/testService/chaincode", { testServiceId: created.testServiceId, mode, fn, args }, token);
      expect(
        (
          await call(
            "/sys/testService/chaincode",
            { testServiceId: created.testServiceId, mode: "query", fn: "get" },
            token,
          )
        ).message,
      ).toBe(Msg.TEST_SERVICE_ACTION_NOT_AVAILABLE);
      await ok("/sys/testService/deploy", { testServiceId: created.testServiceId }, token);
      const deployed = await settled(token, created.testServiceId);
      expect(deployed, deployed.failReason ?? "").toMatchObject({
        status: TestServiceStatus.DEPLOYED,
        channel: `test-${created.appCode.toLowerCase()}`,
        contractName: created.appCode.toLowerCase(),
        accessPath: null,
      });
      expect(await callOf("query", "get", "greeting")).toMatchObject({
        status: 200,
        payload: "hello",
        validationCode: null,
      });
      // Init and the console's calls are signed by the service's issued test identity, not the peer's own.
      const mspId = `${created.appCode}MSP`;
      expect((await callOf("query", "get", "initBy")).payload).toBe(mspId);
      const issued = new X509Certificate(deployed.certificatePem);
      const commonName = /CN=([^,\n]+)/.exec(issued.subject.replace(/\n/g, ","))![1]!;
      const who = (await callOf("query", "whoami")).payload as string;
      expect(who.startsWith(`${mspId} x509::`), who).toBe(true);
      expect(who).toContain(commonName);
      expect(who).not.toContain("embedded-peer");
      expect(await callOf("invoke", "put", "greeting\nbye")).toMatchObject({ status: 200, validationCode: 0 });
      expect((await callOf("query", "get", "greeting")).payload).toBe("bye");
      const failed = await callOf("invoke", "fail");
      expect(failed.status).toBe(500);
      expect(failed.message).toContain("refused by the chaincode");
      // Re-deployed, the channel starts over with Init.
      await ok("/sys/testService/redeploy", { testServiceId: created.testServiceId }, token);
      expect((await settled(token, created.testServiceId)).status).toBe(TestServiceStatus.DEPLOYED);
      expect((await callOf("query", "get", "greeting")).payload).toBe("hello");
      await ok("/sys/testService/delete", { testServiceId: created.testServiceId }, token);
      expect(
        (
          await call(
            "/sys/testService/chaincode",
            { testServiceId: created.testServiceId, mode: "query", fn: "get" },
            token,
          )
        ).message,
      ).toBe(Msg.NOT_FOUND);
    },
  );
});
