import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll } from "vitest";

/**
 * A temporary directory for one test file, removed after the file's tests (and after its own `afterAll` hooks, which
 * run before this one: servers started in it have stopped by then). Import it from test files only: the hook is
 * registered on the importing file.
 */
const made: string[] = [];

afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

export function scratchDir(prefix: string): string {
  // Inside a parent of its own, so what the code under test puts beside it (a restore's `<dir>.replaced-<time>`)
  // goes with it.
  const parent = mkdtempSync(path.join(tmpdir(), prefix));
  made.push(parent);
  const dir = path.join(parent, "d");
  mkdirSync(dir);
  return dir;
}
