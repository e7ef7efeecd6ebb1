#!/usr/bin/env node
// Prints the backend test files a stage of the test command skips, one path per line: `pglite` or `postgres`
// (scripts/test.sh; docs/decisions/082 and 083).
//
// - The PostgreSQL stage skips the files that never reach PostgreSQL (scripts/embedded-only-tests.mjs): run there,
//   they would run exactly what the PGlite stage runs.
// - The PGlite stage skips the files that only talk to the suite's server over HTTP (overHttpOnly): the same requests
//   to the same built server, whose embedded PGlite is what every end-to-end spec drives; they run on PostgreSQL,
//   the older engine and the one of several processes. A file that opens services in its own process, starts server
//   processes, or imports a test module that does, runs in both stages (when unsure, both).
// - BOTH_STAGES keeps a file of that kind in both stages, for a reason given beside it.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { embeddedOnly } from "./embedded-only-tests.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dir = path.join(root, "tests/backend");

/** Over-HTTP files that run in both stages anyway, and why. */
export const BOTH_STAGES = {
  // Its depth differs by stage on purpose: 25 cases a path on PGlite, 8 on PostgreSQL (its own header).
  "tests/backend/security-fuzz.test.ts": "fuzz depth per stage",
};

/** The file, or a test module it imports (relatively), opens services in-process or starts server processes. */
function ownsAService(file, seen = new Set()) {
  if (seen.has(file)) return false;
  seen.add(file);
  const text = readFileSync(file, "utf8");
  if (/in-process\.ts|server-process\.ts|openVueapi|createVueapi|spawn\(/.test(text)) return true;
  for (const [, from] of text.matchAll(/from\s*"(\.[^"]+)"/g)) {
    const target = path.resolve(path.dirname(file), from);
    if (existsSync(target) && ownsAService(target, seen)) return true;
  }
  return false;
}

/** The backend files that only call the suite's server over HTTP (and are not kept in both stages). */
export function overHttpOnly() {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".test.ts"))
    .map((f) => path.join(dir, f))
    .filter((f) => !ownsAService(f))
    .map((f) => path.relative(root, f))
    .filter((f) => !(f in BOTH_STAGES))
    .sort();
}

export function stageExcludes(stage) {
  if (stage === "postgres") return embeddedOnly();
  if (stage === "pglite") return overHttpOnly();
  throw new Error(`unknown stage "${stage}" (pglite or postgres)`);
}

if (process.argv[1] === fileURLToPath(import.meta.url))
  process.stdout.write(stageExcludes(process.argv[2]).join("\n") + "\n");
