// The Fabric gateway under load (`npm run bench:fabric`; issue 28 "Proof"; docs/decisions/065, 068): Evaluate and
// Submit (endorse, submit, commit status) through the official @hyperledger/fabric-gateway client over TLS at
// BENCH_CONNECTIONS (default 20) clients, each its own gRPC connection, in a closed loop for BENCH_DURATION
// seconds (default 10) after a 2 s warm-up, against the real embedded peer in a server process of its own (the
// stand-in network of scripts/fabric-network.ts: the peer, its chaincode processes, the block log in its PGlite,
// and the same gateway code as the portal's, admitting by the channel's organisation instead of the portal's
// participant query). In the same run, the keyed eth_call (`/chain/rpc` with democompany's project key) of the
// built portal (bench/servers.mjs) at the same connections with autocannon, as `npm run bench:chain` measures it.
// Prints req/s, p50 and p99 of each, writes test-results/bench/fabric.json and exits 1 when a budget is broken:
// Evaluate at least the keyed eth_call's req/s; Submit committed with p99 <= 2 s.
import { createPrivateKey } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import { connect, hash, signers, type Contract } from "@hyperledger/fabric-gateway";
// @ts-expect-error autocannon ships no type declarations (bench/chain.mjs uses it from plain JavaScript)
import autocannon from "autocannon";
import { strToU8, zipSync } from "fflate";
import { issueClientIdentity, newGatewayCa } from "#backend/domains/fabric/gateway/tls.ts";
import { startStandIn, standInAdmin } from "../tests/backend/fabric-network-support.ts";
import { benchEnv, ethCallBody, keyedChain } from "./keyed-chain.mjs";
import { children, serve, stop } from "./servers.mjs";

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP = 2;
/** Budget: a submitted transaction is committed (commit status answered) within this p99 (ms). */
const SUBMIT_P99_BUDGET_MS = Number(process.env.BENCH_FABRIC_SUBMIT_P99_MS ?? 2_000);

const CHANNEL = "benchlots";
const MSP = "BENCHMSP";
const dir = mkdtempSync(path.join(tmpdir(), "bsn-bench-fabric-"));

// The network: the stand-in in its own process, a chaincode installed on the channel, the bench's organisation added.
const network = await startStandIn(path.join(dir, "net"));
const source = `"use strict";
const { Contract } = require("fabric-contract-api");
class Lots extends Contract {
  async put(ctx, key, value) { await ctx.stub.putState(key, Buffer.from(value)); return value; }
  async get(ctx, key) { return (await ctx.stub.getState(key)).toString(); }
}
module.exports.contracts = [Lots];
`;
const manifest = { name: "lots", version: "1.0.0", main: "index.js", dependencies: { "fabric-contract-api": "2.5.8" } };
writeFileSync(
  path.join(dir, "lots.zip"),
  zipSync({ "index.js": strToU8(source), "package.json": strToU8(JSON.stringify(manifest)) }),
);
const org = await newGatewayCa(new Date());
writeFileSync(path.join(dir, "org.pem"), org.certPem);
await standInAdmin(network.dir, "install", [CHANNEL, "lots", "1.0", path.join(dir, "lots.zip")]);
await standInAdmin(network.dir, "add-msp", [CHANNEL, path.join(dir, "org.pem"), MSP]);
const identity = await issueClientIdentity(
  { certificatePem: org.certPem, privateKey: createPrivateKey(org.keyPem) },
  { mspId: MSP, name: "bench", now: new Date() },
);
const tlsCa = readFileSync(network.tlsCaFile);

const clients = Array.from({ length: CONNECTIONS }, () => {
  const client = new grpc.Client(`localhost:${network.port}`, grpc.credentials.createSsl(tlsCa), {
    "grpc.use_local_subchannel_pool": 1,
  });
  const gw = connect({
    client,
    identity: { mspId: MSP, credentials: Buffer.from(identity.certificatePem) },
    signer: signers.newPrivateKeySigner(identity.privateKey),
    hash: hash.sha256,
  });
  return { client, gw, contract: gw.getNetwork(CHANNEL).getContract("lots") };
});

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN;

