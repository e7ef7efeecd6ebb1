import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { strToU8, zipSync } from "fflate";
import { expect } from "vitest";
import fabric from "#backend/domains/fabric/index.ts";
import { readBackendEnv } from "#backend/env.ts";
import { createVueapi } from "#backend/index.ts";
import type { Vueapi } from "./in-process.ts";

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
