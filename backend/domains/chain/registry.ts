import { randomBytes } from "node:crypto";
import path from "node:path";
import { asc, eq } from "drizzle-orm";
import type { Deps } from "#backend/deps.ts";
import { openWith, sealWith } from "#backend/kit/sealed.ts";
import { startWorker, type WorkerClient } from "#backend/kit/worker.ts";
import { EngineOwnership } from "#backend/kit/engine-owner.ts";
import { EmbeddedChain } from "./embedded.ts";
import { RPC, RpcError } from "./hex.ts";
import { namedNode, poolNodes } from "#backend/kit/chain-nodes.ts";
import { NodeFollower } from "./follower.ts";
import { NodeMap } from "./node-map.ts";
import { remoteNode } from "./remote.ts";
import type { ChainNode, RpcCall } from "./rpc.ts";
import { chains } from "./tables.ts";
import {
  DEDICATED,
  NAME,
  TREASURY_KEYS,
  TREASURY_WEI,
  infoOf,
  insertWithNextChainId,
  type ChainInfo,
} from "./chain-ids.ts";
import { addressOf, signAndSend } from "./sign.ts";
import {
  answerPeer,
  deployOn,
  forwardTo,
  forwardedNode,
  handedOverNode,
  healthOf,
  receiptOf,
  type Deployed,
} from "./registry-calls.ts";
import { HeldSends, inQueue, sendThroughHolder, sendsLease } from "./registry-send.ts";
import type { ChainHealth, Entry, Remote } from "./registry-types.ts";
import { ChainSnapshots } from "./snapshots.ts";

export type { Deployed } from "./registry-calls.ts";

/**
 * The registry of chains (docs/decisions/025): every chain is one instance of the same engine with its own
 * chain id, state and treasury, recorded in the `chains` table. With CHAIN_NODES (or CHAIN_RPC_URL) each name
 * maps to the node that serves it instead (docs/decisions/094), the same calls go there, and a follower per node
 * copies its blocks into the same index.
 */

/** The chains every server has. */
export const OPEN_ALLIANCE = "open-alliance";

export const TEST_NETWORK = "test-network";

const DEFAULT_CHAINS = [
  { name: OPEN_ALLIANCE, purpose: "open-alliance" },
  { name: TEST_NETWORK, purpose: "test" },
] as const;

export type { ChainHealth } from "./registry-types.ts";

export class ChainRegistry {
  private readonly entries = new Map<string, Entry>();
  private worker: WorkerClient | undefined;
  /** Per chain and sender, its transactions one after another (each takes the next nonce). */
  private readonly sending = new Map<string, Promise<unknown>>();
  /**
   * With several portal processes on one database (DATABASE_URL: a cluster's workers, or processes started
   * separately on one or several hosts), the embedded chains have one writer: the holder of the `chain` engine's
   * lease, which answers the others' calls; a "peer" forwards every call there (docs/decisions/031, 095). Any
   * process may become the holder, or stop being it. "alone": on the embedded database, or on nodes by URL.
   */
  private mode: "alone" | "owner" | "peer" = "alone";
  private ownership: EngineOwnership | null = null;
  /** On nodes by URL with DATABASE_URL: who takes every sender's nonces (./registry-send.ts). */
  private sends: EngineOwnership | null = null;
  /** With CHAIN_NODES: each configured node by its address. */
  private readonly remotes = new Map<string, Remote>();
  /** With CHAIN_NODES: the operators' mapping of chains to nodes (chain_node_map, seeded from the file). */
  nodeMap: NodeMap | undefined;
  /** As the holder: other processes' sends, signed here and waiting for their next step (./registry-send.ts). */
  private held: HeldSends | undefined;

  constructor(private readonly deps: Deps) {}

