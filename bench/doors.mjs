#!/usr/bin/env node
// A flood of wrong passwords at a door (`npm run bench:doors`; issue 29 item 2, docs/decisions/062 and 067): an
// unrelated request's latency while 16 connections send wrong HTTP Basic passwords to a dedicated network's
// gateway, (a) from an address the door limits leave alone (RATE_LIMIT_EXEMPT: every guess costs an scrypt
// run, as before the limits), (b) from one address (the credential lock and the door's rate refuse it), (c) from
// a new address at every request (what no per-address limit stops: only the scrypt cap of ADR 062 protects).
// No budget: the figures are recorded in ADR 067. Prints a table and writes test-results/bench/doors.json.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { children, root, serve, stop } from "./servers.mjs";

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const FLOOD_CONNECTIONS = 16;
const NETWORK = "prn-doors";
const EXEMPT_FLOODER = "198.51.100.99";
const ONE_FLOODER = "198.51.100.1";
/** The unrelated request: a public /vueapi read of the database (the banner's announcements). */
const UNRELATED = { path: "/vueapi/anon/community/activeAnnouncements", body: JSON.stringify({}) };

const rpc = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] });
const basic = (user, password) => `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;

const unrelated = (base) =>
  autocannon({
    url: `${base}${UNRELATED.path}`,
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: UNRELATED.body,
    connections: 1,
    duration: DURATION,
    timeout: 30,
  });

/** 16 connections of wrong passwords; `from(i)` is the address the i-th request claims (X-Forwarded-For). */
function flood(base, from) {
  let n = 0;
  const statuses = {};
  const instance = autocannon({
    url: `${base}/chain/dedicated/${NETWORK}`,
    connections: FLOOD_CONNECTIONS,
    duration: DURATION + 1,
    timeout: 30,
    requests: [
      {
        method: "POST",
        setupRequest: (req) => {
          n += 1;
          return {
            ...req,
            headers: {
              "Content-Type": "application/json",
              Authorization: basic("bench", `wrong-${n}`),
              "X-Forwarded-For": from(n),
            },
            body: rpc,
          };
        },
      },
    ],
  });
  instance.on("response", (_client, status) => (statuses[status] = (statuses[status] ?? 0) + 1));
  return { done: instance, statuses };
}

async function measure(base, from) {
  if (!from) return { latency: await unrelated(base), statuses: {}, floodRps: 0 };
  const f = flood(base, from);
  const latency = await unrelated(base);
  const flooded = await f.done;
  return { latency, statuses: f.statuses, floodRps: flooded.requests.average };
}

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), "bsn-bench-doors-"));
  const common = { DATA_DIR: dataDir, SESSION_SECRET: "bench-doors-secret", DEMO: "1", JOBS_INTERVAL_MS: "0" };
  try {
    // Set-up on a test server (the tests-only fixture deploys the network), measured on a production server.
    const setup = await serve({ ...common, NODE_ENV: "test", TEST_FIXTURES: "1" });
    const res = await fetch(`${setup.base}/chain/test-rpc/${NETWORK}/dedicated`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ peers: 1, user: "bench", password: "bench-right-password", consensus: "raft" }),
    });
    if (res.status !== 200) throw new Error(`dedicated network: HTTP ${res.status} ${await res.text()}`);
    await stop(setup.child);

    const product = await serve({
      ...common,
      NODE_ENV: "production",
      TRUST_PROXY: "loopback",
      RATE_LIMIT_EXEMPT: EXEMPT_FLOODER,
    });
    const right = await fetch(`${product.base}/chain/dedicated/${NETWORK}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: basic("bench", "bench-right-password") },
      body: rpc,
    });
    if (right.status !== 200) throw new Error(`gateway: HTTP ${right.status} ${await right.text()}`);
    await autocannon({ url: `${product.base}${UNRELATED.path}`, method: "POST", body: "{}", duration: 2 });

    const phases = [
      ["idle (no flood)", null],
      ["flood, no door limits (an exempt address)", () => EXEMPT_FLOODER],
      ["flood from one address (lock + rate)", () => ONE_FLOODER],
      ["flood from a new address per request", (n) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`],
    ];
    const rows = [];
    for (const [name, from] of phases) {
      const r = await measure(product.base, from);
      rows.push({
        phase: name,
        p50: r.latency.latency.p50,
        p99: r.latency.latency.p99,
        "unrelated req/s": r.latency.requests.average,
        "flood req/s": r.floodRps,
        "flood answers": Object.entries(r.statuses)
          .map(([s, c]) => `${c}×${s}`)
          .join(" "),
      });
    }
    console.log(
      `\nAn unrelated request (${UNRELATED.path}, 1 connection) while ${FLOOD_CONNECTIONS} connections send wrong ` +
        `passwords to /chain/dedicated/${NETWORK}, ${DURATION} s a phase (Node ${process.version})`,
    );
    console.table(rows);
    mkdirSync(path.join(root, "test-results/bench"), { recursive: true });
    writeFileSync(path.join(root, "test-results/bench/doors.json"), JSON.stringify(rows, null, 2));
    await stop(product.child);
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  process.exit(1);
});
