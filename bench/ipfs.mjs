#!/usr/bin/env node
// IPFS gateways under load (`npm run bench:ipfs`; issue 13, docs/decisions/039): uploads and downloads of a
// 16 MB file through a city node gateway of a demo service (its upload and download keys, the same code paths
// as curl), beside the same file served as a bare static file by the same process (express.static: the
// machine's ceiling for streaming a file over HTTP here). Prints MB/s and writes test-results/bench/ipfs.json.
import { randomBytes } from "node:crypto";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { benchDir, children, benchIpfsService, demoToken, root, serve, stop } from "./servers.mjs";

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
/** Downloads in parallel (each a whole 16 MB file); uploads in parallel. */
const DOWNLOADERS = Number(process.env.BENCH_IPFS_DOWNLOADERS ?? 4);
const UPLOADERS = Number(process.env.BENCH_IPFS_UPLOADERS ?? 2);
const MB = 1024 * 1024;
const FILE_BYTES = 16 * MB;

/** Uploads of `file` by `parallel` senders for DURATION seconds: MB/s of bytes acknowledged with a CID. */
async function uploads(url, key, file, parallel) {
  const until = Date.now() + DURATION * 1000;
  let bytes = 0;
  let count = 0;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: parallel }, async (_, i) => {
      for (let n = 0; Date.now() < until; n += 1) {
        // Each upload differs in its last bytes, so that every one is stored (no block is shared).
        const body = Buffer.concat([file, Buffer.from(`${i}:${n}:${Date.now()}`)]);
        const res = await fetch(url, {
          method: "POST",
          headers: {
            Authorization: `Bearer ${key}`,
            "X-File-Name": `bench-${i}-${n}.bin`,
            "Content-Type": "application/octet-stream",
          },
          body,
        });
        const answer = await res.json();
        if (!res.ok || !answer.cid) throw new Error(`upload: HTTP ${res.status} ${JSON.stringify(answer)}`);
        bytes += body.byteLength;
        count += 1;
      }
    }),
  );
  return { mbps: bytes / MB / ((Date.now() - started) / 1000), count };
}

/** Whole-file GETs by DOWNLOADERS connections for DURATION seconds (autocannon): MB/s received. */
async function downloads(url, headers) {
  await autocannon({ url, headers, connections: DOWNLOADERS, duration: 2 }); // warm-up
  const r = await autocannon({ url, headers, connections: DOWNLOADERS, duration: DURATION });
  if (r.non2xx > 0) throw new Error(`${url}: ${r.non2xx} non-2xx answers`);
  return {
    mbps: r.throughput.average / MB,
    requests: r.requests.total,
    p99: r.latency.p99,
    errors: r.errors,
    timeouts: r.timeouts,
  };
}

async function main() {
  const dataDir = benchDir("bsn-bench-ipfs-");
  // The bench measures the server's capacity from one address: the doors' per-address rates (docs/decisions/067)
  // leave it alone, as they leave a trusted monitor.
  const common = {
    DATA_DIR: dataDir,
    SESSION_SECRET: "bench-ipfs-secret",
    DEMO: "1",
    JOBS_INTERVAL_MS: "0",
    RATE_LIMIT_EXEMPT: "127.0.0.1",
  };
  const staticName = `bench-ipfs-${process.pid}.bin`;
  const staticPath = path.join(root, "public", staticName);
  const file = randomBytes(FILE_BYTES);
  writeFileSync(staticPath, file);
  try {
    // Set-up on a test server (test captcha, a balance granted by the test-only fixtures), measured on a
    // production server over the same data.
    const setup = await serve({ ...common, NODE_ENV: "test", TEST_CAPTCHA: "BENCH1", TEST_FIXTURES: "1" });
    const token = await demoToken(setup.base, "democompany");
    const { gateway, keyOf } = await benchIpfsService(setup.base, token, "bench-ipfs");
    await stop(setup.child);

    const product = await serve({ ...common, NODE_ENV: "production" });
    const gw = `${product.base}${gateway.gatewayPath}`;
    const first = await fetch(`${gw}/upload`, {
      method: "POST",
      headers: { Authorization: `Bearer ${keyOf("upload")}`, "X-File-Name": "bench.bin" },
      body: file,
    });
    const { cid } = await first.json();
    if (!cid) throw new Error(`first upload: HTTP ${first.status}`);

    const staticResult = await downloads(`${product.base}/${staticName}`, {});
    const download = await downloads(`${gw}/ipfs/${cid}`, { Authorization: `Bearer ${keyOf("download")}` });
    const upload = await uploads(`${gw}/upload`, keyOf("upload"), file, UPLOADERS);
    const rows = [
      {
        target: "bare static file (16 MB, express.static)",
        "MB/s": staticResult.mbps.toFixed(1),
        requests: staticResult.requests,
        "p99 ms": staticResult.p99,
        errors: staticResult.errors,
        "share of bare": "100.0%",
      },
      {
        target: "gateway download (16 MB, keyed, metered)",
        "MB/s": download.mbps.toFixed(1),
        requests: download.requests,
        "p99 ms": download.p99,
        errors: download.errors,
        "share of bare": `${((download.mbps / staticResult.mbps) * 100).toFixed(1)}%`,
      },
      {
        target: `gateway upload (16 MB, ${UPLOADERS} in parallel)`,
        "MB/s": upload.mbps.toFixed(1),
        requests: upload.count,
        "p99 ms": "-",
        errors: 0,
        "share of bare": "-",
      },
    ];
    console.log(
      `\nIPFS gateways, ${DURATION} s per target, ${DOWNLOADERS} downloaders (Node ${process.version}, ${tmpdir()})`,
    );
    console.table(rows);
    const out = path.join(root, "test-results/bench");
    mkdirSync(out, { recursive: true });
    writeFileSync(
      path.join(out, "ipfs.json"),
      `${JSON.stringify({ at: new Date().toISOString(), durationSeconds: DURATION, fileBytes: FILE_BYTES, static: staticResult, download, upload }, null, 2)}\n`,
    );
  } finally {
    rmSync(staticPath, { force: true });
    await Promise.all(children.map(stop));
  }
}

main().catch((error) => {
  console.error(error);
  for (const c of children) c.kill("SIGKILL");
  process.exit(1);
});
