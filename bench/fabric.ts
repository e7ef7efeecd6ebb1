// The Fabric gateway under load (`npm run bench:fabric`; issue 28 "Proof"; docs/decisions/065, 068): Evaluate and
// Submit (endorse, submit, commit status) through the official @hyperledger/fabric-gateway client over TLS at
// BENCH_CONNECTIONS (default 20) clients, each its own gRPC connection, in a closed loop for BENCH_DURATION
// seconds (default 10) after a 2 s warm-up, against two gateways:
// - the stand-in network (scripts/fabric-network.ts): the real embedded peer in a server process of its own, with the
//   same gateway code as the portal's, admitting by the channel's organisation;
// - the built portal's own gateway (production mode), admitting a participant of a running Fabric service by the
//   portal's database (the service, its CA, the participant's certificate: backend/domains/fabric/gateway/).
// In the same run, the keyed eth_call (`/chain/rpc` with democompany's project key) of the same built portal at the
// same connections with autocannon, as `npm run bench:chain` measures it. Prints req/s, p50 and p99 of each, writes
// test-results/bench/fabric.json and exits 1 when a budget is broken: each Evaluate at least the keyed eth_call's
// req/s; each Submit committed with p99 <= 2 s. BENCH_CPU_PROF=<dir> writes the servers' CPU profiles there.
import { createPrivateKey, type KeyObject } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import { connect, hash, signers, type Contract } from "@hyperledger/fabric-gateway";
// @ts-expect-error autocannon ships no type declarations (bench/chain.mjs uses it from plain JavaScript)
import autocannon from "autocannon";
import { issueClientIdentity, newGatewayCa } from "#backend/domains/fabric/gateway/tls.ts";
import { startStandIn, standInAdmin } from "../tests/backend/fabric-network-support.ts";
import { benchEnv, ethCallBody, keyedChain } from "./keyed-chain.mjs";
import { fabricParticipant, lotsPackage } from "./fabric-participant.ts";
import { benchDir, children, freePort, serve, stop } from "./servers.mjs";

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP = 2;
/** Budget: a submitted transaction is committed (commit status answered) within this p99 (ms). */
const SUBMIT_P99_BUDGET_MS = Number(process.env.BENCH_FABRIC_SUBMIT_P99_MS ?? 2_000);

const CHANNEL = "benchlots";
const MSP = "BENCHMSP";
const dir = benchDir("bsn-bench-fabric-");

// The network: the stand-in in its own process, a chaincode installed on the channel, the bench's organisation added.
const network = await startStandIn(path.join(dir, "net"));
writeFileSync(path.join(dir, "lots.zip"), lotsPackage());
const org = await newGatewayCa(new Date());
writeFileSync(path.join(dir, "org.pem"), org.certPem);
await standInAdmin(network.dir, "install", [CHANNEL, "lots", "1.0", path.join(dir, "lots.zip")]);
await standInAdmin(network.dir, "add-msp", [CHANNEL, path.join(dir, "org.pem"), MSP]);
const identity = await issueClientIdentity(
  { certificatePem: org.certPem, privateKey: createPrivateKey(org.keyPem) },
  { mspId: MSP, name: "bench", now: new Date() },
);
const tlsCa = readFileSync(network.tlsCaFile);

type Identity = { mspId: string; certificatePem: string; privateKey: KeyObject };
type Client = { client: grpc.Client; gw: ReturnType<typeof connect>; contract: Contract };

/** CONNECTIONS official clients of the gateway on `port`, each on a gRPC connection of its own. */
function clientsOf(port: number, tls: Buffer, id: Identity, channel: string, chaincode: string): Client[] {
  return Array.from({ length: CONNECTIONS }, () => {
    const client = new grpc.Client(`localhost:${port}`, grpc.credentials.createSsl(tls), {
      "grpc.use_local_subchannel_pool": 1,
    });
    const gw = connect({
      client,
      identity: { mspId: id.mspId, credentials: Buffer.from(id.certificatePem) },
      signer: signers.newPrivateKeySigner(id.privateKey),
      hash: hash.sha256,
    });
    return { client, gw, contract: gw.getNetwork(channel).getContract(chaincode) };
  });
}

