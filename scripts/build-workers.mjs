// Bundles every backend worker thread (backend/**/*.worker.ts) into build/workers/<name>.worker.mjs, beside the
// server bundle that starts them (backend/kit/worker.ts; docs/decisions/025). Packages stay external.
// Also the browser's Web Workers (app/workers/*.worker.ts) into public/build/workers/<name>-<hash>.js, with
// manifest.json there naming each (the page's captcha solver, docs/decisions/061).
import { readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import { bundleBackendWorkers } from "./worker-bundles.mjs";

const files = await bundleBackendWorkers(process.cwd(), "build/workers");
console.log(`built ${files.length} worker(s): ${files.join(", ")}`);

const browserFiles = readdirSync("app/workers")
  .filter((f) => f.endsWith(".worker.ts"))
  .map((f) => path.join("app/workers", f));
const browser = await build({
  entryPoints: browserFiles,
  outdir: "public/build/workers",
  bundle: true,
  minify: true,
  platform: "browser",
  format: "iife",
  target: "es2020",
  entryNames: "[name]-[hash]",
  metafile: true,
  logLevel: "warning",
});
const manifest = Object.fromEntries(
  Object.entries(browser.metafile.outputs)
    .filter(([, output]) => output.entryPoint)
    .map(([file, output]) => [path.basename(output.entryPoint, ".ts"), `/build/workers/${path.basename(file)}`]),
);
writeFileSync("public/build/workers/manifest.json", `${JSON.stringify(manifest, null, 2)}\n`);
console.log(`built ${browserFiles.length} browser worker(s): ${Object.values(manifest).join(", ")}`);
