// The embedded IPFS engine on disk against its shared state (docs/decisions/096), with no HTTP in between:
// `DATABASE_URL=postgres://… npx tsx bench/ipfs-state.ts` (a throwaway server: scripts/pg-throwaway.sh; add
// FILES_URL=s3+http://… to measure a bucket instead of PostgreSQL's chunks). Each run adds SIZE_MB of fresh random
// bytes (so no block is known yet), reads them back whole, and unpins them; it prints the median of RUNS per state.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { openDatabase } from "#backend/db/client.ts";
import { readBackendEnv } from "#backend/env.ts";
import { openBlobStore } from "#backend/kit/storage.ts";
import { EmbeddedIpfs } from "#backend/domains/ipfs/engine/embedded.ts";

const SIZE_MB = Number(process.env.SIZE_MB ?? 10);
const RUNS = Number(process.env.RUNS ?? 5);
if (!process.env.DATABASE_URL) throw new Error("set DATABASE_URL (a throwaway PostgreSQL: scripts/pg-throwaway.sh)");

const dataDir = mkdtempSync(path.join(tmpdir(), "bsn-ipfs-state-"));
const env = readBackendEnv({ ...process.env, DATA_DIR: dataDir, NODE_ENV: "test" });
const database = await openDatabase(env);
const blobs = await openBlobStore(env, database.db);

async function* chunks(bytes: Uint8Array, size = 64 * 1024) {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function measure(name: string, engine: EmbeddedIpfs) {
  await engine.open();
  const add: number[] = [];
  const cat: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const bytes = randomBytes(SIZE_MB * 1024 * 1024);
    let start = performance.now();
    const added = await engine.add(chunks(bytes));
    add.push(performance.now() - start);
    start = performance.now();
    let n = 0;
    for await (const chunk of engine.cat(added.cid)) n += chunk.byteLength;
    cat.push(performance.now() - start);
    if (n !== bytes.length) throw new Error(`read ${n} of ${bytes.length} bytes`);
    await engine.unpin(added.cid);
  }
  await engine.close();
  const rate = (ms: number) => ((SIZE_MB / ms) * 1000).toFixed(0);
  console.log(
    `${name.padEnd(28)} add ${median(add).toFixed(0)} ms (${rate(median(add))} MB/s), cat ${median(cat).toFixed(0)} ms (${rate(median(cat))} MB/s)`,
  );
}

try {
  console.log(`${SIZE_MB} MB, median of ${RUNS}`);
  for (let round = 0; round < 2; round++) {
    await measure("disk (DATA_DIR/ipfs)", new EmbeddedIpfs(path.join(dataDir, `disk-${round}`)));
    await measure(
      `shared (${blobs.kind})`,
      new EmbeddedIpfs(path.join(dataDir, `shared-${round}`), { db: database.db, blobs }),
    );
  }
} finally {
  await blobs.close();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
}
