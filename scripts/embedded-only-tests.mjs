#!/usr/bin/env node
// Prints the backend test files that never reach PostgreSQL, one path per line (docs/decisions/082).
//
// The PostgreSQL stage of the test command (scripts/test.sh) skips them: run there, they would run exactly what the
// PGlite stage runs. Such a file opens its services in its own process (tests/backend/in-process.ts) on a PGlite
// of their own whatever DATABASE_URL says, and never talks to the suite's server. A file counts as reaching
// PostgreSQL (and runs in both stages) when it, or a test module it imports, names DATABASE_URL, reads the suite's
// server through `inject(`, starts server processes (server-process.ts), or imports from client.ts anything but
// its plain values (which call the suite's server). When unsure, a file runs in both stages.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dir = path.join(root, "tests/backend");
/** client.ts's exports that are values only: they never call the suite's server. */
const PLAIN = new Set(["PASSWORD", "registration", "uniqueName", "Envelope", "type Envelope"]);
const REACHES = /DATABASE_URL|inject\(|server-process\.ts/;

function reachesPostgres(file, seen = new Set()) {
  if (seen.has(file)) return false;
  seen.add(file);
  const text = readFileSync(file, "utf8");
  if (REACHES.test(text)) return true;
  for (const [, names, from] of text.matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*"(\.[^"]+)"/g)) {
    const target = path.resolve(path.dirname(file), from);
    if (path.basename(target) === "client.ts") {
      if (
        names
          .split(",")
          .map((n) => n.trim())
          .some((n) => n && !PLAIN.has(n))
      )
        return true;
      continue;
    }
    // in-process.ts names DATABASE_URL for the files that pass it; a file reaches PostgreSQL only if it does itself.
    if (path.basename(target) === "in-process.ts") continue;
    if (existsSync(target) && reachesPostgres(target, seen)) return true;
  }
  return false;
}

export function embeddedOnly() {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".test.ts"))
    .map((f) => path.join(dir, f))
    .filter((f) => readFileSync(f, "utf8").includes("./in-process.ts") && !reachesPostgres(f))
    .map((f) => path.relative(root, f))
    .sort();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.stdout.write(embeddedOnly().join("\n") + "\n");
