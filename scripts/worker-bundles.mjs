// The bundles of the backend's worker threads (backend/**/*.worker.ts, docs/decisions/025): one ES module per worker,
// packages left external. scripts/build-workers.mjs makes them for the built server (build/workers); the backend
// tests make their own for each run, from the sources as they are (tests/backend/global-setup.ts, docs/decisions/088).
import { readdirSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";

/** Bundles every backend worker of the project at `root` into `outdir`/<name>.worker.mjs; answers the sources bundled. */
export async function bundleBackendWorkers(root, outdir) {
  const files = readdirSync(path.join(root, "backend"), { recursive: true })
    .map(String)
    .filter((f) => f.endsWith(".worker.ts"))
    .map((f) => path.join("backend", f));
  await build({
    absWorkingDir: root,
    entryPoints: files,
    outdir,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    outExtension: { ".js": ".mjs" },
    entryNames: "[name]",
    logLevel: "warning",
  });
  return files;
}
