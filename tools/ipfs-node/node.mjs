#!/usr/bin/env node
// A throwaway offline IPFS node for the tests (docs/decisions/076): js-ipfs 0.66.1 (`ipfs-core` with its own
// `ipfs-http-server`), serving the kubo RPC API (/api/v0/add, cat, pin/*, block/stat, repo/stat, ...) on
// 127.0.0.1 and nothing else: no swarm listeners, no HTTP gateway, no gRPC, no bootstrap peers, no delegates,
// no MDNS, no preload, no pubsub; `offline: true` never starts libp2p, so nothing dials out.
//
//   node tools/ipfs-node/node.mjs [--port N] [--repo DIR] [--with-parent]
//
// Its repository goes in a new temporary directory (or DIR, which must not hold a repository yet) and the API on
// a free port (or N). When the API answers, one line goes to stdout: `IPFS_API_URL=http://127.0.0.1:<port>`.
// SIGTERM or SIGINT stops it cleanly (the API closes, the repository is closed, then removed if made here);
// with --with-parent it also stops when the process that started it has gone.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { create } from "ipfs-core";
import { HttpApi } from "ipfs-http-server";

const { values } = parseArgs({
  options: { port: { type: "string", default: "0" }, repo: { type: "string" }, "with-parent": { type: "boolean" } },
});
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port: not a port: ${values.port}`);
const madeHere = !values.repo;
const repo = values.repo ?? mkdtempSync(path.join(tmpdir(), "bsn-ipfs-node-"));

const ipfs = await create({
  repo,
  offline: true,
  silent: true,
  start: true,
  preload: { enabled: false },
  init: { emptyRepo: true, algorithm: "Ed25519" },
  config: {
    Addresses: {
      API: `/ip4/127.0.0.1/tcp/${port}`,
      Gateway: [],
      RPC: [],
      Swarm: [],
      Announce: [],
      NoAnnounce: [],
      Delegates: [],
    },
    Bootstrap: [],
    Discovery: { MDNS: { Enabled: false }, webRTCStar: { Enabled: false } },
    Pubsub: { Enabled: false },
  },
});
const api = new HttpApi(ipfs);
await api.start();
const url = `http://127.0.0.1:${api._apiServers[0].info.port}`;
process.stdout.write(`IPFS_API_URL=${url}\n`);

let stopping = false;
async function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  try {
    await api.stop();
    await ipfs.stop();
  } finally {
    if (madeHere) rmSync(repo, { recursive: true, force: true });
  }
  process.exit(code);
}
process.on("SIGTERM", () => void stop());
process.on("SIGINT", () => void stop());
if (values["with-parent"]) {
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) void stop();
  }, 1000).unref();
}
