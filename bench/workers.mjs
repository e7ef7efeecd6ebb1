#!/usr/bin/env node
// WORKERS=2 against WORKERS=1 on PostgreSQL (`npm run bench:workers`; issue 11 "Scale-out", docs/decisions/031):
// the console home and My bills as demoperson, 20 connections, on a throwaway PostgreSQL (scripts/pg-throwaway.sh)
// or DATABASE_URL when given. A file of its own beside bench/run.mjs, like bench/chain.mjs. This machine has 2
// cores: with 2 workers the database, the engines' worker and both portal processes share them, so the ratio is
// bounded well below 2.
import { spawn, spawnSync } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { benchDir } from "./servers.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
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
    };
    const setup = await serve({ ...common, NODE_ENV: "test", TEST_CAPTCHA: "BENCHW" });
    const cookie = await logIn(setup.base, "BENCHW");
    await stop(setup);
    const rows = [];
    for (const workers of [1, 2]) {
      const server = await serve({ ...common, WORKERS: String(workers) });
      rows.push(...(await measure(server.base, cookie, workers)));
      await stop(server);
    }
    console.log(
      `\n${CONNECTIONS} connections, ${DURATION} s per target, PostgreSQL, ${(await import("node:os")).cpus().length} cores (the ratio is bounded by the cores)\n`,
    );
    console.table(rows);
    for (const target of TARGETS) {
      const [one, two] = [1, 2].map((w) => rows.find((r) => r.workers === w && r.target === target)["req/s"]);
      console.log(`${target}: 2 workers / 1 worker = ${(two / one).toFixed(2)}`);
    }
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
