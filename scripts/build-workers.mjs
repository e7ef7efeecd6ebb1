// Bundles every backend worker thread (backend/**/*.worker.ts) into build/workers/<name>.worker.mjs, beside the
// server bundle that starts them (backend/kit/worker.ts; docs/decisions/025). Packages stay external.
import { readdirSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";

const files = readdirSync("backend", { recursive: true })
  .map(String)
  .filter((f) => f.endsWith(".worker.ts"))
  .map((f) => path.join("backend", f));
await build({
  entryPoints: files,
  outdir: "build/workers",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  outExtension: { ".js": ".mjs" },
  entryNames: "[name]",
  logLevel: "warning",
});
console.log(`built ${files.length} worker(s): ${files.join(", ")}`);
