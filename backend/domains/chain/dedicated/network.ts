import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import type { Db, Tx } from "#backend/db/client.ts";
import { startWorker, type WorkerClient } from "#backend/kit/worker.ts";
import { EmbeddedChain } from "#backend/domains/chain/embedded.ts";
import { ChainSnapshots } from "#backend/domains/chain/snapshots.ts";
import type { FileStore } from "#backend/kit/storage.ts";
import { recordedAfter } from "#backend/domains/chain/records.ts";
import type { ChainNode, RpcCall } from "#backend/domains/chain/rpc.ts";

type ChainSpec = EmbeddedChain["spec"];
/** A chain's head as the engine's thread answers it. */
type Head = { number: number; hash: string; timestamp: number };

/** Recorded blocks a peer imports per call to the network's thread (the orderer's seals go between). */
const SYNC_PAGE = 20;

export type PeerState = "syncing" | "running" | "failed";
export type NetworkSpec = { name: string; chainId: number; dir: string; treasury: string; treasuryWei: string };

/** Requests served in the last 60 seconds, counted per second. */
export class RequestCounter {
  private readonly seconds = new Map<number, number>();
  hit(now = Date.now()): void {
    const second = Math.floor(now / 1000);
    this.seconds.set(second, (this.seconds.get(second) ?? 0) + 1);
    if (this.seconds.size > 90) for (const s of this.seconds.keys()) if (s <= second - 60) this.seconds.delete(s);
  }
  perMinute(now = Date.now()): number {
    const since = Math.floor(now / 1000) - 60;
    let total = 0;
    for (const [s, count] of this.seconds) if (s > since) total += count;
    return total;
  }
}

/** The bytes of the files under `dir` (0 when it does not exist). */
export async function bytesUnder(dir: string): Promise<number> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true, recursive: true });
  } catch {
    return 0;
  }
  let total = 0;
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    try {
      total += (await stat(path.join(entry.parentPath, entry.name))).size;
    } catch {
      // removed meanwhile (LevelDB compacts)
    }
  }
  return total;
}

/**
 * A running dedicated network (docs/decisions/046), all in one worker thread: the orderer, an EmbeddedChain
 * that queues, seals, records in the database's log and only then answers; and the peers, chains of their own
 * (same genesis, own LevelDB) that import the orderer's recorded blocks through the engine's replay path, which
 * re-executes each block and checks its hash. Peers import after the orderer recorded a block, so a peer's lag
 * is real: a new peer catches up page by page.
 */
export class NetworkRuntime {
  private readonly worker: WorkerClient;
  private readonly snapshots: ChainSnapshots | undefined;
  private readonly ordererChain: EmbeddedChain;
  private readonly peerChains = new Map<string, EmbeddedChain>();
  private readonly heights = new Map<string, number>();
  private readonly failed = new Map<string, string>();
  private syncing: Promise<void> | null = null;
  private again = false;
  private closed = false;
  private next = 0;

  constructor(
    readonly spec: NetworkSpec,
    private readonly db: Db,
    private readonly now: () => Date,
    /** Counts a call served by a node. */
    private readonly served: (node: string) => void,
    /** Inside the transaction that records an orderer's block: throws unless this process may write (the lease). */
    fence?: (tx: Tx) => Promise<void>,
    /** Under the lease: the orderer's snapshots every `every` blocks, from which a new holder's nodes start (docs/decisions/103). */
    snapshots?: { files: FileStore; every: number },
  ) {
    this.worker = startWorker("backend/domains/chain/dedicated/network.worker.ts");
    if (fence && snapshots && snapshots.every > 0)
      this.snapshots = new ChainSnapshots({ db, now, files: snapshots.files }, this.worker, snapshots.every, fence);
    this.ordererChain = new EmbeddedChain(this.chainSpec("orderer"), this.worker, db, now, fence, this.snapshots);
  }

  private chainSpec(node: string): ChainSpec {
    return {
      name: node,
      chainId: this.spec.chainId,
      dir: path.join(this.spec.dir, node),
      treasury: this.spec.treasury,
      treasuryWei: this.spec.treasuryWei,
    };
  }

  /** Opens the orderer (brought to the recorded log) and the peers; the peers then catch up in the background. */
  async open(peers: number): Promise<void> {
    const { removed, replayed } = await this.ordererChain.open();
    if (removed || replayed)
      console.warn(
        `dedicated network ${this.spec.name}: ${replayed} recorded block(s) replayed, ${removed} unrecorded block(s) removed`,
      );
    await this.addPeers(peers);
  }

