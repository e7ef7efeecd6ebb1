// After `remix build` (npm run build): writes a gzip twin (level 9) beside each text asset of public/build,
// so that the server sends it without compressing per request (server/static.js, docs/decisions/016).
// Twins that do not save at least a tenth, or whose source is gone, are removed.
import { existsSync, readdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { constants, gzipSync } from "node:zlib";

const dir = path.resolve(process.argv[2] ?? "public/build");
const TEXT = new Set([".js", ".mjs", ".css", ".map", ".json", ".svg", ".txt", ".html"]);
const MIN_BYTES = 1024;

if (!existsSync(dir)) {
  console.error(`precompress: ${dir} does not exist (run remix build first)`);
  process.exit(1);
}
let written = 0;
let before = 0;
let after = 0;
for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile()) continue;
  const file = path.join(entry.parentPath, entry.name);
  if (file.endsWith(".gz")) {
    if (!existsSync(file.slice(0, -3))) unlinkSync(file);
    continue;
  }
  const twin = `${file}.gz`;
  const size = statSync(file).size;
  if (!TEXT.has(path.extname(file)) || size < MIN_BYTES) continue;
  if (existsSync(twin) && statSync(twin).mtimeMs >= statSync(file).mtimeMs) continue;
  const gz = gzipSync(readFileSync(file), { level: constants.Z_BEST_COMPRESSION });
  if (gz.length > size * 0.9) {
    if (existsSync(twin)) unlinkSync(twin);
    continue;
  }
  writeFileSync(twin, gz);
  written += 1;
  before += size;
  after += gz.length;
}
console.log(
  `precompress: ${written} gzip twins in ${path.relative(process.cwd(), dir)} (${Math.round(before / 1024)} KB → ${Math.round(after / 1024)} KB)`,
);
