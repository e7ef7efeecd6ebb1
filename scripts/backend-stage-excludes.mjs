#!/usr/bin/env node
// Prints the backend test files a stage of the test command skips, one path per line: `pglite` or `postgres`
// (scripts/test.sh; docs/decisions/082 and 083); `external-engines` prints the files the run against a real IPFS node
// and real EVM nodes takes instead (docs/decisions/113), and `after-second-half` those of the PostgreSQL run after the
// second PGlite half (docs/decisions/101).
//
// - The PostgreSQL stage skips the files that never reach PostgreSQL (scripts/embedded-only-tests.mjs): run there,
//   they would run exactly what the PGlite stage runs.
// - The PGlite stage skips the files that only talk to the suite's server over HTTP (overHttpOnly): the same requests
//   to the same built server, whose embedded PGlite is what every end-to-end spec drives; they run on PostgreSQL,
//   the older engine and the one of several processes. A file that opens services in its own process, starts server
//   processes, or imports a test module that does, runs in both stages (when unsure, both).
// - BOTH_STAGES keeps a file of that kind in both stages, for a reason given beside it (none now).
// - AFTER_SECOND_HALF files only talk to the suite's server over HTTP, like those of the PostgreSQL stage, but run on
//   PostgreSQL in a run of their own after the second (shorter) PGlite half, for the backend runs' balance: neither
//   stage runs them (docs/decisions/101).
// - POSTGRES_ONLY files skip themselves without DATABASE_URL: the PGlite stage does not even load them.
// - PGLITE_ONLY files start servers, or open services, of their own on the embedded default whatever DATABASE_URL
//   says: run in the PostgreSQL stage, they would run exactly what the PGlite stage runs (docs/decisions/097, 105).
// - The chain-facing suites (CHAIN_NODE_SUITES) run on PostgreSQL against real EVM nodes by URL (Hardhat, CHAIN_NODES;
//   docs/decisions/094) instead of in the PostgreSQL stage, and in the PGlite stage on the embedded engine even when
//   they only talk over HTTP: each engine is run by each of them once.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { embeddedOnly } from "./embedded-only-tests.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dir = path.join(root, "tests/backend");

/** Over-HTTP files that run in both stages anyway, and why. The security fuzzer was one until docs/decisions/101. */
export const BOTH_STAGES = {};

/**
 * Over-HTTP files run on PostgreSQL after the second PGlite half instead of in the PostgreSQL stage, and why. The
 * fuzzer ran in both stages (25 cases a path on PGlite, 8 on PostgreSQL: the same first 8, its cases come from a
 * fixed seed per path); it runs once, whole (25 cases, every role), on PostgreSQL (docs/decisions/101).
 */
export const AFTER_SECOND_HALF = {
  "tests/backend/security-fuzz.test.ts": "the longest over-HTTP file; the PostgreSQL stage is the backend's longest",
};

/** Files that only make sense on PostgreSQL (they skip themselves without DATABASE_URL), and why. */
export const POSTGRES_ONLY = {
  // A takeover of the embedded IPFS engine by another host reads its state from the shared store (docs/decisions/096).
  "tests/backend/ipfs-shared.test.ts": "a second host needs a database it can reach",
  // Two processes on one database, each engine run by the holder of its lease (docs/decisions/099).
  "tests/backend/takeover-engines.test.ts": "two processes share engines only on a database both reach",
  "tests/backend/engine-sends.test.ts": "two processes share the chains only on a database both reach",
  // A chain's snapshot is for another host, which shares only the database (docs/decisions/103).
  "tests/backend/chain-snapshots.test.ts": "snapshots are written only under the lease, on a database hosts share",
};

/** Files whose every test runs on the embedded database whatever the stage's, and why. */
export const PGLITE_ONLY = {
  // Its one server is the embedded default (server-process.ts drops DATABASE_URL): a DATA_DIR's own secret is the point.
  "tests/backend/security-embedded-ticket.test.ts": "a server of its own on the embedded default",
  // Servers of the built app on DATA_DIRs of their own (server-process.ts drops DATABASE_URL; neither file passes one).
  "tests/backend/files-migration.test.ts": "servers of its own on the embedded default; it reads their PGlite directly",
  "tests/backend/jobs-recovery.test.ts": "servers of its own on the embedded default (a kill -9 and a restart)",
  // In-process on a PGlite of their own (inProcessVueapi without DATABASE_URL). scripts/embedded-only-tests.mjs keeps
  // them in both stages when unsure: operators names DATABASE_URL to keep it from its command; demo-ledger and
  // fabric-test-job import fabric-support.ts, whose openFabric takes a URL (neither calls it); expiry names it as a
  // literal in checks of the env parser, which open nothing.
  "tests/backend/operators.test.ts": "its service and the operator:create command on the embedded default",
  "tests/backend/demo-ledger.test.ts": "its service on a PGlite of its own",
  "tests/backend/fabric-test-job.test.ts": "its service on a PGlite of its own",
  "tests/backend/expiry.test.ts": "its service on a PGlite of its own, the clock moved by the test",
};

