import { generateKeyPairSync, sign, type KeyObject } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import { connect, hash, signers, type Gateway } from "@hyperledger/fabric-gateway";
import { strToU8, zipSync } from "fflate";
import { expect } from "vitest";
import fabric from "#backend/domains/fabric/index.ts";
import { readBackendEnv } from "#backend/env.ts";
import { createVueapi } from "#backend/index.ts";
import { callVueapi, insertedUser, sessionOf, type Vueapi } from "./in-process.ts";
import { dataOf } from "../support/envelope.ts";

/**
 * The embedded Fabric peer in the test's process (docs/decisions/064): a service over a data directory the test may
 * open again (a restart), and calls as a client without the gateway would make them (a proposal signed by the peer's
 * own identity, simulated, then its envelope ordered).
 */
export const newDataDir = (name: string) => mkdtempSync(path.join(tmpdir(), `bsn-${name}-`));

export async function openFabric(dataDir: string, databaseUrl: string | undefined, vars: Record<string, string> = {}) {
  return createVueapi(
    readBackendEnv({
      ...process.env,
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      NODE_ENV: "test",
      RATE_LIMITS: "off",
      // Several processes on one PostgreSQL share it (payments refuse to start without one there).
      PAYMENT_WEBHOOK_SECRET: "backend-test-webhook-secret",
      ...vars,
    }),
  );
}

export const zipOf = (files: Record<string, string>) =>
  zipSync(Object.fromEntries(Object.entries(files).map(([name, text]) => [name, strToU8(text)])));

