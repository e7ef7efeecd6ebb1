// npm run bench:lighthouse (issue 34): Lighthouse's mobile audit (its default: a Moto G Power-sized screen,
// simulated slow 4G and a 4× slower CPU) of the landing, register and documentation pages of the built product,
// in Debian's Chromium. Budgets: performance ≥ 98, accessibility, best practices and SEO 100; a broken budget
// exits 1. Nothing here downloads a browser (docs/decisions/115). See bench/README.md.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { launch } from "chrome-launcher";
import lighthouse from "lighthouse";
import { benchDir, children, root, serve, stop } from "./servers.mjs";

const PAGES = [
  ["landing", "/g/main/index"],
  ["register", "/g/main/register"],
  ["documentation", "/g/main/documentation"],
];
/** Minimum scores, 0-100. */
const BUDGETS = { performance: 98, accessibility: 100, "best-practices": 100, seo: 100 };
/** Runs per page (BENCH_LIGHTHOUSE_RUNS): the run with the median performance score is the one reported. */
const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);

/** CHROME_PATH, else Debian's Chromium or its headless shell; never a downloaded browser. */
function chromePath() {
  const candidates = [process.env.CHROME_PATH, "/usr/bin/chromium", "/usr/bin/chromium-headless-shell"];
  const found = candidates.find((p) => p && existsSync(p));
  if (!found) throw new Error("no Chromium: install Debian's chromium (or chromium-headless-shell) or set CHROME_PATH");
  return found;
}

/** The audits of a category that cost it points, worst first: title, Lighthouse's figure and its first items. */
function failing(lhr, category) {
  return lhr.categories[category].auditRefs
    .map((ref) => ({ ref, audit: lhr.audits[ref.id] }))
    .filter(({ audit }) => audit.score !== null && audit.score < 1 && audit.scoreDisplayMode !== "informative")
    .filter(({ ref, audit }) => ref.weight > 0 || audit.scoreDisplayMode === "metricSavings")
    .sort((a, b) => a.audit.score - b.audit.score)
    .map(({ audit }) => ({
      id: audit.id,
      title: audit.title,
      displayValue: audit.displayValue,
      // The first few items (the elements, requests or issues it found), for the JSON record.
      items: (audit.details?.items ?? []).slice(0, 5),
    }));
}

async function main() {
  if (!existsSync(path.join(root, "build/index.js"))) throw new Error("no build/: run `npm run build` first");
  // The product as in production, on a fresh embedded database with the demo data (the landing's city nodes).
  const { base, child } = await serve({
    DATA_DIR: benchDir("bsn-lighthouse-"),
    SESSION_SECRET: "bench-secret",
    COOKIE_SECURE: "0",
    DEMO: "1",
    NODE_ENV: "production",
  });
  // Root in a container has no sandbox to drop into; the headless shell is headless already.
  const chrome = await launch({
    chromePath: chromePath(),
    chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
  const results = [];
  try {
    for (const [name, urlPath] of PAGES) {
      const runs = [];
      for (let i = 0; i < RUNS; i++) {
        const { lhr } = await lighthouse(`${base}${urlPath}`, {
          port: chrome.port,
          logLevel: "error",
          output: "json",
          onlyCategories: Object.keys(BUDGETS),
        });
        if (lhr.runtimeError) throw new Error(`${urlPath}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
        runs.push(lhr);
      }
      runs.sort((a, b) => a.categories.performance.score - b.categories.performance.score);
      const lhr = runs[Math.floor(runs.length / 2)];
      const scores = Object.fromEntries(
        Object.keys(BUDGETS).map((c) => [c, Math.round((lhr.categories[c].score ?? 0) * 100)]),
      );
      const failures = Object.fromEntries(
        Object.keys(BUDGETS)
          .filter((c) => scores[c] < BUDGETS[c])
          .map((c) => [c, failing(lhr, c)]),
      );
      results.push({
        name,
        path: urlPath,
        scores,
        performanceRuns: runs.map((r) => Math.round(r.categories.performance.score * 100)),
        failures,
        lighthouseVersion: lhr.lighthouseVersion,
        userAgent: lhr.environment.hostUserAgent,
      });
    }
  } finally {
    chrome.kill();
    await stop(child);
  }

  console.log(
    `\nLighthouse ${results[0]?.lighthouseVersion} (mobile, simulated slow 4G, 4× CPU) in ${chromePath()}; of ${RUNS}` +
      ` run(s) per page, the one with the median performance score\n`,
  );
  console.table(
    results.map((r) => ({
      page: `${r.name} ${r.path}`,
      ...Object.fromEntries(
        Object.keys(BUDGETS).map((c) => [
          `${c} (≥ ${BUDGETS[c]})`,
          `${r.scores[c]}${r.scores[c] < BUDGETS[c] ? " ✗" : ""}`,
        ]),
      ),
      "performance runs": r.performanceRuns.join(", "),
    })),
  );
  const broken = [];
  for (const r of results)
    for (const [category, audits] of Object.entries(r.failures)) {
      broken.push(`${r.path} ${category} ${r.scores[category]} < ${BUDGETS[category]}`);
      console.log(`\n${r.path}, ${category} ${r.scores[category]} (≥ ${BUDGETS[category]}):`);
      for (const a of audits) console.log(`  - ${a.title}${a.displayValue ? ` (${a.displayValue})` : ""}`);
    }
  const out = path.join(root, "test-results/bench");
  mkdirSync(out, { recursive: true });
  writeFileSync(
    path.join(out, "lighthouse.json"),
    JSON.stringify({ date: new Date().toISOString(), runs: RUNS, budgets: BUDGETS, results, broken }, null, 2),
  );
  if (broken.length) {
    console.log(`\nBudgets broken:\n- ${broken.join("\n- ")}`);
    process.exitCode = 1;
  } else {
    console.log("\nAll budgets met.");
  }
}

try {
  await main();
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  for (const c of children) if (c.exitCode === null) c.kill("SIGTERM");
}
