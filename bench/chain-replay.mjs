#!/usr/bin/env node
// How long a new host takes to run the embedded chains (`npm run bench:replay`; issue 32 item 3, docs/decisions/103):
// a portal process on PostgreSQL (a throwaway server, or DATABASE_URL) records BENCH_REPLAY_BLOCKS blocks on
// open-alliance (one transfer each), then stops; a second process on a DATA_DIR that never had the chains takes the
// chains' lease and opens them, once from the newest snapshot (CHAIN_SNAPSHOT_BLOCKS, default 500) plus the log's
// tail, once with the snapshots removed (the whole log replayed). It prints the time the engine took to open (the
// process's own "opened in" figure) and to answer /healthz from spawn. Budget: 30 s from the newest snapshot.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import pg from "pg";
import { benchDir, freePort, root } from "./servers.mjs";

const BLOCKS = Number(process.env.BENCH_REPLAY_BLOCKS ?? 2000);
const EVERY = process.env.CHAIN_SNAPSHOT_BLOCKS ?? "500";
const BUDGET_MS = 30_000;

let pgDir;
let url = process.env.DATABASE_URL;
if (!url) {
  pgDir = benchDir("bsn-bench-replay-pg-");
  const started = spawnSync(
    "bash",
    [path.join(root, "scripts/pg-throwaway.sh"), "start", pgDir, String(await freePort())],
    {
      encoding: "utf8",
    },
  );
  if (started.status !== 0) throw new Error(`no PostgreSQL: ${started.stderr}`);
  url = started.stdout.trim();
}
const children = [];
process.once("exit", () => {
  for (const child of children) child.kill("SIGKILL");
  if (pgDir) spawnSync("bash", [path.join(root, "scripts/pg-throwaway.sh"), "stop", pgDir]);
});

/** A database of its own on that server. */
const admin = new pg.Client({ connectionString: url });
await admin.connect();
const name = `bench_replay_${Date.now()}`;
await admin.query(`create database ${name}`);
await admin.end();
const own = new URL(url);
own.pathname = `/${name}`;

async function start() {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [path.join(root, "server/index.js"), "build/index.js"], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      FABRIC_GATEWAY_PORT: "0",
      DATA_DIR: benchDir("bsn-bench-replay-"),
      DATABASE_URL: own.toString(),
      SESSION_SECRET: "bench-replay-secret",
      PAYMENT_WEBHOOK_SECRET: "bench-replay-webhook-secret",
      NODE_ENV: "test",
      TEST_FIXTURES: "1",
      DEMO: "0",
      CHAIN_SNAPSHOT_BLOCKS: EVERY,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let output = "";
  child.stdout.on("data", (c) => (output += c));
  child.stderr.on("data", (c) => (output += c));
  const base = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 600_000; ;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}: ${output}`);
    try {
      if ((await fetch(`${base}/healthz`)).ok && /chain engine: run by this process/.test(output)) break;
    } catch {
      /* not yet */
    }
    if (Date.now() > deadline) throw new Error("server not ready in 600 s");
    await new Promise((r) => setTimeout(r, 100));
  }
  const ready = performance.now() - started;
  const opened = Number(output.match(/chain engine: run by this process from now on \(opened in (\d+) ms\)/)?.[1]);
  const stop = () =>
    new Promise((resolve) =>
      child.exitCode !== null ? resolve() : (child.once("exit", resolve), child.kill("SIGTERM")),
    );
  return { base, ready, opened, output: () => output, stop };
}

const rpc = async (base, method, params) =>
  (
    await (
      await fetch(`${base}/chain/test-rpc/open-alliance`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
      })
    ).json()
  ).result;

const writer = await start();
process.stdout.write(`recording ${BLOCKS} blocks on open-alliance (one transfer each)…`);
const recordingStarted = performance.now();
const probe = `0x${randomBytes(20).toString("hex")}`;
while (Number(BigInt(await rpc(writer.base, "eth_blockNumber", []))) < BLOCKS) {
  const res = await fetch(`${writer.base}/chain/test-rpc/open-alliance/fund`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ address: probe, wei: "1" }),
  });
  if (!res.ok) throw new Error(`fund: ${res.status} ${await res.text()}`);
}
const head = Number(BigInt(await rpc(writer.base, "eth_blockNumber", [])));
const balance = BigInt(await rpc(writer.base, "eth_getBalance", [probe, "latest"]));
console.log(` ${head} blocks in ${((performance.now() - recordingStarted) / 1000).toFixed(1)} s`);
// The last snapshot is kept in the background: wait for it.
const db = new pg.Client({ connectionString: own.toString() });
await db.connect();
const newest = Math.floor(head / Number(EVERY)) * Number(EVERY);
for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
  const { rows } = await db.query("select max(number)::int as n from chain_snapshots");
  if (rows[0].n === newest || Number(EVERY) === 0) break;
  await new Promise((r) => setTimeout(r, 200));
}
await writer.stop();

const results = [];
for (const from of ["the newest snapshot", "the genesis (snapshots removed)"]) {
  if (from.startsWith("the genesis")) await db.query("delete from chain_snapshots");
  const host = await start();
  const line = host.output().match(/chain open-alliance: [^\n]*/)?.[0] ?? "(nothing replayed)";
  const same = BigInt(await rpc(host.base, "eth_getBalance", [probe, "latest"])) === balance;
  results.push({ from, opened: host.opened, ready: host.ready, line, same });
  await host.stop();
}
await db.end();

console.log(`\nA new host opening the chains after ${head} blocks (CHAIN_SNAPSHOT_BLOCKS=${EVERY}):\n`);
console.log("| starts from | engine opened in | /healthz from spawn | same state | what it says |");
console.log("|---|---:|---:|---|---|");
for (const r of results)
  console.log(
    `| ${r.from} | ${(r.opened / 1000).toFixed(1)} s | ${(r.ready / 1000).toFixed(1)} s | ${r.same ? "yes" : "NO"} | ${r.line} |`,
  );
const snapshot = results[0];
const ok = snapshot.same && results[1].same && snapshot.opened <= BUDGET_MS;
console.log(
  `\nbudget: the engine opened from the newest snapshot within ${BUDGET_MS / 1000} s: ${ok ? "met" : "MISSED"}`,
);
process.exit(ok ? 0 : 1);
