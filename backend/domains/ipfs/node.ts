import { statfs } from "node:fs/promises";
import path from "node:path";
import type { Server } from "node:http";
import { and, count, eq } from "drizzle-orm";
import type { Deps } from "#backend/deps.ts";
import { waitForEngine } from "#backend/kit/engine-socket.ts";
import { EmbeddedIpfs } from "./engine/embedded.ts";
import { PeerIpfs, servePeers } from "./engine/peer.ts";
import { RemoteIpfs } from "./engine/remote.ts";
import type { IpfsEngine } from "./engine/types.ts";
import { ipfsBlocks, ipfsFiles } from "./tables.ts";

/**
 * The IPFS engine of this process (docs/decisions/039): embedded, a kubo node with IPFS_API_URL, or in a cluster
 * the owner's engine (docs/decisions/031): the owner opens the embedded engine and serves the peers on
 * `<BSN_ENGINES_SOCKET>-ipfs`. The embedded engine keeps its state under DATA_DIR/ipfs with the embedded
 * database and file store, and in the shared file store and database otherwise (docs/decisions/096).
 */
type Node = { engine: IpfsEngine; socket?: Server; opened?: { roots: number; blocks: number; removed: number } };
const nodes = new WeakMap<Deps, Node>();
/** The same by configuration: an audited operator path's handler gets a copy of the deps. */
const nodesByEnv = new WeakMap<Deps["env"], Node>();

export function engineOf(deps: Deps): IpfsEngine {
  const node = nodes.get(deps) ?? nodesByEnv.get(deps.env);
  if (!node) throw new Error("the ipfs domain has not started");
  return node.engine;
}

/**
 * The embedded engine over the state the configuration gives (not opened): on disk under `dir` (DATA_DIR/ipfs)
 * when the file store is DATA_DIR's own, else in the shared file store and database, where a process on
 * another host that takes the engine over finds it.
 */
export function embeddedEngine(deps: Pick<Deps, "db" | "env" | "files">, dir = path.join(deps.env.dataDir, "ipfs")) {
  const blobs = deps.files.blobs;
  return new EmbeddedIpfs(dir, blobs.kind === "fs" ? undefined : { db: deps.db, blobs });
}

/** Whether a blob of the file store is one of the embedded engine's blocks (the blob sweep leaves it). */
export async function namesBlob(db: Deps["db"], address: string): Promise<boolean> {
  const rows = await db
    .select({ address: ipfsBlocks.address })
    .from(ipfsBlocks)
    .where(eq(ipfsBlocks.address, address))
    .limit(1);
  return rows.length > 0;
}

export async function startEngine(deps: Deps): Promise<void> {
  const env = deps.env;
  let node: Node;
  if (env.ipfs.kind === "remote") {
    const db = deps.db;
    const countOf = async (cid: string) =>
      (
        await db
          .select({ n: count() })
          .from(ipfsFiles)
          .where(and(eq(ipfsFiles.cid, cid)))
      )[0].n;
    node = { engine: new RemoteIpfs(env.ipfs.url, countOf) };
  } else if (env.cluster?.role === "peer") {
    await waitForEngine(env, "ipfs", "/repo");
    node = { engine: new PeerIpfs(env) };
  } else {
    const engine = embeddedEngine(deps);
    const opened = await engine.open();
    if (engine.copied)
      console.warn(
        `ipfs: ${engine.copied.blocks} block(s) and ${engine.copied.pins} pin(s) were copied from DATA_DIR/ipfs into the shared store; the folder is now ${engine.copied.movedTo}`,
      );
    if (opened.removed) console.warn(`ipfs: ${opened.removed} block(s) no pin references were removed at start`);
    node = { engine, opened };
    if (env.cluster?.role === "owner") node.socket = await servePeers(env, engine);
  }
  nodes.set(deps, node);
  nodesByEnv.set(env, node);
}

export async function stopEngine(deps: Deps): Promise<void> {
  const node = nodes.get(deps);
  if (!node) return;
  await new Promise((resolve) => (node.socket ? node.socket.close(resolve) : resolve(undefined)));
  await node.engine.close();
  nodes.delete(deps);
  nodesByEnv.delete(deps.env);
}

/** /healthz: the engine, its blocks and bytes, and the free disk under DATA_DIR (embedded). */
export async function engineHealth(deps: Deps): Promise<Record<string, unknown>> {
  const engine = engineOf(deps);
  try {
    const repo = await engine.repoStats();
    let freeDiskBytes: number | null = null;
    if (engine.kind !== "remote") {
      const fs = await statfs(deps.env.dataDir);
      freeDiskBytes = Number(fs.bavail) * Number(fs.bsize);
    }
    // Where the embedded engine keeps its blocks and pins: "disk" (DATA_DIR/ipfs) or "shared".
    const state = engine instanceof EmbeddedIpfs ? engine.stateKind : null;
    return { engine: engine.kind, ok: true, state, blocks: repo.blocks, bytes: repo.bytes, freeDiskBytes };
  } catch (error) {
    return { engine: engine.kind, ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}
