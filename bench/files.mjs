#!/usr/bin/env node
// Stored files under load (`npm run bench:files`; issue 29 item 1, docs/decisions/053): 60 MB support
// attachments uploaded and downloaded again and again through /vueapi on the embedded default (DATA_DIR/files),
// while a page (the landing page, whose loader calls the backend) is requested beside them. Budgets: the
// transfers add under 100 MB to the server's memory, and the page's p99 during them stays under 3× its idle p99.
// Prints a table, writes test-results/bench/files.json, exits 1 on a broken budget.
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { children, demoToken, root, serve, stop, vueapi } from "./servers.mjs";

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const MB = 1024 * 1024;
const FILE_BYTES = 60 * MB - 4096;
const PAGE = "/g/main/index";
const PAGE_CONNECTIONS = 2;
const BUDGETS = { addedMemoryMB: 100, p99OverIdle: 3 };

const rss = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))[1]) * 1024;

/** 60 MB of text, sent as it is made (the bench holds 1 MB of it). */
function body() {
  const piece = Buffer.alloc(MB, "The node log of a busy week.\n");
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= FILE_BYTES) return controller.close();
      const n = Math.min(MB, FILE_BYTES - sent);
      sent += n;
      controller.enqueue(piece.subarray(0, n));
    },
  });
}

async function upload(base, token) {
  const res = await fetch(`${base}/vueapi/upload/support`, {
    method: "POST",
    headers: {
      Authorization: `Bearer ${token}`,
      "X-File-Name": "week.log.txt",
      "Content-Type": "text/plain",
      "Content-Length": String(FILE_BYTES),
    },
    body: body(),
    duplex: "half",
  });
  const answer = await res.json();
  if (answer.code !== 0) throw new Error(`upload: HTTP ${res.status} ${JSON.stringify(answer)}`);
  return answer.data.uploadId;
}

async function download(base, token, ticketId) {
  const res = await fetch(`${base}/vueapi/download/support-attachment`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ ticketId }),
  });
  if (res.status !== 200) throw new Error(`download: HTTP ${res.status} ${await res.text()}`);
  const hash = createHash("sha256");
  let bytes = 0;
  for await (const chunk of res.body) {
    hash.update(chunk);
    bytes += chunk.byteLength;
  }
  if (bytes !== FILE_BYTES) throw new Error(`download: ${bytes} bytes of ${FILE_BYTES}`);
  return hash.digest("hex");
}

const pageLoad = (base) =>
  autocannon({ url: `${base}${PAGE}`, connections: PAGE_CONNECTIONS, duration: DURATION, timeout: 30 });

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), "bsn-bench-files-"));
  const common = { DATA_DIR: dataDir, SESSION_SECRET: "bench-files-secret", DEMO: "1", JOBS_INTERVAL_MS: "0" };
  try {
    // Set-up on a test server (test captcha), measured on a production server over the same data.
    const setup = await serve({ ...common, NODE_ENV: "test", TEST_CAPTCHA: "BENCH1" });
    const token = await demoToken(setup.base, "demoperson");
    await stop(setup.child);

    const product = await serve({ ...common, NODE_ENV: "production" });
    const pid = product.child.pid;
    // A ticket with a 60 MB attachment to download; everything warmed up once.
    const uploadId = await upload(product.base, token);
    const { ticketId } = await vueapi(
      product.base,
      "/sys/technicalSupport/insertTech",
      { question: "A week of logs", contactEmail: "bench@example.com", file: { uploadId } },
      token,
    );
    const expected = await download(product.base, token, ticketId);
    await autocannon({ url: `${product.base}${PAGE}`, connections: PAGE_CONNECTIONS, duration: 2 });

    const idle = await pageLoad(product.base);
    await new Promise((r) => setTimeout(r, 1000));
    const baseline = rss(pid);
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, rss(pid))), 20);
    let transfers = 0;
    let busy;
    try {
      const until = Date.now() + DURATION * 1000;
      const loop = (async () => {
        while (Date.now() < until) {
          await upload(product.base, token);
          if ((await download(product.base, token, ticketId)) !== expected) throw new Error("download: other bytes");
          transfers += 1;
        }
      })();
      busy = await pageLoad(product.base);
      await loop;
    } finally {
      clearInterval(sampler);
    }
    const addedMB = (peak - baseline) / MB;
    const ratio = busy.latency.p99 / Math.max(idle.latency.p99, 1);
    const rows = [
      { measure: `${PAGE} p99, idle (ms)`, value: idle.latency.p99, budget: "-" },
      {
        measure: `${PAGE} p99 during 60 MB uploads+downloads (ms)`,
        value: busy.latency.p99,
        budget: `< ${BUDGETS.p99OverIdle}× idle = ${BUDGETS.p99OverIdle * Math.max(idle.latency.p99, 1)}`,
      },
      { measure: "60 MB uploads+downloads done", value: transfers, budget: "≥ 1" },
      {
        measure: "server memory added (MB)",
        value: addedMB.toFixed(1),
        budget: `< ${BUDGETS.addedMemoryMB}`,
      },
      { measure: "page errors / non-2xx", value: `${busy.errors} / ${busy.non2xx}`, budget: "0 / 0" },
    ];
    console.log(`\nStored files, ${DURATION} s, ${PAGE_CONNECTIONS} page connections (Node ${process.version})`);
    console.table(rows);
    const out = path.join(root, "test-results/bench");
    mkdirSync(out, { recursive: true });
    writeFileSync(
      path.join(out, "files.json"),
      `${JSON.stringify({ at: new Date().toISOString(), durationSeconds: DURATION, fileBytes: FILE_BYTES, idleP99: idle.latency.p99, busyP99: busy.latency.p99, transfers, addedMB, budgets: BUDGETS }, null, 2)}\n`,
    );
    const broken = [];
    if (addedMB >= BUDGETS.addedMemoryMB)
      broken.push(`memory added ${addedMB.toFixed(1)} MB ≥ ${BUDGETS.addedMemoryMB}`);
    if (ratio >= BUDGETS.p99OverIdle) broken.push(`p99 ${busy.latency.p99} ms ≥ ${BUDGETS.p99OverIdle}× idle`);
    if (transfers < 1) broken.push("no 60 MB transfer finished during the measure");
    if (busy.errors > 0 || busy.non2xx > 0) broken.push("page errors during the transfers");
    if (broken.length) {
      console.error(`Budgets broken: ${broken.join("; ")}`);
      process.exitCode = 1;
    } else console.log("Budgets met.");
  } finally {
    await Promise.all(children.map(stop));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  for (const c of children) c.kill("SIGKILL");
  process.exit(1);
});
