import { createPrivateKey, generateKeyPairSync, type KeyObject } from "node:crypto";
import * as grpc from "@grpc/grpc-js";
import { GatewayError, StatusCode, type Gateway } from "@hyperledger/fabric-gateway";
import { and, eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import billing from "#backend/domains/billing/index.ts";
import { usageDaily } from "#backend/domains/billing/tables.ts";
import { issueCertificate, serviceCa } from "#backend/domains/participation/certs.ts";
import { certificates } from "#backend/domains/participation/tables.ts";
import { apps } from "#backend/domains/services/tables.ts";
import fabric from "#backend/domains/fabric/index.ts";
import { FABRIC_CALLER_TTL_MS } from "#backend/domains/fabric/gateway/memo.ts";
import { strToU8, zipSync } from "fflate";
import {
  admitCaller,
  channelOfAppCode,
  mspIdOfAppCode,
  serviceOfChannel,
} from "#backend/domains/fabric/gateway/admit.ts";
import { callVueapi, inProcessVueapi, insertedUser, ownDatabase, sessionOf } from "./in-process.ts";
import { gatewayClient, joinedParticipant } from "./fabric-support.ts";
import { dataOf } from "../support/envelope.ts";
import { waitFor } from "../support/wait.ts";

// The Fabric gateway (docs/decisions/065) with who may call read from the database: a participant of a running
// Fabric service, with its own key (certificate mode 3: the service's CA certifies the uploaded public key),
// calls through the official client; a certificate of the same CA that the service never issued to a
// participation, and the participant once disabled, are refused; the calls are metered into usage_daily under the
// participant. The gateway and the peer are the ones the fabric domain serves (docs/decisions/064).

/** A Node.js chaincode that writes and reads a lot's state (fabric-contract-api, as a publisher ships it). */
function lotsChaincode(): Uint8Array {
  const source = `"use strict";
const { Contract } = require("fabric-contract-api");
class Lots extends Contract {
  async put(ctx, key, value) {
    await ctx.stub.putState(key, Buffer.from(value));
    return value;
  }
  async get(ctx, key) {
    return (await ctx.stub.getState(key)).toString();
  }
  async append(ctx, key, note) {
    const value = (await ctx.stub.getState(key)).toString() + "+" + note;
    await ctx.stub.putState(key, Buffer.from(value));
    ctx.stub.setEvent("appended", Buffer.from(value));
    return value;
  }
}
module.exports.contracts = [Lots];
`;
  const manifest = {
    name: "lots",
    version: "2.0.0",
    main: "index.js",
    dependencies: { "fabric-contract-api": "2.5.8", "fabric-shim": "2.5.8" },
  };
  return zipSync({ "index.js": strToU8(source), "package.json": strToU8(JSON.stringify(manifest)) });
}

const service = inProcessVueapi("fabric-gateway", {
  TEST_FIXTURES: "1",
  DEMO: "0",
  JOBS_INTERVAL_MS: "0",
  DATABASE_URL: await ownDatabase(process.env.DATABASE_URL),
  PAYMENT_WEBHOOK_SECRET: "backend-test-webhook-secret",
});

async function as(userId: number, p: string, body: object = {}) {
  return callVueapi(service, p, body, await sessionOf(service, userId));
}
const ok = async (userId: number, p: string, body: object = {}) => dataOf(p, await as(userId, p, body));

const opened: Gateway[] = [];
afterAll(async () => {
  for (const gw of opened) gw.close();
});

describe("the Fabric gateway over the service's participants", () => {
  it(
    "lets an approved participant invoke and query with its own key, refuses a stranger and the disabled, meters the calls, locks the address at the tenth refusal",
    { timeout: 180_000 },
    async () => {
      const deps = service.services;
      const pub = await insertedUser(service, `fp${Date.now()}`);
      const svc = await ok(pub, "/test/services", { verState: 25, framework: "fabric" });
      // Certificate mode 3: the participant's own key pair; only the public key goes to the portal.
      const { participant, joinId, own } = await joinedParticipant(service, {
        pub,
        appId: svc.appId,
        appVerId: svc.appVerId,
        mode: 3,
        tag: "fgw",
      });

      const [{ appCode }] = await deps.db.select({ appCode: apps.appCode }).from(apps).where(eq(apps.id, svc.appId));
      const app = (await serviceOfChannel(deps.db, channelOfAppCode(appCode!)))!;
      expect(app).toMatchObject({ id: svc.appId });
      const [certRow] = await deps.db.select().from(certificates).where(eq(certificates.joinId, joinId));
      const certPem = certRow!.certificatePem;
      const caller = await waitFor(
        "the participation gives access",
        async () => {
          await service.runJobs();
          return admitCaller(deps.db, app.id, certPem);
        },
        (c) => c !== null,
      );
      expect(caller).toMatchObject({ userId: pub, appId: app.id, joinId, callerId: participant });

      // The gateway the fabric domain serves, in front of the embedded peer; the service's CA is the channel's MSP.
      // The fixture installed the service's sample chaincode (named by its app code); an upgrade to a version with
      // a reading function lets the test read back what it wrote.
      const now = new Date();
      const ca = await deps.db.transaction((tx) => serviceCa(tx, deps.env, app, now));
      const mspId = mspIdOfAppCode(app.appCode);
      const channel = channelOfAppCode(app.appCode);
      const chaincode = app.appCode.toLowerCase();
      await fabric.api.installChaincode(deps, {
        appCode: app.appCode,
        name: chaincode,
        version: "2.0",
        packageZip: lotsChaincode(),
      });
      const gateway = fabric.api.gateway(deps)!;
      expect(gateway.publicUrl).toBe(`grpcs://localhost:${gateway.port}`);
      const contractAs = (pem: string, key: KeyObject) =>
        gatewayClient(opened, `localhost:${gateway.port}`, gateway.caPem, { mspId, certificatePem: pem, key })
          .getNetwork(channel)
          .getContract(chaincode);

      const contract = contractAs(certPem, own!.privateKey);
      await contract.submitTransaction("put", "lot-1", "harvested");
      expect(Buffer.from(await contract.evaluateTransaction("get", "lot-1")).toString()).toBe("harvested");

      // An MVCC conflict: two transactions endorsed over the same read of lot-1; the one ordered second is
      // committed invalid with Fabric's MVCC_READ_CONFLICT (11), as the client's CommitError reports it, and its
      // write is not applied. Its status comes back through CommitStatus.
      const first = await contract.newProposal("append", { arguments: ["lot-1", "washed"] }).endorse();
      const second = await contract.newProposal("append", { arguments: ["lot-1", "dried"] }).endorse();
      const committed = await (await first.submit()).getStatus();
      expect(committed).toMatchObject({ code: StatusCode.VALID, successful: true });
      const conflicted = await (await second.submit()).getStatus();
      expect(conflicted).toMatchObject({ code: StatusCode.MVCC_READ_CONFLICT, successful: false });
      expect(conflicted.transactionId).toBe(second.getTransactionId());
      expect(Buffer.from(await contract.evaluateTransaction("get", "lot-1")).toString()).toBe("harvested+washed");
      // submitTransaction throws the CommitError for a conflicted transaction; a fresh one after it commits.
      expect(Buffer.from(await contract.submitTransaction("append", "lot-1", "packed")).toString()).toBe(
        "harvested+washed+packed",
      );

      // Chaincode events through ChaincodeEvents, from the block of the first append on: the valid transactions'
      // events in order, none of the invalid one's.
      const network = opened.at(-1)!.getNetwork(channel);
      const events = await network.getChaincodeEvents(chaincode, { startBlock: committed.blockNumber });
      const seen: { name: string; payload: string; txId: string }[] = [];
      try {
        for await (const event of events) {
          seen.push({
            name: event.eventName,
            payload: Buffer.from(event.payload).toString(),
            txId: event.transactionId,
          });
          if (seen.length === 2) break;
        }
      } finally {
        events.close();
      }
      expect(seen.map((e) => e.payload)).toEqual(["harvested+washed", "harvested+washed+packed"]);
      expect(seen[0]).toMatchObject({ name: "appended", txId: first.getTransactionId() });
      expect(seen.some((e) => e.txId === second.getTransactionId())).toBe(false);

      // A certificate of the same CA that no participation holds.
      const stranger = generateKeyPairSync("ec", { namedCurve: "P-256" });
      const strangerPem = (
        await issueCertificate(ca, {
          publicKey: stranger.publicKey,
          userName: "stranger",
          roleName: "client",
          appCode: app.appCode,
          now,
        })
      ).pem;
      const refused = async (c: ReturnType<typeof contractAs>) => {
        const error = await c.evaluateTransaction("get", "lot-1").then(
          () => null,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(GatewayError);
        expect((error as GatewayError).code).toBe(grpc.status.PERMISSION_DENIED);
      };
      const strangerContract = contractAs(
        strangerPem,
        createPrivateKey(stranger.privateKey.export({ type: "pkcs8", format: "pem" })),
      );
      await refused(strangerContract);

      // The traffic, under the participant, on the service's first booked node.
      await billing.api.flushTraffic(deps);
      const rows = await deps.db
        .select()
        .from(usageDaily)
        .where(and(eq(usageDaily.appId, app.id), eq(usageDaily.joinId, joinId)));
      const byMethod = Object.fromEntries(rows.map((r) => [r.method, r]));
      expect(byMethod.Evaluate).toMatchObject({ calls: 2, callerId: participant, userId: pub });
      expect(Number(byMethod.Evaluate!.bytesIn)).toBeGreaterThan(0);
      expect(Number(byMethod.Evaluate!.bytesOut)).toBeGreaterThan(0);
      for (const m of ["Endorse", "Submit", "CommitStatus"]) expect(byMethod[m]?.calls, m).toBe(4);
      expect(byMethod.ChaincodeEvents?.calls).toBe(1);

      // Revoked by another process (the row changed behind this process's back, no forgetCallers here): the
      // gateway's memo of admitted callers (backend/domains/fabric/gateway/memo.ts) holds it at most
      // FABRIC_CALLER_TTL_MS, then the certificate is refused. Restored, it is admitted again at once (refusals
      // are never remembered).
      await deps.db.update(certificates).set({ revokedAt: new Date() }).where(eq(certificates.joinId, joinId));
      const refusedAfterRevocation = await waitFor(
        "the revoked certificate is refused",
        () =>
          contract.evaluateTransaction("get", "lot-1").then(
            () => null,
            (e: unknown) => e as GatewayError,
          ),
        (e) => e !== null,
        FABRIC_CALLER_TTL_MS * 6,
      );
      expect(refusedAfterRevocation!.code).toBe(grpc.status.PERMISSION_DENIED);
      await deps.db.update(certificates).set({ revokedAt: null }).where(eq(certificates.joinId, joinId));
      expect(Buffer.from(await contract.evaluateTransaction("get", "lot-1")).toString()).toBe(
        "harvested+washed+packed",
      );

      // Disabled by the publisher: refused from the next call on.
      await ok(pub, "/sys/chainAppInfo/disableJoin", { appJoinAuditId: joinId, comments: "no longer a partner" });
      await refused(contract);

      // The door's lock (docs/decisions/062): the tenth refused identity from this address locks it out.
      // (the stranger, the revoked and the disabled certificate were refused once each above)
      for (let i = 0; i < 7; i++) await refused(strangerContract);
      const locked = await contract.evaluateTransaction("get", "lot-1").then(
        () => null,
        (e: unknown) => e as GatewayError,
      );
      expect(locked?.code).toBe(grpc.status.RESOURCE_EXHAUSTED);
      expect(locked?.message).toContain("too many refused identities");
    },
  );
});
