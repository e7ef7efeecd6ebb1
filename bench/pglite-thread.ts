// PGlite on the main thread against PGlite in its worker thread (docs/decisions/031), with no HTTP in between:
// `npx tsx bench/pglite-thread.ts`. Each simulated page runs the queries of a list page (a page of 20 rows
// and the count, as My bills does) and then renders for RENDER_MS of synchronous CPU, as React does on the
// main thread; CONCURRENCY pages are under way at once for DURATION_MS. It prints pages per second, p50/p99
// latency and how busy the main thread's event loop was. The same database folder serves both runs.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { openDatabase } from "#backend/db/client.ts";
import { readBackendEnv } from "#backend/env.ts";

const CONCURRENCY = Number(process.env.CONCURRENCY ?? 20);
const DURATION_MS = Number(process.env.DURATION_MS ?? 8000);
const RENDER_MS = Number(process.env.RENDER_MS ?? 4);
const ROWS = 5000;

const dataDir = mkdtempSync(path.join(tmpdir(), "bsn-pglite-thread-"));
const envOf = (thread: string) => readBackendEnv({ DATA_DIR: dataDir, NODE_ENV: "test", PGLITE_THREAD: thread });

function busy(ms: number) {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

async function run(thread: "main" | "worker") {
  const { db, close } = await openDatabase(envOf(thread));
  try {
    const latencies: number[] = [];
    const until = performance.now() + DURATION_MS;
    const elu = performance.eventLoopUtilization();
    const cpu = process.cpuUsage();
    const page = async () => {
      const owner = 1 + Math.floor(Math.random() * 50);
      const start = performance.now();
      await db.transaction(async (tx) => {
        await tx.execute(
          sql`SELECT id, owner, amount, state, created_at FROM bench_bills WHERE owner = ${owner} ORDER BY created_at DESC LIMIT 20`,
        );
        await tx.execute(sql`SELECT count(*) FROM bench_bills WHERE owner = ${owner}`);
      });
      await db.execute(sql`SELECT sum(amount) FROM bench_bills WHERE owner = ${owner} AND state = 1`);
      busy(RENDER_MS);
      latencies.push(performance.now() - start);
    };
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (performance.now() < until) await page();
      }),
    );
    const used = performance.eventLoopUtilization(elu);
    const spent = process.cpuUsage(cpu);
    latencies.sort((a, b) => a - b);
    const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!.toFixed(1);
    return {
      thread,
      pagesPerSecond: Math.round(latencies.length / (DURATION_MS / 1000)),
      p50Ms: at(0.5),
      p99Ms: at(0.99),
      mainLoopBusy: `${Math.round(used.utilization * 100)} %`,
      processCpuMsPerPage: ((spent.user + spent.system) / 1000 / latencies.length).toFixed(2),
    };
  } finally {
    await close();
  }
}

try {
  const { db, close } = await openDatabase(envOf("main"));
  await db.execute(
    sql`CREATE TABLE bench_bills (id serial PRIMARY KEY, owner int NOT NULL, amount bigint NOT NULL, state int NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`,
  );
  await db.execute(
    sql`INSERT INTO bench_bills (owner, amount, state, created_at) SELECT 1 + i % 50, i * 7 % 100000, i % 3, now() - i * interval '1 minute' FROM generate_series(1, ${ROWS}) AS i`,
  );
  await db.execute(sql`CREATE INDEX ON bench_bills (owner, created_at)`);
  await close();
  const order = (process.env.ORDER ?? "main,worker,main,worker").split(",") as ("main" | "worker")[];
  const results = [];
  for (const thread of order) results.push(await run(thread));
  console.log(`concurrency ${CONCURRENCY}, ${DURATION_MS} ms each, render ${RENDER_MS} ms of CPU per page`);
  console.table(results);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
