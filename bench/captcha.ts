// What a script gets out of the captcha (issue 29 item 3; docs/decisions/061): `npm run bench:captcha`.
// 1. The OCR attacker of the regression test (tests/support/captcha-ocr.ts) on BENCH_OCR (100) hardened images
//    drawn with crypto randomness, and on as many of the plain style (the attacker's proof of being real).
// 2. A scripted proof-of-work solver: altcha-lib's solveChallenge in Node, one thread, on BENCH_POW (20)
//    challenges as the server makes them; CPU-seconds per solution (process.cpuUsage), budget ≥ 0.5 expected.
// 3. The browser: the built worker (public/build/workers, `npm run build` first) in Chromium (Playwright), on
//    the same challenges; mean and worst wall time per solution, times 4 for Lighthouse's slowdown (which
//    DevTools does not apply to workers); budget: mean under 1 s. Exits 1 when a budget is broken.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createChallenge, solveChallenge } from "altcha-lib";
import { chromium } from "@playwright/test";
import { captchaText, renderCaptcha } from "#backend/domains/accounts/captcha-image.ts";
import { POW_MAX_NUMBER } from "#backend/domains/accounts/captcha-pow.ts";
import { ocrAttacker } from "../tests/support/captcha-ocr.ts";

const OCR = Number(process.env.BENCH_OCR ?? 100);
const POW = Number(process.env.BENCH_POW ?? 20);
const CPU_BUDGET_S = 0.5;
const BROWSER_BUDGET_MS = 1_000;
let failed = false;

// 1. OCR.
const read = ocrAttacker();
for (const hardened of [true, false]) {
  let accepted = 0;
  for (let i = 0; i < OCR; i++) {
    const answer = captchaText();
    if (read(renderCaptcha(answer, { hardened })) === answer) accepted++;
  }
  console.log(`OCR attacker, ${hardened ? "hardened (served)" : "plain style"}: ${accepted} of ${OCR} accepted`);
  if (hardened && accepted > 0) failed = true;
}

// 2. The scripted solver.
const challenges = await Promise.all(
  Array.from({ length: POW }, () =>
    createChallenge({ hmacKey: "bench", maxnumber: POW_MAX_NUMBER, expires: new Date(Date.now() + 3_600_000) }),
  ),
);
const before = process.cpuUsage();
let tries = 0;
for (const c of challenges) {
  const solution = await solveChallenge(c.challenge, c.salt, c.algorithm, c.maxnumber).promise;
  if (!solution) throw new Error("a challenge without a solution");
  tries += solution.number + 1;
}
const used = process.cpuUsage(before);
const cpuSeconds = (used.user + used.system) / 1e6;
// The sample's mean swings with the random numbers drawn; the expectation is the CPU per try times the mean
// number of tries (maxnumber / 2 + 1), and that is what the budget checks.
const expected = (cpuSeconds / tries) * (POW_MAX_NUMBER / 2 + 1);
console.log(
  `scripted solver (altcha-lib solveChallenge, Node, one thread), maxnumber ${POW_MAX_NUMBER}: ` +
    `${((cpuSeconds / tries) * 1e6).toFixed(1)} µs CPU a try; ${expected.toFixed(3)} CPU-s per solution expected, ` +
    `${(cpuSeconds / POW).toFixed(3)} in this sample of ${POW} (budget: expected ≥ ${CPU_BUDGET_S})`,
);
if (expected < CPU_BUDGET_S) failed = true;

// 3. The browser's worker.
const manifest = JSON.parse(readFileSync("public/build/workers/manifest.json", "utf8")) as Record<string, string>;
const workerSource = readFileSync(`public${manifest["captcha-pow.worker"]}`, "utf8");
// Served from 127.0.0.1, a secure context (WebCrypto, which the solver uses, exists only in one).
const server = createServer((req, res) => {
  if (req.url === "/worker.js") res.writeHead(200, { "Content-Type": "text/javascript" }).end(workerSource);
  else res.writeHead(200, { "Content-Type": "text/html" }).end("<!doctype html><title>captcha bench</title>");
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--headless", "--disable-gpu"],
});
try {
  {
    const page = await browser.newPage();
    await page.goto(origin);
    const times = await page.evaluate(async (list) => {
      const out: number[] = [];
      for (const c of list) {
        const started = performance.now();
        const worker = new Worker("/worker.js");
        await new Promise<void>((resolve, reject) => {
          worker.onmessage = (event) => (event.data ? resolve() : reject(new Error("no solution")));
          worker.onerror = () => reject(new Error("worker failed"));
          worker.postMessage(c);
        });
        worker.terminate();
        out.push(performance.now() - started);
      }
      return out;
    }, challenges);
    const mean = times.reduce((a, b) => a + b, 0) / times.length;
    const worst = Math.max(...times);
    // DevTools' CPU throttling (Emulation.setCPUThrottlingRate) slows the page's main thread, not its workers,
    // so Lighthouse's 4× slowdown is applied here as 4× the measured time.
    console.log(
      `browser worker (Chromium): mean ${mean.toFixed(0)} ms, worst ${worst.toFixed(0)} ms per solution over ` +
        `${times.length}; at a 4× slowdown: mean ${(4 * mean).toFixed(0)} ms, worst ${(4 * worst).toFixed(0)} ms ` +
        `(budget: mean under ${BROWSER_BUDGET_MS} ms)`,
    );
    if (4 * mean >= BROWSER_BUDGET_MS) failed = true;
    await page.close();
  }
} finally {
  await browser.close();
  server.close();
}
if (failed) {
  console.error("a captcha budget is broken");
  process.exit(1);
}