function close(clients: Client[]) {
  for (const { gw, client } of clients) {
    gw.close();
    client.close();
  }
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN;

/** Each connection calls `once` back to back for WARMUP + DURATION seconds; the last DURATION are counted. */
async function load(
  name: string,
  clients: Client[],
  once: (contract: Contract, i: number, n: number) => Promise<unknown>,
) {
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

/** Evaluate, then Submit (each connection its own keys: no MVCC conflicts, every Submit a committed transaction). */
async function evaluateAndSubmit(where: string, clients: Client[]) {
  await clients[0]!.contract.submitTransaction("put", "k0", "v0");
  const evaluate = await load(`Evaluate (${where})`, clients, (c) => c.evaluateTransaction("get", "k0"));
  const submit = await load(`Submit committed (${where})`, clients, (c, i, n) =>
    c.submitTransaction("put", `k-${i}-${n}`, String(n)),
  );
  close(clients);
  return { evaluate, submit };
}

const standIn = await evaluateAndSubmit("stand-in", clientsOf(network.port, tlsCa, identity, CHANNEL, "lots"));
await network.stop();

/**
 * The built portal (production mode): the keyed eth_call of a Counter's value() through /chain/rpc with the demo
 * project's key, then its own Fabric gateway with a participant of a running Fabric service. Set up on a test server
 * and in this process (bench/fabric-participant.ts), measured on a production server on the same data directory.
 */
async function portal() {
  const dataDir = path.join(dir, "portal");
  const secret = "bench-fabric-secret";
  const { setup, apiKey, address } = await keyedChain({ dataDir, secret });
  await stop(setup.child);
  const participant = await fabricParticipant({ dataDir, secret });
  const gatewayPort = await freePort();
  const product = await serve({
    ...benchEnv(dataDir, secret),
    NODE_ENV: "production",
    FABRIC_GATEWAY_PORT: String(gatewayPort),
  });
  const options = {
    url: `${product.base}/chain/rpc`,
    method: "POST" as const,
    headers: { "Content-Type": "application/json", "x-api-key": apiKey },
    body: ethCallBody(address),
    connections: CONNECTIONS,
  };
  await autocannon({ ...options, duration: WARMUP });
  const r = await autocannon({ ...options, duration: DURATION });
  const ethCall = {
    name: "keyed eth_call /chain/rpc",
    rps: Math.round(r.requests.average),
    p50: Math.round(r.latency.p50),
    p99: Math.round(r.latency.p99),
    errors: r.errors + r.non2xx,
  };
  const tls = readFileSync(path.join(dataDir, "fabric-gateway", "tls-ca.pem"));
  const own = await evaluateAndSubmit(
    "portal",
    clientsOf(gatewayPort, tls, participant, participant.channel, participant.chaincode),
  );
  await stop(product.child);
  return { ethCall, own };
}

let measured: Awaited<ReturnType<typeof portal>>;
try {
  measured = await portal();
} finally {
  for (const c of children) c.kill("SIGTERM");
}
const { ethCall } = measured;

const rows = [standIn.evaluate, standIn.submit, measured.own.evaluate, measured.own.submit, ethCall];
console.log(`\n${CONNECTIONS} connections, ${DURATION} s per target, 127.0.0.1`);
console.log("target                         req/s    p50 ms   p99 ms   errors");
for (const r of rows)
  console.log(
    `${r.name.padEnd(29)}${String(r.rps).padStart(7)}${String(r.p50).padStart(10)}${String(r.p99).padStart(9)}${String(r.errors).padStart(9)}`,
  );
const broken: string[] = [];
for (const submit of [standIn.submit, measured.own.submit])
  if (!(submit.p99 <= SUBMIT_P99_BUDGET_MS))
    broken.push(`${submit.name} p99 ${submit.p99} ms > ${SUBMIT_P99_BUDGET_MS} ms`);
if (rows.some((r) => r.errors)) broken.push("calls failed");
for (const evaluate of [standIn.evaluate, measured.own.evaluate])
  if (evaluate.rps < ethCall.rps)
    broken.push(`${evaluate.name} ${evaluate.rps} req/s < keyed eth_call ${ethCall.rps} req/s`);
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
