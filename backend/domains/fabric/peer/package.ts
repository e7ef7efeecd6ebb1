import { createHash, randomBytes } from "node:crypto";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { strFromU8, unzipSync } from "fflate";
import semver from "semver";
import { centralDirectory, entriesProblem, isUnsafeEntryName } from "#backend/kit/zip-safety.ts";

/** The shim runtime's version: what a package's declared ranges must allow (docs/decisions/064). */
export const SHIM_VERSION = "2.5.8";
const RUNTIME = new Set(["fabric-shim", "fabric-contract-api"]);
const INSTALL_SCRIPTS = ["preinstall", "install", "postinstall"];

export type PackageCheck =
  | { ok: true; files: Record<string, Uint8Array>; main: string; name: string; version: string }
  | { ok: false; problems: string[] };

type Manifest = {
  name?: unknown;
  version?: unknown;
  main?: unknown;
  scripts?: Record<string, unknown>;
  dependencies?: Record<string, unknown>;
  optionalDependencies?: Record<string, unknown>;
  peerDependencies?: Record<string, unknown>;
  bundleDependencies?: unknown;
  bundledDependencies?: unknown;
};

const parse = (bytes: Uint8Array | undefined): Manifest | null => {
  if (!bytes) return null;
  try {
    const value: unknown = JSON.parse(strFromU8(bytes));
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Manifest) : null;
  } catch {
    return null;
  }
};

/**
 * The package check of a Node.js chaincode zip (issue 28 item 1), for the test job and the install: a safe zip
 * (the zip-safety kit) with a package.json at its root (or in its one top folder) whose `main` file exists; its
 * dependencies (also optional and peer ones) only `fabric-shim` and `fabric-contract-api`, each with a range
 * 2.5.8 satisfies; anything vendored under `node_modules/` without install scripts. Each refusal names what.
 */
export function checkPackage(zip: Uint8Array): PackageCheck {
  const entries = centralDirectory(zip);
  if (!entries) return { ok: false, problems: ["the package is not a readable zip"] };
  const problem = entriesProblem(entries);
  if (problem) return { ok: false, problems: [`the zip is unsafe (${problem})`] };
  let raw: Record<string, Uint8Array>;
  try {
    raw = unzipSync(zip);
  } catch {
    return { ok: false, problems: ["the package is not a readable zip"] };
  }
  const names = Object.keys(raw).filter((n) => !n.endsWith("/") && !isUnsafeEntryName(n));
  const tops = new Set(names.map((n) => n.split("/")[0]));
  const prefix =
    !raw["package.json"] && tops.size === 1 && names.every((n) => n.includes("/")) ? `${[...tops][0]}/` : "";
  const files: Record<string, Uint8Array> = {};
  for (const name of names) files[name.slice(prefix.length)] = raw[name]!;

  const manifest = parse(files["package.json"]);
  if (!manifest) return { ok: false, problems: ["package.json is missing or is not a JSON object"] };
  const problems: string[] = [];
  const declared = { ...manifest.peerDependencies, ...manifest.optionalDependencies, ...manifest.dependencies };
  for (const [name, range] of Object.entries(declared)) {
    if (!RUNTIME.has(name)) {
      problems.push(`dependency ${name} is not allowed: only fabric-shim and fabric-contract-api may be declared`);
      continue;
    }
    if (typeof range !== "string" || !semver.validRange(range) || !semver.satisfies(SHIM_VERSION, range))
      problems.push(`dependency ${name}@${String(range)} is not satisfied by the shim runtime ${SHIM_VERSION}`);
  }
  for (const bundled of [manifest.bundleDependencies, manifest.bundledDependencies])
    if (Array.isArray(bundled) && bundled.length)
      problems.push("bundledDependencies are not allowed: vendor them under node_modules/");
  for (const [name, bytes] of Object.entries(files)) {
    const parts = name.split("/");
    if (parts[0] !== "node_modules" || parts[parts.length - 1] !== "package.json") continue;
    const vendored = parse(bytes);
    const label = parts.slice(1, -1).join("/");
    if (vendored && INSTALL_SCRIPTS.some((s) => typeof vendored.scripts?.[s] === "string"))
      problems.push(`vendored package ${label} has an install script, which is not allowed`);
    if (files[`${parts.slice(0, -1).join("/")}/binding.gyp`])
      problems.push(`vendored package ${label} builds a native addon, which is not allowed`);
  }
  if (Object.keys(files).some((n) => n.endsWith(".node"))) problems.push("native addons (.node files) are not allowed");
  const main = typeof manifest.main === "string" && manifest.main ? manifest.main : "index.js";
  const mainFile = path.posix.normalize(main.replace(/^\.\//, ""));
  if (!files[mainFile] && !files[`${mainFile}.js`] && !files[`${mainFile}/index.js`])
    problems.push(`the main file ${main} is not in the package`);
  if (problems.length) return { ok: false, problems };
  return {
    ok: true,
    files,
    main: mainFile,
    name: typeof manifest.name === "string" ? manifest.name : "",
    version: typeof manifest.version === "string" ? manifest.version : "",
  };
}

export const digestOf = (zip: Uint8Array) => createHash("sha256").update(zip).digest("hex");

/** Unpacks a checked package into `dir` (written beside it first, then renamed: a crash leaves no half package). */
export async function unpack(files: Record<string, Uint8Array>, dir: string): Promise<void> {
  const temp = `${dir}.tmp-${randomBytes(4).toString("hex")}`;
  await mkdir(temp, { recursive: true });
  try {
    for (const [name, bytes] of Object.entries(files)) {
      const target = path.join(temp, name);
      if (!target.startsWith(temp + path.sep)) throw new Error(`unsafe entry ${name}`);
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, bytes, { mode: 0o644 });
    }
    await rm(dir, { recursive: true, force: true });
    await rename(temp, dir);
  } catch (error) {
    await rm(temp, { recursive: true, force: true });
    throw error;
  }
}
