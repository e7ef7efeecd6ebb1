// The Fabric gateway under load (`npm run bench:fabric`; issue 28 "Proof"; docs/decisions/065): Evaluate and
// Submit (endorse, submit, commit status) through the official @hyperledger/fabric-gateway client over TLS at
// BENCH_CONNECTIONS (default 20) clients, each its own gRPC connection, in a closed loop for BENCH_DURATION
// seconds (default 10) after a 2 s warm-up. Prints req/s, p50 and p99 of each, writes
// test-results/bench/fabric.json and exits 1 when a budget is broken.
//
// SKELETON: the embedded peer lands in parallel (backend/domains/fabric/peer/); until the domain wires the
// gateway to it, this runs the gateway in this process in front of the in-memory FabricPeer of the tests
// (tests/support/fabric-peer-double.ts), so it measures the gateway's own cost (parsing, signatures,
// endorsement, TLS). Swap `peer` for the real one (or reach the portal's FABRIC_GATEWAY_PUBLIC_URL) once wired.
// The issue's second budget compares Evaluate with the keyed eth_call of `npm run bench:chain` in the same run:
// until both run here, pass that figure as BENCH_ETH_CALL_RPS to check it.
import { createPrivateKey } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import * as grpc from "@grpc/grpc-js";
import { connect, hash, signers, type Contract } from "@hyperledger/fabric-gateway";
import { issueCertificate, newCertificateAuthority, newKeyPair } from "#backend/domains/participation/certs.ts";
import { startGateway } from "#backend/domains/fabric/gateway/server.ts";
import { issuePeerIdentity, issueServerCertificate, newGatewayCa } from "#backend/domains/fabric/gateway/tls.ts";
import { FabricPeerDouble } from "../tests/support/fabric-peer-double.ts";

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP = 2;
/** Budget: a submitted transaction is committed (commit status answered) within this p99 (ms). */
const SUBMIT_P99_BUDGET_MS = Number(process.env.BENCH_FABRIC_SUBMIT_P99_MS ?? 2_000);
/** The keyed eth_call's req/s from bench:chain, when given: Evaluate must reach at least as many. */
const ETH_CALL_RPS = process.env.BENCH_ETH_CALL_RPS ? Number(process.env.BENCH_ETH_CALL_RPS) : null;

const APP_CODE = "APPBENCH00001";
const CHANNEL = APP_CODE.toLowerCase();
const MSP = `${APP_CODE}MSP`;

const now = new Date();
const ca = await newCertificateAuthority(APP_CODE, "Bench", now);
const gatewayCa = await newGatewayCa(now);
const pair = newKeyPair();
const cert = (
  await issueCertificate(ca, {
    publicKey: pair.publicKey,
    userName: "bench",
    roleName: "client",
    appCode: APP_CODE,
    now,
  })
).pem;
const endorser = await issuePeerIdentity(
  { certificatePem: ca.pem, privateKey: ca.privateKey },
  { mspId: MSP, channel: CHANNEL, now },
);
const peer = new FabricPeerDouble(CHANNEL, {
  name: APP_CODE,
  version: "1.0",
  invoke: (stub, fn, args) => {
    if (fn === "put") {
      stub.putState(args[0]!, args[1]!);
      return args[1]!;
    }
    return stub.getState(args[0]!) ?? "";
  },
});
const running = await startGateway({
  port: 0,
  host: "127.0.0.1",
  tls: await issueServerCertificate(gatewayCa, ["localhost", "127.0.0.1"], now),
  resolve: async (channel) =>
    channel === CHANNEL ? { peer, mspId: MSP, caPem: ca.pem, endorser, admit: async () => ({}) } : null,
});

const clients = Array.from({ length: CONNECTIONS }, () => {
  const client = new grpc.Client(
    `localhost:${running.port}`,
    grpc.credentials.createSsl(Buffer.from(gatewayCa.certPem)),
    { "grpc.use_local_subchannel_pool": 1 },
  );
  const gw = connect({
    client,
    identity: { mspId: MSP, credentials: Buffer.from(cert) },
    signer: signers.newPrivateKeySigner(createPrivateKey(pair.privateKey.export({ type: "pkcs8", format: "pem" }))),
    hash: hash.sha256,
  });
  return { client, gw, contract: gw.getNetwork(CHANNEL).getContract(APP_CODE) };
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

const rows = [evaluate, submit];
console.log(`Fabric gateway, ${CONNECTIONS} connections, ${DURATION} s (in-memory peer: see the file's head)`);
console.log("target                  req/s    p50 ms   p99 ms   errors");
for (const r of rows)
  console.log(
    `${r.name.padEnd(22)}${String(r.rps).padStart(7)}${String(r.p50).padStart(10)}${String(r.p99).padStart(9)}${String(r.errors).padStart(9)}`,
  );
const broken: string[] = [];
if (!(submit.p99 <= SUBMIT_P99_BUDGET_MS)) broken.push(`Submit p99 ${submit.p99} ms > ${SUBMIT_P99_BUDGET_MS} ms`);
if (evaluate.errors || submit.errors) broken.push("calls failed");
if (ETH_CALL_RPS !== null && evaluate.rps < ETH_CALL_RPS)
  broken.push(`Evaluate ${evaluate.rps} req/s < keyed eth_call ${ETH_CALL_RPS} req/s`);
else if (ETH_CALL_RPS === null) console.log("Evaluate vs keyed eth_call: not compared (set BENCH_ETH_CALL_RPS)");
mkdirSync("test-results/bench", { recursive: true });
writeFileSync(
  "test-results/bench/fabric.json",
  JSON.stringify({ connections: CONNECTIONS, duration: DURATION, rows, broken }, null, 2),
);
for (const { gw, client } of clients) {
  gw.close();
  client.close();
}
await running.close();
if (broken.length) {
  console.log(`Budgets broken: ${broken.join("; ")}`);
  process.exit(1);
}
console.log("Budgets kept.");
