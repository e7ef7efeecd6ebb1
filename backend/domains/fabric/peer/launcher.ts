import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

/**
 * What a chaincode process runs first (docs/decisions/064), written to `DATA_DIR/fabric/launcher.cjs` so that the
 * built server and the sources start the same file. It makes `fabric-shim` and `fabric-contract-api` resolve to
 * the product's own copies (the package declares them but never installs them), takes the peer's address and its
 * one-time chaincode id from the environment and removes them from it, and starts the package the way
 * `fabric-chaincode-node start` does (the contract-api bootstrap), with the package as the working directory.
 */
const LAUNCHER = `'use strict';
const Module = require('node:module');
const [shimDir, apiDir] = process.argv.slice(2);
const runtime = { 'fabric-shim': shimDir, 'fabric-contract-api': apiDir };
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, parent, isMain, options) {
  for (const name of Object.keys(runtime)) {
    if (request === name || request.startsWith(name + '/'))
      return resolve.call(this, runtime[name] + request.slice(name.length), parent, isMain, options);
  }
  return resolve.call(this, request, parent, isMain, options);
};
const address = process.env.CORE_PEER_ADDRESS || '';
const id = process.env.CORE_CHAINCODE_ID_NAME || '';
delete process.env.CORE_PEER_ADDRESS;
delete process.env.CORE_CHAINCODE_ID_NAME;
process.argv = [process.argv[0], __filename, '--peer.address', address, '--chaincode-id-name', id, '--module-path', process.cwd()];
require(shimDir + '/lib/contract-spi/bootstrap.js').bootstrap().catch((error) => {
  console.error('the chaincode did not start: ' + (error && error.message ? error.message : String(error)));
  process.exit(1);
});
`;

/** Writes the launcher under `fabricDir` (again only when it changed); answers its path. */
export function writeLauncher(fabricDir: string): string {
  mkdirSync(fabricDir, { recursive: true });
  const file = path.join(fabricDir, "launcher.cjs");
  if (!existsSync(file) || readFileSync(file, "utf8") !== LAUNCHER) writeFileSync(file, LAUNCHER, { mode: 0o644 });
  return file;
}

/**
 * The shim runtime: the product's fabric-shim and fabric-contract-api and every package they load, each a folder a
 * chaincode process may read (and nothing else of node_modules).
 */
export function shimRuntime(): { shim: string; api: string; readable: string[] } {
  const req = createRequire(import.meta.url);
  const dirOf = (from: string, name: string): string | null => {
    try {
      return path.dirname(createRequire(from).resolve(`${name}/package.json`));
    } catch {
      // A package without an exported package.json: walk up from its entry to the folder of its name.
      try {
        let dir = path.dirname(createRequire(from).resolve(name));
        while (path.basename(dir) !== name.split("/").pop() && dir !== path.dirname(dir)) dir = path.dirname(dir);
        return dir;
      } catch {
        return null;
      }
    }
  };
  const shim = path.dirname(req.resolve("fabric-shim/package.json"));
  const api = path.dirname(req.resolve("fabric-contract-api/package.json"));
  const seen = new Set<string>();
  const visit = (dir: string) => {
    if (seen.has(dir)) return;
    seen.add(dir);
    const pkg = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as {
      dependencies?: Record<string, string>;
      optionalDependencies?: Record<string, string>;
    };
    for (const name of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies })) {
      const found = dirOf(path.join(dir, "package.json"), name);
      if (found) visit(found);
    }
  };
  visit(shim);
  visit(api);
  return { shim, api, readable: [...seen].map((d) => d + path.sep) };
}