  /**
   * Opens every recorded chain, creating the default ones the first time. With DATABASE_URL, this process first
   * takes the chains' lease if it is free (then it runs them) or waits for its holder (then it forwards to it).
   */
  async start(): Promise<void> {
    const chain = this.deps.env.chain;
    if (chain.kind === "embedded" && this.deps.env.engineLink) {
      this.ownership = new EngineOwnership(
        this.deps,
        "chain",
        {
          becomeOwner: () => this.reopen("owner"),
          becomePeer: () => this.reopen("peer"),
          answer: async (path, body) =>
            (await (this.held ??= new HeldSends(this.deps.env, (...a) => this.send(...a))).answer(path, body)) ??
            answerPeer(this, path, body),
        },
        // A cluster's peer worker keeps nothing under DATA_DIR (docs/decisions/031): it never runs the chains.
        this.deps.env.cluster?.role !== "peer",
      );
      return this.ownership.start();
    }
    if (chain.kind === "nodes")
      for (const config of chain.nodes) {
        const node = remoteNode(config.url);
        const follower = new NodeFollower(this.deps.db, node, config.url);
        this.remotes.set(config.url, { config, node, follower });
        follower.start();
      }
    if (chain.kind === "nodes") await (this.nodeMap = new NodeMap(this.deps.db, chain.nodes)).seed();
    await this.openAll();
    this.nodeMap?.follow(() => this.remap());
    if (chain.kind === "nodes" && this.deps.env.engineLink)
      await (this.sends = sendsLease(this.deps, (...a) => this.send(...a))).start();
  }

  private async openAll(): Promise<void> {
    for (const row of await this.deps.db.select().from(chains).orderBy(asc(chains.id)))
      if (row.purpose !== DEDICATED) await this.open(row);
    for (const chain of DEFAULT_CHAINS) if (!this.entries.has(chain.name)) await this.createChain(chain);
  }

  /* A change of holder: as the holder, opens every chain here (each replays the database's log beyond its own state,
     docs/decisions/025); as a peer, stops the engine. Entries are replaced one by one; calls meanwhile are forwarded. */
  private async reopen(mode: "owner" | "peer"): Promise<void> {
    this.mode = mode;
    if (mode === "peer") await this.stopEngine();
    await this.openAll();
  }

