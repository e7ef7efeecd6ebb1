#!/usr/bin/env node
// Several portal processes on one PostgreSQL (`npm run bench:workers`; issue 11 "Scale-out", issue 32 item 5,
// docs/decisions/031, 095, 098, 099), on a throwaway PostgreSQL (scripts/pg-throwaway.sh) or DATABASE_URL when given:
// - pages: the console home and My bills as demoperson, each alone, with one process and WORKERS=2;
// - a mixed load (50 connections: pages, the keyed /chain/rpc eth_call of democompany's project, and an IPFS gateway
//   download of a 64 KB file), against one process, WORKERS=2, and two processes started separately (each its own
//   DATA_DIR; the engines run in the holder of their leases, the other forwards), half the connections on each.
// This machine has 2 cores: the database, the engines' threads and the portal processes share them, so the ratio is
// bounded well below 2.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { ethCallBody, keyedChain } from "./keyed-chain.mjs";
import { benchDir, benchIpfsService, demoToken } from "./servers.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const MIXED_CONNECTIONS = Number(process.env.BENCH_MIXED_CONNECTIONS ?? 50);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const TARGETS = ["/g/home/index", "/g/home/userCenter/MyBills"];
const children = [];
const freePort = () =>
  new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });

async function serve(env) {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(root, "server/index.js"), "build/index.js"], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      FABRIC_GATEWAY_PORT: "0",
      HOST: "127.0.0.1",
      NODE_ENV: "production",
      ...env,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  children.push(child);
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) return { base, child };
    } catch {
      /* not yet */
    }
    if (Date.now() > deadline) throw new Error("server not ready in 180 s");
    await new Promise((r) => setTimeout(r, 250));
  }
}

const stop = ({ child }) =>
  new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once("exit", resolve);
    child.kill("SIGTERM");
  });

async function logIn(base, captcha) {
  const html = await (await fetch(`${base}/g/main/Login/Logins`)).text();
  const key = html.match(/name="captchaKey" value="([^"]+)"/)?.[1];
  const res = await fetch(`${base}/g/main/Login/Logins`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ username: "demoperson", password: "Demo12!@pass", captchaKey: key ?? "", captcha }),
  });
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith("__session="));
  if (res.status !== 302 || !cookie) throw new Error(`login failed: HTTP ${res.status}`);
  return cookie.split(";")[0];
}

async function measure(base, cookie, workers) {
  const rows = [];
  for (const target of TARGETS) {
    const opts = {
      url: `${base}${target}`,
      connections: CONNECTIONS,
      headers: { Cookie: cookie, "Accept-Encoding": "gzip" },
    };
    await autocannon({ ...opts, duration: 2 });
    const r = await autocannon({ ...opts, duration: DURATION, timeout: 10 });
    rows.push({
      workers,
      target,
      "req/s": Math.round(r.requests.average),
      "p50 ms": r.latency.p50,
      "p99 ms": r.latency.p99,
      non2xx: r.non2xx,
      errors: r.errors + r.timeouts,
    });
  }
  return rows;
}

/** The set-up on a test server: demoperson's session, democompany's project key and a Counter, an IPFS file. */
async function prepare(common) {
  const dataDir = common.DATA_DIR;
  // keyedChain's test server (bench/servers.mjs) takes these from this process's environment.
  process.env.DATABASE_URL = common.DATABASE_URL;
  process.env.PAYMENT_WEBHOOK_SECRET = common.PAYMENT_WEBHOOK_SECRET;
  const { setup, apiKey, address } = await keyedChain({ dataDir, secret: common.SESSION_SECRET });
  const cookie = await logIn(setup.base, "BENCH1");
  const token = await demoToken(setup.base, "democompany");
  const { gateway, keyOf } = await benchIpfsService(setup.base, token, "bench-w");
  const uploaded = await fetch(`${setup.base}${gateway.gatewayPath}/upload`, {
    method: "POST",
    headers: { Authorization: `Bearer ${keyOf("upload")}`, "X-File-Name": "bench.bin" },
    body: randomBytes(64 * 1024),
  });
  const { cid } = await uploaded.json();
  if (!cid) throw new Error(`upload: HTTP ${uploaded.status}`);
  await stop(setup);
  const requests = [
    ...TARGETS.map((p) => ({ method: "GET", path: p, headers: { Cookie: cookie, "Accept-Encoding": "gzip" } })),
    {
      method: "POST",
      path: "/chain/rpc",
      headers: { "Content-Type": "application/json", "x-api-key": apiKey },
      body: ethCallBody(address),
    },
    {
      method: "GET",
      path: `${gateway.gatewayPath}/ipfs/${cid}`,
      headers: { Authorization: `Bearer ${keyOf("download")}` },
    },
  ];
  return { cookie, requests };
}

