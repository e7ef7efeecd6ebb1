// Adds up the JSON reports of Vitest and Playwright and prints one closing line: "Tests: N passed, N failed, N skipped".
// With the stages file of scripts/test.sh (stages.tsv: name, exit code, seconds, the machine's busy per cent meanwhile),
// first prints each stage's result and minutes (and the run's wall-clock minutes, the second argument), and exits
// non-zero when any stage failed, also one without a report (build, typecheck, lint).
import { existsSync, readdirSync, readFileSync } from "node:fs";
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

/** The Playwright tests that failed, with the first lines of their error. */
function failedPlaywright(suites, out = []) {
  for (const suite of suites) {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        if (t.status !== "unexpected") continue;
        const error = t.results?.at(-1)?.error?.message ?? "";
        out.push(`[${t.projectName}] ${spec.file}:${spec.line} ${spec.title}\n      ${errorLines(error)}`);
      }
    }
    failedPlaywright(suite.suites ?? [], out);
  }
  return out;
}

/** The Vitest tests (and files that failed to run) with the first lines of their error. */
function failedVitest(report) {
  const out = [];
  for (const file of report.testResults ?? []) {
    const name = path.relative(process.cwd(), file.name ?? "");
    const failedTests = (file.assertionResults ?? []).filter((t) => t.status === "failed");
    for (const t of failedTests) out.push(`${name} › ${t.fullName}\n      ${errorLines(t.failureMessages?.[0] ?? "")}`);
    if (failedTests.length === 0 && file.status === "failed")
      out.push(`${name}\n      ${errorLines(file.message ?? "")}`);
  }
  return out;
}

function errorLines(text) {
  // The message's lines, not its stack frames: a child process's error ("node:events:502", then "throw er;", then
  // the error itself) says nothing in its first line alone.
  const lines = String(text)
    .replace(/\u001b\[[0-9;]*m/g, "")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !/^at /.test(l))
    .slice(0, 4);
  // Vitest reports a timeout by the stack of the hook or test it registered, named STACK_TRACE_ERROR.
  if (lines[0] === "Error: STACK_TRACE_ERROR")
    lines[0] = "timed out (Vitest names the timeout's stack STACK_TRACE_ERROR)";
  return lines.join(" ⏎ ").slice(0, 600);
}

const dir = process.argv[2] ?? "reports/test-summary";

const stagesFile = path.join(dir, "stages.tsv");
const stages = existsSync(stagesFile)
  ? readFileSync(stagesFile, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => {
        const [name, code, seconds, busy] = line.split("\t");
        return { name, code: Number(code), seconds: Number(seconds), busy: busy ? Number(busy) : undefined };
      })
  : [];
const failedStages = stages.filter((s) => s.code !== 0);
if (stages.length > 0) {
  console.log("Stages:");
  for (const s of stages) {
    const result = s.code === 0 ? "ok" : `FAILED (exit ${s.code})`;
    const busy = s.busy === undefined ? "" : ` (machine ${s.busy} % busy)`;
    console.log(`  ${result.padEnd(16)} ${(s.seconds / 60).toFixed(1).padStart(5)} min  ${s.name}${busy}`);
  }
  // Some stages run side by side (scripts/test.sh): the run's own clock, when given, is the time it took.
  const wall = Number(process.argv[3]);
  const total = Number.isFinite(wall) && wall > 0 ? wall : stages.reduce((n, s) => n + s.seconds, 0);
  console.log(`  ${failedStages.length} of ${stages.length} stages failed, ${(total / 60).toFixed(1)} min in all`);
}

const failures = [];
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
    for (const f of failedPlaywright(report.suites ?? [])) failures.push(`${file}: ${f}`);
  } else {
    // Vitest
    p = report.numPassedTests ?? 0;
    f = (report.numFailedTests ?? 0) + (report.numRuntimeErrorTestSuites ?? 0);
    s = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
    for (const f of failedVitest(report)) failures.push(`${file}: ${f}`);
  }
  console.log(`${file.replace(/\.json$/, "").padEnd(18)} ${p} passed, ${f} failed, ${s} skipped`);
  passed += p;
  failed += f;
  skipped += s;
}
// Last, so that the tail of a long log names what failed.
if (failures.length > 0) {
  console.log("Failed:");
  for (const f of failures) console.log(`  ${f}`);
}
if (passed === 0) {
  console.log("0 passed, 1 failed");
  process.exit(1);
}
console.log(`Tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || failedStages.length > 0 ? 1 : 0);
