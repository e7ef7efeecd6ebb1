import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { defineConfig } from "vitest/config";

const UNIT_DIRS = ["tests/unit", "app", "contract", "backend"];
const UNIT = UNIT_DIRS.flatMap((dir) => [`${dir}/**/*.test.ts`, `${dir}/**/*.test.tsx`]);
/**
 * The unit files that replace a module, a global, the timers or an environment variable for themselves: each runs in
 * a fresh module graph ("unit-isolated"). The others share their worker's modules ("unit", isolate off): most of the
 * unit run was the same imports done again for every file (237 s against 139 s, docs/decisions/110).
 */
const REPLACES = /\bvi\.(mock|doMock|unmock|stubGlobal|stubEnv|resetModules|spyOn|useFakeTimers)\(|process\.env\.\w+ =/;
const isolatedUnits = UNIT_DIRS.flatMap((dir) =>
  readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((name) => /\.test\.tsx?$/.test(name) && !name.includes("node_modules"))
    .map((name) => path.join(dir, name))
    .filter((file) => REPLACES.test(readFileSync(file, "utf8"))),
);

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          globals: true,
          environment: "node",
          include: UNIT,
          exclude: isolatedUnits,
          isolate: false,
          setupFiles: ["tests/setup/fail-on-console-error.ts"],
        },
      },
      {
        test: {
          name: "unit-isolated",
          globals: true,
          environment: "node",
          include: isolatedUnits,
          setupFiles: ["tests/setup/fail-on-console-error.ts"],
        },
      },
      {
        test: {
          name: "backend",
          globals: true,
          environment: "node",
          include: ["tests/backend/**/*.test.ts"],
          globalSetup: ["tests/backend/global-setup.ts"],
          // Every service a test opens serves the Fabric gateway on a free port (many are open at once).
          env: { FABRIC_GATEWAY_PORT: "0" },
          // The in-process services: workers from bundles made for the run, compilations remembered (docs/decisions/088).
          setupFiles: ["tests/setup/fail-on-console-error.ts", "tests/backend/setup-process.ts"],
          testTimeout: 30_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          // One worker runs the files one after another and keeps its modules: the backend is loaded once a run,
          // not once a file (docs/decisions/084). What a file opens, it closes.
          isolate: false,
        },
      },
      {
        test: {
          // The server entry over real sockets: backend faults, shutdown, security headers, compression.
          // Each file starts its own server processes (docs/decisions/016).
          name: "server",
          globals: true,
          environment: "node",
          include: ["tests/server/**/*.test.ts"],
          globalSetup: ["tests/server/global-setup.ts"],
          setupFiles: ["tests/setup/fail-on-console-error.ts"],
          testTimeout: 30_000,
          hookTimeout: 90_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