/** Each connection calls `once` back to back for WARMUP + DURATION seconds; the last DURATION are counted. */
async function load(name: string, once: (contract: Contract, i: number, n: number) => Promise<unknown>) {
  const start = performance.now();
  const measureFrom = start + WARMUP * 1000;
  const end = measureFrom + DURATION * 1000;
  const latencies: number[] = [];
  let errors = 0;
  await Promise.all(
    clients.map(async ({ contract }, i) => {
      for (let n = 0; performance.now() < end; n++) {
        const t0 = performance.now();
        try {
          await once(contract, i, n);
          if (t0 >= measureFrom) latencies.push(performance.now() - t0);
        } catch {
          if (t0 >= measureFrom) errors++;
        }
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return {
    name,
    rps: Math.round(latencies.length / DURATION),
    p50: Math.round(percentile(latencies, 50)),
    p99: Math.round(percentile(latencies, 99)),
    errors,
  };
}

await clients[0]!.contract.submitTransaction("put", "k0", "v0");
const evaluate = await load("Evaluate", (c) => c.evaluateTransaction("get", "k0"));
// Each connection writes its own keys: no MVCC conflicts, every Submit is a committed transaction.
const submit = await load("Submit (committed)", (c, i, n) => c.submitTransaction("put", `k-${i}-${n}`, String(n)));

for (const { gw, client } of clients) {
  gw.close();
  client.close();
}
await network.stop();

/** The keyed eth_call of the built portal: a Counter's value() through /chain/rpc with the demo project's key. */
async function keyedEthCall() {
  // Set-up on a test server, measured on a production one, as bench:chain (bench/keyed-chain.mjs).
  const dataDir = path.join(dir, "portal");
  const secret = "bench-fabric-secret";
  const { setup, apiKey, address } = await keyedChain({ dataDir, secret });
  await stop(setup.child);
  const product = await serve({ ...benchEnv(dataDir, secret), NODE_ENV: "production" });
  const options = {
    url: `${product.base}/chain/rpc`,
    method: "POST" as const,
    headers: { "Content-Type": "application/json", "x-api-key": apiKey },
    body: ethCallBody(address),
    connections: CONNECTIONS,
  };
  await autocannon({ ...options, duration: WARMUP });
  const r = await autocannon({ ...options, duration: DURATION });
  await stop(product.child);
  return {
    name: "keyed eth_call /chain/rpc",
    rps: Math.round(r.requests.average),
    p50: Math.round(r.latency.p50),
    p99: Math.round(r.latency.p99),
    errors: r.errors + r.non2xx,
  };
}

let ethCall: Awaited<ReturnType<typeof keyedEthCall>>;
try {
  ethCall = await keyedEthCall();
} finally {
  for (const c of children) c.kill("SIGTERM");
}

const rows = [evaluate, submit, ethCall];
console.log(
  `\n${CONNECTIONS} connections, ${DURATION} s per target, 127.0.0.1 (Fabric: the embedded peer in its own process)`,
);
console.log("target                      req/s    p50 ms   p99 ms   errors");
for (const r of rows)
  console.log(
    `${r.name.padEnd(26)}${String(r.rps).padStart(7)}${String(r.p50).padStart(10)}${String(r.p99).padStart(9)}${String(r.errors).padStart(9)}`,
  );
const broken: string[] = [];
if (!(submit.p99 <= SUBMIT_P99_BUDGET_MS)) broken.push(`Submit p99 ${submit.p99} ms > ${SUBMIT_P99_BUDGET_MS} ms`);
if (evaluate.errors || submit.errors || ethCall.errors) broken.push("calls failed");
if (evaluate.rps < ethCall.rps) broken.push(`Evaluate ${evaluate.rps} req/s < keyed eth_call ${ethCall.rps} req/s`);
mkdirSync("test-results/bench", { recursive: true });
writeFileSync(
  "test-results/bench/fabric.json",
  JSON.stringify({ connections: CONNECTIONS, duration: DURATION, rows, broken }, null, 2),
);
if (broken.length) {
  console.log(`Budgets broken: ${broken.join("; ")}`);
  process.exit(1);
}
console.log("Budgets kept.");
process.exit(0);