/**
 * The chain-facing suites (issue 32 item 1): the keyed JSON-RPC and its meter, public-chain projects and gas,
 * contracts, consortium EVM services, DDC, IDE deploy and call, cross-chain; and chain-nodes.test.ts, which skips
 * itself without CHAIN_NODES. What only the embedded engine gives is tested outside them (chain-rpc.test.ts: its
 * restart, kill -9 and replay; test-services.test.ts: the test network's reset; dedicated-network.test.ts).
 */
export const CHAIN_NODE_SUITES = [
  "tests/backend/chain-nodes.test.ts",
  "tests/backend/consortium-chain.test.ts",
  "tests/backend/contracts.test.ts",
  "tests/backend/cross-chain.test.ts",
  "tests/backend/ddc.test.ts",
  "tests/backend/evm-upgrade.test.ts",
  "tests/backend/ide.test.ts",
  "tests/backend/metering.test.ts",
  "tests/backend/public-chain-gas.test.ts",
  "tests/backend/public-chain.test.ts",
];

/**
 * The IPFS suites that also run against a real IPFS node by URL (IPFS_API_URL, js-ipfs over the kubo RPC API;
 * docs/decisions/076), in the same run as the chain-facing suites on their EVM nodes (docs/decisions/113). Unlike the
 * chain suites they stay in the PostgreSQL stage too, on the embedded engine (DDC, a chain suite as well, does not).
 */
export const IPFS_NODE_SUITES = [
  "tests/backend/ddc.test.ts",
  "tests/backend/ipfs-node.test.ts",
  "tests/backend/ipfs-upgrades.test.ts",
  "tests/backend/ipfs.test.ts",
];

/** The file, or a test module it imports (relatively), opens services in-process or starts server processes. */
function ownsAService(file, seen = new Set()) {
  if (seen.has(file)) return false;
  seen.add(file);
  const text = readFileSync(file, "utf8");
  if (/in-process\.ts|server-process\.ts|openVueapi|createVueapi|spawn\(/.test(text)) return true;
  for (const [, from] of text.matchAll(/from\s*"(\.[^"]+)"/g)) {
    const target = path.resolve(path.dirname(file), from);
    if (existsSync(target) && ownsAService(target, seen)) return true;
  }
  return false;
}

/** The backend files that only call the suite's server over HTTP (and are not kept in both stages). */
export function overHttpOnly() {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".test.ts"))
    .map((f) => path.join(dir, f))
    .filter((f) => !ownsAService(f))
    .map((f) => path.relative(root, f))
    .filter((f) => !(f in BOTH_STAGES))
    .sort();
}

/** The files of the PostgreSQL run after the second PGlite half. */
export function afterSecondHalf() {
  return Object.keys(AFTER_SECOND_HALF).sort();
}

export function stageExcludes(stage) {
  if (stage === "postgres")
    return [
      ...new Set([...embeddedOnly(), ...Object.keys(PGLITE_ONLY), ...CHAIN_NODE_SUITES, ...afterSecondHalf()]),
    ].sort();
  if (stage === "pglite")
    return [...overHttpOnly(), ...Object.keys(POSTGRES_ONLY)].filter((f) => !CHAIN_NODE_SUITES.includes(f)).sort();
  if (stage === "external-engines") return [...new Set([...CHAIN_NODE_SUITES, ...IPFS_NODE_SUITES])].sort();
  if (stage === "after-second-half") return afterSecondHalf();
  throw new Error(`unknown stage "${stage}" (pglite, postgres, external-engines or after-second-half)`);
}

if (process.argv[1] === fileURLToPath(import.meta.url))
  process.stdout.write(stageExcludes(process.argv[2]).join("\n") + "\n");