  /** Starts the peers up to `count` ("peer-1" … "peer-<count>"); resolves once they are open (they may still lag). */
  async addPeers(count: number): Promise<void> {
    for (let i = 1; i <= count; i++) {
      const name = `peer-${i}`;
      if (this.peerChains.has(name)) continue;
      const spec = this.chainSpec(name);
      let head = await this.worker.call<Head>("open", spec);
      // A peer far behind (a new holder's) starts from the orderer's snapshot: the same chain, block for block.
      head = (await this.snapshots?.restoreIfBehind(spec, head, this.ordererHeight())) ?? head;
      this.peerChains.set(name, new EmbeddedChain(spec, this.worker, this.db, this.now));
      this.heights.set(name, head.number);
    }
    this.kick();
  }

  get peerNames(): string[] {
    return [...this.peerChains.keys()];
  }

  ordererHeight(): number {
    return this.ordererChain.health().height;
  }

  peerHeight(peer: string): number | undefined {
    return this.heights.get(peer);
  }

  peerState(peer: string): PeerState {
    if (this.failed.has(peer)) return "failed";
    return (this.heights.get(peer) ?? 0) < this.ordererHeight() ? "syncing" : "running";
  }

  /** Imports the recorded blocks the peers lack, a page per peer in turn, until every peer has the orderer's height. */
  private kick(): void {
    if (this.closed) return;
    if (this.syncing) {
      this.again = true;
      return;
    }
    this.syncing = this.sync().finally(() => {
      this.syncing = null;
      if (this.again && !this.closed) this.kick();
    });
  }

  private async sync(): Promise<void> {
    do {
      this.again = false;
      let imported = true;
      while (imported && !this.closed) {
        imported = false;
        for (const [peer] of this.peerChains) {
          if (this.failed.has(peer) || this.closed) continue;
          try {
            const missing = await recordedAfter(this.db, this.spec.chainId, this.heights.get(peer) ?? 0, SYNC_PAGE);
            if (!missing.length) continue;
            await this.worker.call("reconcile", peer, missing[missing.length - 1], missing);
            this.heights.set(peer, (await this.worker.call<Head>("head", peer)).number);
            imported = true;
          } catch (error) {
            if (this.closed) return;
            this.failed.set(peer, error instanceof Error ? error.message : String(error));
            console.error(`dedicated network ${this.spec.name}: ${peer} failed to import`, error);
          }
        }
      }
    } while (this.again && !this.closed);
  }

  /** Resolves once the peers have imported what was recorded when it was called (tests, scale). */
  async settled(): Promise<void> {
    while (this.syncing) await this.syncing;
  }

  /** The orderer as a node: writes are sealed and recorded, then the peers are told to import. */
  readonly orderer: ChainNode = {
    request: async (call: RpcCall) => {
      this.served("orderer");
      const result = await this.ordererChain.request(call);
      if (call.method === "eth_sendRawTransaction") this.kick();
      return result;
    },
  };

  /** A peer as a node: it answers reads from its own state; a transaction sent to it goes to the orderer. */
  peer(name: string): ChainNode | undefined {
    const chain = this.peerChains.get(name);
    if (!chain) return undefined;
    return {
      request: async (call: RpcCall) => {
        if (call.method === "eth_sendRawTransaction") return this.orderer.request(call);
        this.served(name);
        return chain.request(call);
      },
    };
  }

  /** The gateway's node: writes to the orderer, reads round-robin over the running peers that have caught up (else the orderer). */
  readonly gateway: ChainNode = {
    request: (call: RpcCall) => {
      if (call.method === "eth_sendRawTransaction") return this.orderer.request(call);
      const height = this.ordererHeight();
      const ready = this.peerNames.filter((p) => !this.failed.has(p) && (this.heights.get(p) ?? -1) >= height);
      if (!ready.length) return this.orderer.request(call);
      return this.peer(ready[this.next++ % ready.length]!)!.request(call);
    },
  };

  /** Ends the nodes: the peers' import stops, the chains close and the thread ends (the state stays on disk). */
  async close(): Promise<void> {
    this.closed = true;
    await this.syncing?.catch(() => undefined);
    await this.worker.call("closeAll").catch(() => undefined);
    await this.worker.close();
  }
}
