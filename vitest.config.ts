import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          globals: true,
          environment: "node",
          include: [
            "tests/unit/**/*.test.ts",
            "tests/unit/**/*.test.tsx",
            "app/**/*.test.ts",
            "contract/**/*.test.ts",
            "backend/**/*.test.ts",
          ],
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