/** A Node.js chaincode package: a contract class whose methods are `methods` (source text), plus package.json. */
export function contractPackage(name: string, methods: string, dependencies?: Record<string, string>) {
  return zipOf({
    "package.json": JSON.stringify({
      name,
      version: "1.0.0",
      main: "index.js",
      dependencies: dependencies ?? { "fabric-contract-api": "^2.5.0", "fabric-shim": "^2.5.0" },
    }),
    "index.js": `'use strict';\nconst { Contract } = require('fabric-contract-api');\nclass C extends Contract {\n${methods}\n}\nmodule.exports.contracts = [C];\n`,
  });
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** Simulates `args` on the channel: the chaincode's response as text, and the simulation. */
export async function evaluate(service: Vueapi, channel: string, chaincode: string, args: string[]) {
  const peer = await fabric.api.peerFor(service.services, { channel });
  const proposal = await fabric.api.localProposal(service.services, { channel, chaincode, args });
  const sim = await peer.simulate(proposal);
  return {
    status: sim.response.status,
    message: sim.response.message,
    text: text(sim.response.payload),
    sim,
    proposal,
  };
}

/** Simulates and orders: the response and the commit status (the chaincode's answer must be a success). */
export async function submit(service: Vueapi, channel: string, chaincode: string, args: string[]) {
  const done = await evaluate(service, channel, chaincode, args);
  expect(done.status, done.message).toBe(200);
  return { ...done, commit: await order(service, done) };
}

/** Orders an evaluated proposal (a client's Submit of its endorsement). */
export async function order(service: Vueapi, done: Awaited<ReturnType<typeof evaluate>>) {
  const peer = await fabric.api.peerFor(service.services, { channel: done.proposal.channel });
  return peer.order({
    channel: done.proposal.channel,
    txId: done.proposal.txId,
    chaincode: done.proposal.chaincode,
    results: done.sim.results,
    event: done.sim.event,
    envelope: fabric.api.endorsedEnvelope({
      channel: done.proposal.channel,
      txId: done.proposal.txId,
      chaincode: done.sim.chaincodeId,
      creator: done.proposal.creator.serialized,
      results: done.sim.results,
      event: done.sim.event,
      response: done.sim.response,
      timestamp: done.proposal.timestamp,
    }),
  });
}

/** A call of `path` as user `userId` that must succeed: its data. */
export async function okAs(service: Vueapi, userId: number, p: string, body: object = {}) {
  return dataOf(p, await callVueapi(service, p, body, await sessionOf(service, userId)));
}

export type Participant = {
  participant: number;
  operator: number;
  joinId: number;
  certificateId: number | null;
  /** Certificate mode 3: the participant's own key pair (only its public key went to the portal). */
  own?: { privateKey: KeyObject };
};

/**
 * The set-up the Fabric, gateway and access-kit tests share (issue 28): the publisher `pub` turns participation on
 * for the service with certificate `mode`, invites; a new user applies with the invitation, joins with the first
 * role and the released city nodes (`nodes: "all"`, else the first; mode 2 with `password`, mode 3 with a key pair
 * of its own made here); the publisher accepts and a new operator approves (after `beforeApproval`), and the due
 * jobs run once.
 */
export async function joinedParticipant(
  service: Vueapi,
  input: {
    pub: number;
    appId: number;
    appVerId: number;
    mode: 1 | 2 | 3;
    tag: string;
    nodes?: "first" | "all";
    password?: string;
    beforeApproval?(joined: { participant: number; joinId: number }): Promise<void>;
  },
): Promise<Participant> {
  const ok = (userId: number, p: string, body: object = {}) => okAs(service, userId, p, body);
  const participant = await insertedUser(service, `q${input.tag}${Date.now()}`);
  const operator = await insertedUser(service, `o${input.tag}${Date.now()}`, "operator");
  const { pub, appId } = input;
  await ok(pub, "/test/participation/service", { appId, certificateMode: input.mode });
  const link = await ok(pub, "/sys/chainAppInfo/invite", { appVerId: input.appVerId, language: "en" });
  const invite = new URL(`http://x${link.path}`).searchParams;
  const info = await ok(participant, "/sys/chainAppInfo/applyJoinApp", {
    appId,
    token: invite.get("c"),
    expiry: invite.get("d"),
    language: invite.get("e"),
  });
  const page = { pageSize: 50, pageIndex: 1, condition: { appId, ticket: info.ticket } };
  const roles = await ok(participant, "/sys/chainAppInfo/queryRolesForAppList", { page });
  const cities = await ok(participant, "/sys/chainAppInfo/queryReleaseCitysForAppList", { page });
  const released = (cities.page.rows as { released: boolean; cityNodeId: number }[]).filter((c) => c.released);
  const own = input.mode === 3 ? generateKeyPairSync("ec", { namedCurve: "P-256" }) : undefined;
  const testData = `participant of ${appId}`;
  const joined = await ok(participant, "/sys/chainAppInfo/joinApp", {
    appId,
    ticket: info.ticket,
    roleId: roles.page.rows[0].roleId,
    cityNodeIds: (input.nodes === "all" ? released : released.slice(0, 1)).map((c) => c.cityNodeId),
    certificateMode: input.mode,
    ...(input.mode === 2 ? { password: input.password, confirmPassword: input.password } : {}),
    ...(own
      ? {
          publicKey: own.publicKey.export({ type: "spki", format: "pem" }),
          testData,
          signature: sign("sha256", Buffer.from(testData), own.privateKey).toString("base64"),
        }
      : {}),
  });
  const joinId = joined.appJoinAuditId as number;
  await input.beforeApproval?.({ participant, joinId });
  await ok(pub, "/sys/chainAppInfo/auditAppJoined", { appJoinAuditId: joinId, auditState: 1 });
  await ok(operator, "/sys/ops/participations/decide", { appJoinAuditId: joinId, decision: "approve" });
  await service.runJobs();
  return { participant, operator, joinId, certificateId: joined.certificateId ?? null, own };
}

/**
 * An official `@hyperledger/fabric-gateway` client of the gateway at `address` (host:port, TLS pinned to `tlsCaPem`),
 * signing as certificate `certificatePem` of MSP `mspId` with `key`; kept in `opened` for the file's afterAll to close.
 */
export function gatewayClient(
  opened: Gateway[],
  address: string,
  tlsCaPem: string | Buffer,
  identity: { mspId: string; certificatePem: string; key: KeyObject },
): Gateway {
  const gw = connect({
    client: new grpc.Client(address, grpc.credentials.createSsl(Buffer.from(tlsCaPem))),
    identity: { mspId: identity.mspId, credentials: Buffer.from(identity.certificatePem) },
    signer: signers.newPrivateKeySigner(identity.key),
    hash: hash.sha256,
  });
  opened.push(gw);
  return gw;
}
