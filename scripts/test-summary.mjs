// Adds up the JSON reports of Vitest and Playwright and prints one closing line: "N passed, N failed".
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** The titles of the Playwright tests that passed only on a retry. */
function flakyTitles(suites, out = []) {
  for (const suite of suites) {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? [])
        if (t.status === "flaky") out.push(`[${t.projectName}] ${spec.file}:${spec.line} ${spec.title}`);
    }
    flakyTitles(suite.suites ?? [], out);
  }
  return out;
}

const dir = process.argv[2] ?? "reports/test-summary";
let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of readdirSync(dir)
  .filter((f) => f.endsWith(".json"))
  .sort()) {
  const report = JSON.parse(readFileSync(path.join(dir, file), "utf8"));
  let p = 0,
    f = 0,
    s = 0;
  if (report.stats && "expected" in report.stats) {
    // Playwright
    p = report.stats.expected + report.stats.flaky;
    f = report.stats.unexpected;
    s = report.stats.skipped;
    for (const title of flakyTitles(report.suites ?? [])) console.log(`flaky (failed once, passed on retry): ${title}`);
  } else {
    // Vitest
    p = report.numPassedTests ?? 0;
    f = (report.numFailedTests ?? 0) + (report.numRuntimeErrorTestSuites ?? 0);
    s = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  }
  console.log(`${file.replace(/\.json$/, "").padEnd(18)} ${p} passed, ${f} failed, ${s} skipped`);
  passed += p;
  failed += f;
  skipped += s;
}
if (passed === 0) {
  console.log("0 passed, 1 failed");
  process.exit(1);
}
console.log(`Tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
