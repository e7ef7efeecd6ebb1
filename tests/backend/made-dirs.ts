import { rmSync } from "node:fs";

/**
 * The data directories the backend tests' own services were opened on (in-process.ts): removed when the test file
 * that made them has ended (tests/backend/setup-process.ts), not at a service's close, since a test may close its
 * service and open another on the same DATA_DIR (a restart). A run keeps its files on a memory filesystem where it
 * can (scripts/test.sh, docs/decisions/116), so what a file made must not outlive it.
 */
const made: string[] = [];

export function madeDataDir(dir: string): void {
  made.push(dir);
}

export function removeMadeDataDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

// A process that ends in the middle of a file.
process.once("exit", removeMadeDataDirs);
