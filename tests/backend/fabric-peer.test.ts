import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { peer as pb } from "@hyperledger/fabric-protos";
import fabric from "#backend/domains/fabric/index.ts";
import { DEFAULT_HOST, FabricHost } from "#backend/domains/fabric/peer/host.ts";
import { fabricBlocks, fabricTxs } from "#backend/domains/fabric/tables.ts";
import { SHIPPED_PACKAGES } from "#backend/domains/market/samples.ts";
import { ownDatabase, type Vueapi } from "./in-process.ts";
import { contractPackage, evaluate, newDataDir, openFabric, order, submit, zipOf } from "./fabric-support.ts";
import { waitFor } from "../support/wait.ts";

/**
 * The embedded Fabric peer (docs/decisions/064), on PGlite or on PostgreSQL (DATABASE_URL): the market's
 * supply_trace installed as shipped and called; MVCC, events, history, range queries; a restart rebuilds the state
 * from the block log; chaincode that throws, loops or exits answers an error and the peer goes on; the package check.
 */
const supply = SHIPPED_PACKAGES.find((p) => p.key === "supply-trace")!;
const PROBE = `
  async put(ctx, key, value) { await ctx.stub.putState(key, Buffer.from(value)); ctx.stub.setEvent('put', Buffer.from(key + '=' + value)); return value; }
  async get(ctx, key) { return (await ctx.stub.getState(key)).toString(); }
  async del(ctx, key) { await ctx.stub.deleteState(key); }
  async range(ctx, start, end) {
    const out = [];
    for await (const r of ctx.stub.getStateByRange(start, end)) out.push(r.key + '=' + r.value.toString());
    return JSON.stringify(out);
  }
  async history(ctx, key) {
    const out = [];
    for await (const m of ctx.stub.getHistoryForKey(key)) out.push({ txId: m.txId, value: m.isDelete ? null : m.value.toString(), isDelete: m.isDelete });
    return JSON.stringify(out);
  }
  async rich(ctx) { const it = await ctx.stub.getQueryResult('{"selector":{}}'); return 'no'; }
  async secret(ctx) { return (await ctx.stub.getPrivateData('c', 'k')).toString(); }
  async bump(ctx, key, suffix) { const v = (await ctx.stub.getState(key)).toString(); await ctx.stub.putState(key, Buffer.from(v + suffix)); return v + suffix; }
  async copyRange(ctx, start, end, to) {
    const out = [];
    for await (const r of ctx.stub.getStateByRange(start, end)) out.push(r.key);
    await ctx.stub.putState(to, Buffer.from(out.join(',')));
  }
  async fail(ctx, message) { throw new Error(message); }
  async loop(ctx) { for (;;) {} }
  async quit(ctx) { process.exit(3); }
`;

let dataDir = "";
let databaseUrl: string | undefined;
let service: Vueapi;
const CH = "svc-trace";
const PROBE_CH = "probe-channel";

beforeAll(async () => {
  dataDir = newDataDir("fabric-peer");
  databaseUrl = await ownDatabase(process.env.DATABASE_URL);
  service = await openFabric(dataDir, databaseUrl, { FABRIC_CHAINCODE_TIMEOUT_MS: "3000" });
});
afterAll(async () => {
  await service?.close();
});