  private async stopEngine(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) {
      await worker.call("closeAll").catch(() => undefined);
      await worker.close();
    }
  }

  /** Who runs the chains (/healthz): the lease's holder, its address and epoch; null when this process is alone. */
  readonly holder = () => this.ownership?.holder() ?? Promise.resolve(null);

  async close(): Promise<void> {
    await this.sends?.stop();
    await this.sends?.release();
    await this.ownership?.stop();
    await this.stopEngine();
    // Closed, so nothing more is sealed here: the next holder may take over at once.
    await this.ownership?.release();
    this.entries.clear();
    this.nodeMap?.stop();
    for (const remote of this.remotes.values()) await remote.follower.stop();
    this.remotes.clear();
  }

  /**
   * The configured node that serves `name` (CHAIN_NODES): the operators' mapping (chain_node_map, seeded from the
   * file), else the file's, else the one it was given before (`recorded`) while configured, else the pool's least used.
   */
  private remoteFor(name: string, recorded?: string | null): Remote {
    const chain = this.deps.env.chain;
    const nodes = chain.kind === "nodes" ? chain.nodes : [];
    const before = recorded && this.remotes.has(recorded) ? recorded : undefined;
    const named = this.nodeMap?.mapped(name) ?? namedNode(nodes, name)?.url ?? before;
    const load = (url: string) => [...this.entries.values()].filter((e) => e.nodeUrl === url).length;
    const pooled = poolNodes(nodes)
      .map((n) => n.url)
      .sort((a, b) => load(a) - load(b))[0];
    const remote = this.remotes.get(named ?? pooled ?? "");
    if (!remote)
      throw new RpcError(RPC.INTERNAL, `no chain node serves ${name}: name it in CHAIN_NODES, or add a pool node (*)`);
    return remote;
  }

  /** Re-opens on its new node each chain the mapping moved (its chain id and treasury read there): their names. */
  async remap(): Promise<string[]> {
    const moved = [...this.entries.values()].filter(
      (e) => e.nodeUrl && this.remoteFor(e.name, e.nodeUrl).config.url !== e.nodeUrl,
    );
    for (const e of moved)
      await this.open((await this.deps.db.select().from(chains).where(eq(chains.name, e.name)))[0]!);
    return moved.map((e) => e.name);
  }

  /** Whether `name` runs on a node by URL (CHAIN_NODES), where the embedded engine's extras (a reset) do not exist. */
  isExternal(): boolean {
    return this.deps.env.chain.kind === "nodes";
  }

  private engine(): WorkerClient {
    return (this.worker ??= startWorker("backend/domains/chain/engine.worker.ts"));
  }

  private async open(row: typeof chains.$inferSelect): Promise<Entry> {
    const chain = this.deps.env.chain;
    const remote = chain.kind === "nodes" ? this.remoteFor(row.name, row.nodeUrl) : undefined;
    const treasuryKey = remote
      ? remote.config.treasuryKey
      : openWith(this.deps.env, TREASURY_KEYS, row.treasuryKeySealed);
    const info = { name: row.name, chainId: row.chainId, purpose: row.purpose, treasury: row.treasuryAddress };
    let entry: Entry;
    if (this.mode === "peer") {
      const node = forwardedNode(this.ownership!, row.name);
      const health = async () =>
        (await forwardTo<Record<string, ChainHealth>>(this.ownership!, "/health", null, true))[row.name] ?? {
          height: 0,
          lastBlockAt: null,
          pending: 0,
        };
      entry = { ...info, node, health, treasuryKey };
    } else if (remote) {
      // The node's chain id was read when the row was made; a chain moved to another node takes that node's.
      const node = remote.node;
      // So is its treasury, when the node's key changed.
      const chainId = await remote.follower.chainId().catch(() => row.chainId);
      const treasury = await addressOf(treasuryKey);
      const nodeUrl = remote.config.url;
      if (chainId !== row.chainId || treasury !== row.treasuryAddress || nodeUrl !== row.nodeUrl)
        await this.deps.db
          .update(chains)
          .set({ chainId, treasuryAddress: treasury, nodeUrl })
          .where(eq(chains.id, row.id));
      entry = {
        ...info,
        chainId,
        treasury,
        node,
        health: () => node.health(),
        treasuryKey,
        follower: remote.follower,
        nodeUrl: remote.config.url,
      };
    } else {
      const dir = path.join(this.deps.env.dataDir, "chains", row.name);
      const embedded = new EmbeddedChain(
        { name: row.name, chainId: row.chainId, dir, treasury: row.treasuryAddress, treasuryWei: row.treasuryWei },
        this.engine(),
        this.deps.db,
        this.deps.now,
        this.ownership ? (tx) => this.ownership!.fence(tx) : undefined,
        this.ownership && this.deps.env.chainSnapshotBlocks > 0
          ? new ChainSnapshots(this.deps, this.engine(), this.deps.env.chainSnapshotBlocks, (tx) =>
              this.ownership!.fence(tx),
            )
          : undefined,
      );
      const { removed, replayed, snapshot } = await embedded.open();
      if (removed || replayed || snapshot !== undefined)
        console.warn(
          `chain ${row.name}: ${snapshot === undefined ? "" : `started from its snapshot at block ${snapshot}, `}${replayed} recorded block(s) replayed, ${removed} unrecorded block(s) removed`,
        );
      const node = this.ownership
        ? handedOverNode(
            embedded,
            row.name,
            forwardedNode(this.ownership, row.name),
            () => !this.ownership!.answersHere,
          )
        : embedded;
      entry = { ...info, node, health: () => embedded.health(), treasuryKey };
    }
    this.entries.set(row.name, entry);
    return entry;
  }

  /** Adds a chain (e.g. one per consortium service) and opens it; its name is lower-case letters, digits and dashes. */
  async createChain(input: { name: string; purpose: string }): Promise<ChainInfo> {
    if (!NAME.test(input.name)) throw new Error(`a chain name is lower-case letters, digits and dashes: ${input.name}`);
    if (input.purpose === DEDICATED) throw new Error("a dedicated network's chain is made by its provisioner");
    const existing = this.entries.get(input.name);
    if (existing) return infoOf(existing);
    if (this.mode === "peer") {
      // The holder creates and opens it; this process then sends its calls there.
      await forwardTo(this.ownership!, "/create", input, true);
      const [recorded] = await this.deps.db.select().from(chains).where(eq(chains.name, input.name));
      return infoOf(this.entries.get(input.name) ?? (await this.open(recorded!)));
    }
    const chain = this.deps.env.chain;
    let key: string;
    let chainId: number;
    let nodeUrl: string | null = null;
    if (chain.kind === "nodes") {
      const remote = this.remoteFor(input.name);
      key = remote.config.treasuryKey;
      chainId = await remote.follower.chainId();
      nodeUrl = remote.config.url;
    } else {
      key = `0x${randomBytes(32).toString("hex")}`;
      chainId = 0;
    }
    const treasury = await addressOf(key);
    const values = {
      name: input.name,
      chainId,
      purpose: input.purpose,
      treasuryAddress: treasury,
      treasuryKeySealed: chain.kind === "nodes" ? "" : sealWith(this.deps.env, TREASURY_KEYS, key),
      treasuryWei: TREASURY_WEI,
      nodeUrl,
    };
    const [row] =
      chain.kind === "nodes"
        ? await this.deps.db.insert(chains).values(values).onConflictDoNothing().returning()
        : await insertWithNextChainId(this.deps.db, values);
    const recorded = row ?? (await this.deps.db.select().from(chains).where(eq(chains.name, input.name)))[0]!;
    if (recorded.purpose === DEDICATED) throw new Error(`${input.name} is a dedicated network's chain`);
    return infoOf(await this.open(recorded));
  }

  /** The chain's entry; a peer opens a chain another process created after this one started (the owner runs it). */
  private async opened(name: string): Promise<Entry> {
    if (this.mode === "peer" && !this.entries.has(name)) {
      const [recorded] = await this.deps.db.select().from(chains).where(eq(chains.name, name));
      if (recorded && recorded.purpose !== DEDICATED) return this.open(recorded);
    }
    return this.entry(name);
  }

  private entry(name: string): Entry {
    const entry = this.entries.get(name);
    if (!entry) throw new Error(`no chain named ${name}`);
    return entry;
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  list(): ChainInfo[] {
    return [...this.entries.values()].map(infoOf);
  }

  info(name: string): ChainInfo {
    return infoOf(this.entry(name));
  }

  /** One JSON-RPC call on a chain: its result, or an RpcError. */
  request(name: string, call: RpcCall): Promise<unknown> {
    return this.node(name).request(call);
  }

  node(name: string): ChainNode {
    // A peer sends a chain it has not opened (created since it started) to the holder, which knows it or refuses.
    if (this.mode === "peer" && !this.entries.has(name)) return forwardedNode(this.ownership!, name);
    return this.entry(name).node;
  }

  /** Each chain's height; a chain whose node does not answer says so (`unreachable`), the others are still shown. */
  health = () => healthOf(this.entries.values());

  /**
   * Sends `wei` from the chain's treasury to `address` (a gas assignment): a signed EIP-1559 transfer; resolves
   * with its hash once the chain accepted it (embedded: once it is sealed and recorded).
   */
  fund(name: string, address: string, wei: bigint): Promise<string> {
    if (!/^0x[0-9a-fA-F]{40}$/.test(address)) throw new RpcError(RPC.INVALID_PARAMS, `invalid address: ${address}`);
    if (wei <= 0n) throw new RpcError(RPC.INVALID_PARAMS, "the amount to fund is positive");
    // One writer takes the treasury's nonces: a peer asks the holder.
    if (this.mode === "peer")
      return forwardTo<{ hash: string }>(this.ownership!, "/fund", { name, address, wei: wei.toString() }, false).then(
        (r) => r.hash,
      );
    return this.send(name, this.entry(name).treasuryKey, { to: address, value: wei, gasLimit: 21_000n });
  }

  /**
   * Signs an EIP-1559 transaction with `privateKey` (hex) and sends it (a transfer, a call, or a creation without
   * `to`; the gas estimated when not given), each of one sender on one chain after the other with the next nonce;
   * resolves with the hash once accepted. `onSigned` gets the signed hash first (ADR 045); when it throws, nothing is sent.
   */
  send(
    name: string,
    privateKey: string,
    input: { to?: string; data?: string; value?: bigint; gasLimit?: bigint },
    onSigned?: (hash: string, raw: string) => Promise<void>,
  ): Promise<string> {
    // A forwarding process's nonces are taken in the holder's queue for this sender (on nodes by URL too).
    const holder = this.mode === "peer" ? this.ownership : this.sends?.isOwner === false ? this.sends : null;
    if (holder) return sendThroughHolder(holder, this.deps.env, name, privateKey, input, onSigned);
    const run = async () => {
      const entry = await this.opened(name);
      const hash = await signAndSend(entry.node, entry.chainId, privateKey, input, onSigned);
      // On a node by URL, as on the embedded engine: resolved once in a block and in the index.
      if (entry.follower) await entry.follower.through(Number((await this.receipt(name, hash)).blockNumber));
      return hash;
    };
    // One sender's nonces are per chain: chains that share a node share its nonces, so they share a queue.
    return inQueue(this.sending, `${this.entries.get(name)?.nodeUrl ?? name}:${privateKey}`, run);
  }

  /** Deploys creation bytecode from the account of `privateKey`: address, transaction, block, or the chain's reason. */
  deploy = (name: string, privateKey: string, bytecode: string): Promise<Deployed> =>
    deployOn(this, name, privateKey, bytecode);
  private receipt = (name: string, hash: string) => receiptOf(this, name, hash);
}
