import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";

/** The server tests start the real built server (server/index.js + build/index.js): build it when missing. */
export default function setup() {
  const root = path.resolve(__dirname, "../..");
  if (existsSync(path.join(root, "build/index.js"))) return;
  const built = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  if (built.status !== 0) throw new Error("npm run build failed");
}