/** The mixed load on `bases` (half the connections on each of two, or all on one): req/s summed, the worst p99. */
async function mixed(bases, requests, setupName) {
  const per = Math.floor(MIXED_CONNECTIONS / 2);
  const runs = (bases.length === 1 ? [bases[0], bases[0]] : bases).map((base) => ({
    url: base,
    connections: per,
    requests,
  }));
  await Promise.all(runs.map((opts) => autocannon({ ...opts, duration: 2 })));
  const results = await Promise.all(runs.map((opts) => autocannon({ ...opts, duration: DURATION, timeout: 10 })));
  return {
    setup: setupName,
    "req/s": Math.round(results.reduce((n, r) => n + r.requests.average, 0)),
    "p50 ms": Math.max(...results.map((r) => r.latency.p50)),
    "p99 ms": Math.max(...results.map((r) => r.latency.p99)),
    non2xx: results.reduce((n, r) => n + r.non2xx, 0),
    errors: results.reduce((n, r) => n + r.errors + r.timeouts, 0),
  };
}

async function main() {
  if (
    spawnSync(process.execPath, [path.join(root, "node_modules/@remix-run/dev/dist/cli.js"), "build"], {
      cwd: root,
      stdio: "inherit",
    }).status !== 0
  )
    throw new Error("build failed");
  const pgDir = benchDir("bsn-bench-pg-");
  let databaseUrl = process.env.DATABASE_URL;
  const ownPg = !databaseUrl;
  if (ownPg)
    databaseUrl = spawnSync(
      "bash",
      [path.join(root, "scripts/pg-throwaway.sh"), "start", pgDir, String(await freePort())],
      { encoding: "utf8" },
    ).stdout.trim();
  try {
    const common = {
      DATABASE_URL: databaseUrl,
      DATA_DIR: benchDir("bsn-bench-w-"),
      SESSION_SECRET: "bench-workers-secret",
      PAYMENT_WEBHOOK_SECRET: "bench-workers-webhook",
      COOKIE_SECURE: "0",
      DEMO: "1",
      JOBS_INTERVAL_MS: "0",
      // The bench measures the servers' capacity from one address, which the doors' per-address rates leave alone.
      RATE_LIMIT_EXEMPT: "127.0.0.1",
    };
    const { cookie, requests } = await prepare(common);
    const rows = [];
    const mixedRows = [];
    for (const workers of [1, 2]) {
      const server = await serve({ ...common, WORKERS: String(workers) });
      rows.push(...(await measure(server.base, cookie, workers)));
      mixedRows.push(await mixed([server.base], requests, workers === 1 ? "one process" : "WORKERS=2"));
      await stop(server);
    }
    // Two processes started separately: the first takes every engine's lease, the second forwards to it.
    const first = await serve(common);
    const second = await serve({ ...common, DATA_DIR: benchDir("bsn-bench-w2-") });
    mixedRows.push(await mixed([first.base, second.base], requests, "two processes started separately"));
    await stop(second);
    await stop(first);

    const cores = (await import("node:os")).cpus().length;
    console.log(
      `\n${CONNECTIONS} connections, ${DURATION} s per target, PostgreSQL, ${cores} cores (the ratio is bounded by the cores)\n`,
    );
    console.table(rows);
    for (const target of TARGETS) {
      const [one, two] = [1, 2].map((w) => rows.find((r) => r.workers === w && r.target === target)["req/s"]);
      console.log(`${target}: 2 workers / 1 worker = ${(two / one).toFixed(2)}`);
    }
    console.log(
      `\nMixed load: ${MIXED_CONNECTIONS} connections, each cycling the home, My bills, a keyed eth_call and a 64 KB ` +
        `IPFS gateway download; ${DURATION} s; p50 and p99 are the worse of the two halves' (upper bounds)\n`,
    );
    console.table(mixedRows);
    const base = mixedRows[0]["req/s"];
    for (const row of mixedRows.slice(1))
      console.log(`${row.setup} / one process = ${(row["req/s"] / base).toFixed(2)}`);
  } finally {
    if (ownPg) spawnSync("bash", [path.join(root, "scripts/pg-throwaway.sh"), "stop", pgDir]);
  }
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => {
    for (const c of children) if (c.exitCode === null) c.kill("SIGTERM");
  });