describe("the embedded Fabric peer", () => {
  it("installs supply_trace as shipped, runs its Init, and orders registerProduct and addStep", async () => {
    const installed = await fabric.api.installChaincode(service.services, {
      channel: CH,
      name: "supply_trace",
      version: supply.version,
      packageZip: zipOf(supply.files),
    });
    expect(installed.initTxId).toMatch(/^[0-9a-f]{64}$/);
    const reg = await submit(service, CH, "supply_trace", ["registerProduct", "p1", "Tea", "Maker Co"]);
    expect(reg.commit.validationCode).toBe(0);
    const step = await submit(service, CH, "supply_trace", ["addStep", "p1", "Shipper", "Port"]);
    expect(step.commit.validationCode).toBe(0);
    expect(step.commit.blockNumber).toBe(reg.commit.blockNumber + 1n);
    const trace = await evaluate(service, CH, "supply_trace", ["traceProduct", "p1"]);
    expect(trace.status).toBe(200);
    expect(JSON.parse(trace.text).steps.map((s: { holder: string }) => s.holder)).toEqual(["Maker Co", "Shipper"]);
    // Each block is in the database, with the transaction's index entry.
    const [row] = await service.services.db.select().from(fabricTxs).where(eq(fabricTxs.txId, step.proposal.txId));
    expect(row).toMatchObject({ channel: CH, blockNumber: Number(step.commit.blockNumber), validationCode: 0 });
    const peer = await fabric.api.peerFor(service.services, { channel: CH });
    expect(peer.height()).toBe(step.commit.blockNumber + 1n);
    expect(await peer.commitStatus(step.proposal.txId)).toEqual(step.commit);
    // A chaincode error is the proposal's answer (500 with its message).
    const missing = await evaluate(service, CH, "supply_trace", ["traceProduct", "nope"]);
    expect(missing.status).toBe(500);
    expect(missing.message).toContain("product nope not found");
    // The contract API's own metadata answers, as on a real peer (class-transformer 0.4.0 under the contract API:
    // the 0.4.1 on npm carries 0.5's renamed functions).
    const metadata = await evaluate(service, CH, "supply_trace", ["org.hyperledger.fabric:GetMetadata"]);
    expect(metadata.status, metadata.message).toBe(200);
    expect(Object.keys(JSON.parse(metadata.text).contracts).length).toBeGreaterThan(0);
    // The same transaction twice: DUPLICATE_TXID, no second block.
    const again = await order(service, step);
    expect(again.validationCode).toBe(pb.TxValidationCode.DUPLICATE_TXID);
    expect(peer.height()).toBe(step.commit.blockNumber + 1n);
  });

  it("marks the second of two conflicting transactions MVCC_READ_CONFLICT and applies nothing of it", async () => {
    await fabric.api.installChaincode(service.services, {
      channel: PROBE_CH,
      name: "probe",
      version: "1",
      packageZip: contractPackage("probe", PROBE),
    });
    await submit(service, PROBE_CH, "probe", ["put", "k", "v0"]);
    // Two proposals read k at the same version and write it; both are ordered.
    const a = await evaluate(service, PROBE_CH, "probe", ["bump", "k", "a"]);
    const b = await evaluate(service, PROBE_CH, "probe", ["bump", "k", "b"]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect((await order(service, a)).validationCode).toBe(pb.TxValidationCode.VALID);
    const second = await order(service, b);
    expect(second.validationCode).toBe(pb.TxValidationCode.MVCC_READ_CONFLICT);
    expect((await evaluate(service, PROBE_CH, "probe", ["get", "k"])).text).toBe("v0a");
    // The invalid transaction is in its block, with its code, and not in the key's history.
    const [row] = await service.services.db.select().from(fabricTxs).where(eq(fabricTxs.txId, b.proposal.txId));
    expect(row?.validationCode).toBe(11);
  });

  it("delivers the chaincode events of valid transactions, and answers history and range queries", async () => {
    const peer = await fabric.api.peerFor(service.services, { channel: PROBE_CH });
    const abort = new AbortController();
    const seen: { eventName: string; payload: string; txId: string }[] = [];
    const listening = (async () => {
      for await (const block of peer.events("probe", undefined, abort.signal))
        for (const e of block.events) {
          seen.push({ eventName: e.eventName, payload: new TextDecoder().decode(e.payload), txId: e.txId });
          if (seen.length === 2) abort.abort();
        }
    })();
    const put1 = await submit(service, PROBE_CH, "probe", ["put", "r/1", "one"]);
    await submit(service, PROBE_CH, "probe", ["put", "r/2", "two"]);
    await listening;
    expect(seen).toEqual([
      { eventName: "put", payload: "r/1=one", txId: put1.proposal.txId },
      { eventName: "put", payload: "r/2=two", txId: expect.any(String) },
    ]);
    await submit(service, PROBE_CH, "probe", ["put", "r/3", "three"]);
    await submit(service, PROBE_CH, "probe", ["del", "r/3"]);
    const range = await evaluate(service, PROBE_CH, "probe", ["range", "r/", "r/~"]);
    expect(JSON.parse(range.text)).toEqual(["r/1=one", "r/2=two"]);
    const history = JSON.parse((await evaluate(service, PROBE_CH, "probe", ["history", "r/3"])).text);
    expect(history.map((h: { value: string | null; isDelete: boolean }) => [h.value, h.isDelete])).toEqual([
      [null, true],
      ["three", false],
    ]);
    // A range read that a later commit changes: the phantom check invalidates it.
    const ranged = await evaluate(service, PROBE_CH, "probe", ["copyRange", "r/", "r/~", "copy"]);
    await submit(service, PROBE_CH, "probe", ["put", "r/0", "zero"]);
    expect((await order(service, ranged)).validationCode).toBe(pb.TxValidationCode.PHANTOM_READ_CONFLICT);
  });

  it("refuses rich queries and private data with a clear error", async () => {
    const rich = await evaluate(service, PROBE_CH, "probe", ["rich"]);
    expect(rich.status).toBe(500);
    expect(rich.message).toContain("rich queries");
    const priv = await evaluate(service, PROBE_CH, "probe", ["secret"]);
    expect(priv.status).toBe(500);
    expect(priv.message).toContain("private data");
  });

  it("answers a throwing, looping or exiting chaincode with an error and goes on", async () => {
    const thrown = await evaluate(service, PROBE_CH, "probe", ["fail", "broken on purpose"]);
    expect(thrown).toMatchObject({ status: 500, message: "broken on purpose" });
    const looped = await evaluate(service, PROBE_CH, "probe", ["loop"]);
    expect(looped.status).toBe(500);
    expect(looped.message).toContain("did not answer within 3000 ms");
    expect((await evaluate(service, CH, "supply_trace", ["traceProduct", "p1"])).status).toBe(200);
    const quit = await evaluate(service, PROBE_CH, "probe", ["quit"]);
    expect(quit.status).toBe(500);
    expect(quit.message).toMatch(/exited|closed|stream/);
    // A new process answers the next proposal.
    expect((await evaluate(service, PROBE_CH, "probe", ["get", "k"])).text).toBe("v0a");
    const probe = fabric.api.processes(service.services).find((p) => p.key.startsWith(PROBE_CH));
    expect(probe?.starts).toBeGreaterThanOrEqual(3);
  });

  it("refuses a package that declares another dependency, naming it", async () => {
    const foreign = contractPackage("leftpad-cc", PROBE, {
      "fabric-contract-api": "^2.5.0",
      "left-pad": "^1.3.0",
    });
    const check = fabric.api.checkPackage(foreign);
    expect(check.ok).toBe(false);
    expect(JSON.stringify(check)).toContain("left-pad");
    await expect(
      fabric.api.installChaincode(service.services, {
        channel: "refused",
        name: "x",
        version: "1",
        packageZip: foreign,
      }),
    ).rejects.toThrow(/left-pad/);
    const old = contractPackage("old-cc", PROBE, { "fabric-shim": "^1.4.0" });
    expect(JSON.stringify(fabric.api.checkPackage(old))).toContain("fabric-shim@^1.4.0");
    const vendored = zipOf({
      "package.json": JSON.stringify({ name: "v", main: "index.js", dependencies: { "fabric-shim": "2.5.x" } }),
      "index.js": "module.exports = {};",
      "node_modules/helper/package.json": JSON.stringify({ name: "helper", scripts: { postinstall: "curl x" } }),
    });
    expect(JSON.stringify(fabric.api.checkPackage(vendored))).toContain(
      "vendored package helper has an install script",
    );
  });

  it("runs at most M chaincode processes and stops an idle one after N", async () => {
    const host = new FabricHost(service.services.db, newDataDir("fabric-host"), () => new Date(), {
      ...DEFAULT_HOST,
      maxProcesses: 1,
      idleMs: 300,
    });
    try {
      const zip = contractPackage("probe", PROBE);
      for (const channel of ["m-one", "m-two"])
        await host.install({ channel, name: "probe", version: "1", packageZip: zip });
      // The second channel's process took the only place: the first one's (idle) was stopped.
      const running = () => host.processList().filter((p) => p.running);
      expect(running().map((p) => p.key)).toEqual(["m-two/probe/1"]);
      await waitFor(
        "the idle process stopped",
        async () => running().length,
        (n) => n === 0,
        10_000,
        100,
      );
      // The next proposal starts it again.
      const peer = await host.peer("m-one");
      const proposal = await fabric.api.localProposal(service.services, {
        channel: "m-one",
        chaincode: "probe",
        args: ["get", "x"],
      });
      expect((await peer.simulate(proposal)).response.status).toBe(200);
    } finally {
      await host.close();
    }
  });

  it("rebuilds world state and history from the block log after a restart", async () => {
    const before = await fabric.api.peerFor(service.services, { channel: CH });
    const height = before.height();
    await service.close();
    service = await openFabric(dataDir, databaseUrl, { FABRIC_CHAINCODE_TIMEOUT_MS: "3000" });
    const after = await fabric.api.peerFor(service.services, { channel: CH });
    expect(after.height()).toBe(height);
    expect(after.chaincode()).toEqual({ name: "supply_trace", version: supply.version });
    const trace = await evaluate(service, CH, "supply_trace", ["traceProduct", "p1"]);
    expect(JSON.parse(trace.text).steps).toHaveLength(2);
    const history = JSON.parse((await evaluate(service, PROBE_CH, "probe", ["history", "r/3"])).text);
    expect(history).toHaveLength(2);
    const blocks = await service.services.db.select().from(fabricBlocks).where(eq(fabricBlocks.channel, CH));
    expect(blocks).toHaveLength(Number(height));
    // And it goes on from there.
    const next = await submit(service, CH, "supply_trace", ["addStep", "p1", "Shop", "Town"]);
    expect(next.commit.blockNumber).toBe(height);
  });
});
