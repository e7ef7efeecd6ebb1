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
import { ipfsFiles } from "./tables.ts";

/**
 * The IPFS engine of this process (docs/decisions/039): embedded under DATA_DIR/ipfs, a kubo node with
 * IPFS_API_URL, or in a cluster the owner's engine (docs/decisions/031): the owner opens the embedded engine
 * and serves the peers on `<BSN_ENGINES_SOCKET>-ipfs`.
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
    const engine = new EmbeddedIpfs(path.join(env.dataDir, "ipfs"));
    const opened = await engine.open();
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
    return { engine: engine.kind, ok: true, blocks: repo.blocks, bytes: repo.bytes, freeDiskBytes };
  } catch (error) {
    return { engine: engine.kind, ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}
