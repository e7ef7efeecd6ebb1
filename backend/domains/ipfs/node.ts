import { statfs } from "node:fs/promises";
import path from "node:path";
import { and, count, eq } from "drizzle-orm";
import type { Deps } from "#backend/deps.ts";
import { EmbeddedIpfs } from "./engine/embedded.ts";
import { LeasedIpfs } from "./engine/leased.ts";
import { RemoteIpfs } from "./engine/remote.ts";
import type { Fence } from "./engine/shared-state.ts";
import type { IpfsEngine } from "./engine/types.ts";
import { ipfsBlocks, ipfsFiles } from "./tables.ts";

/**
 * The IPFS engine of this process (docs/decisions/039): embedded, or a kubo node with IPFS_API_URL. The embedded
 * engine keeps its state under DATA_DIR/ipfs with the embedded database and file store, and in the shared file store
 * and database otherwise (docs/decisions/096). With DATABASE_URL, one process among all those on the database runs
 * it, the holder of the `ipfs` lease, and the others forward their calls to it (docs/decisions/098); a `WORKERS`
 * cluster's peer workers never take the lease.
 */
type Node = { engine: IpfsEngine; opened?: { roots: number; blocks: number; removed: number } };
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
 * another host that takes the engine over finds it; its writes fenced by the lease with `fence`.
 */
export function embeddedEngine(
  deps: Pick<Deps, "db" | "env" | "files">,
  dir = path.join(deps.env.dataDir, "ipfs"),
  fence?: Fence,
) {
  const blobs = deps.files.blobs;
  return new EmbeddedIpfs(dir, blobs.kind === "fs" ? undefined : { db: deps.db, blobs, fence });
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
  } else if (env.engineLink) {
    // DATABASE_URL: owned through the lease; a cluster's peer worker keeps nothing of its own (docs/decisions/031).
    const leased = new LeasedIpfs(
      deps,
      (fence) => embeddedEngine(deps, undefined, fence),
      env.cluster?.role !== "peer",
    );
    await leased.start();
    node = { engine: leased };
  } else {
    const engine = embeddedEngine(deps);
    const opened = await engine.open();
    if (engine.copied)
      console.warn(
        `ipfs: ${engine.copied.blocks} block(s) and ${engine.copied.pins} pin(s) were copied from DATA_DIR/ipfs into the shared store; the folder is now ${engine.copied.movedTo}`,
      );
    if (opened.removed) console.warn(`ipfs: ${opened.removed} block(s) no pin references were removed at start`);
    node = { engine, opened };
  }
  nodes.set(deps, node);
  nodesByEnv.set(env, node);
}

export async function stopEngine(deps: Deps): Promise<void> {
  const node = nodes.get(deps);
  if (!node) return;
  await node.engine.close();
  nodes.delete(deps);
  nodesByEnv.delete(deps.env);
}

/**
 * /healthz: the engine, its blocks and bytes, the free disk under DATA_DIR (embedded), and with DATABASE_URL which
 * process runs it (`holder`: holder, address, epoch, self; null when this process is alone or the node is by URL).
 */
export async function engineHealth(deps: Deps): Promise<Record<string, unknown>> {
  const engine = engineOf(deps);
  const holder = engine instanceof LeasedIpfs ? await engine.holder().catch(() => null) : null;
  try {
    const repo = await engine.repoStats();
    let freeDiskBytes: number | null = null;
    if (engine.kind !== "remote") {
      const fs = await statfs(deps.env.dataDir);
      freeDiskBytes = Number(fs.bavail) * Number(fs.bsize);
    }
    // Where the embedded engine keeps its blocks and pins: "disk" (DATA_DIR/ipfs) or "shared".
    const state = engine instanceof EmbeddedIpfs || engine instanceof LeasedIpfs ? engine.stateKind : null;
    return { engine: engine.kind, ok: true, state, blocks: repo.blocks, bytes: repo.bytes, freeDiskBytes, holder };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { engine: engine.kind, ok: false, error: message, holder };
  }
}
