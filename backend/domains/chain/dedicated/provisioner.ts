import { rm } from "node:fs/promises";
import { and, eq, inArray } from "drizzle-orm";
import { EngineOwnership } from "#backend/kit/engine-owner.ts";
import { RPC, RpcError } from "#backend/domains/chain/hex.ts";
import { DEDICATED, NAME, reserveDedicatedChain } from "#backend/domains/chain/chain-ids.ts";
import { signAndSend } from "#backend/domains/chain/sign.ts";
import { answerText } from "#backend/domains/chain/rpc.ts";
import {
  chainBlocks,
  chainLogs,
  chainSnapshots,
  chainTxs,
  chains,
  dedicatedNetworks,
} from "#backend/domains/chain/tables.ts";
import { newNetworkCa } from "./ca.ts";
import { basicHeader, credentialsProblem, hashPassword, type Credentials } from "./credentials.ts";
import type { DeployInput, GatewayAnswer, GatewayReply, GatewayRequest, NetworkStatus, NodeLimits } from "./types.ts";
import { limitsOf, ProvisionerState } from "./provisioner-state.ts";
import {
  RATE_WINDOW_SECONDS,
  RateWindow,
  callsIn,
  limitColumns,
  limitsProblem,
  rateLimitedBody,
  storageGuarded,
} from "./limits.ts";

/** The most peers a network runs (the embedded provisioner runs them all in one thread). */
export const MAX_PEERS = 16;

/** The gateway's request and answer live in ./types.ts (provisioner-state.ts uses them too); the chain domain imports them from here. */
export type { GatewayReply, GatewayRequest };

const rpcError = (code: number, message: string) => ({ jsonrpc: "2.0", id: null, error: { code, message } });

/**
 * The embedded provisioner (docs/decisions/046): every dedicated network runs here, in a worker thread of its
 * own (orderer, peers), with its gateway (an endpoint of the chain domain) and its CA (a table). Its rows are
 * in `dedicated_networks` and `dedicated_certificates`; its chain id is a `chains` row of purpose "dedicated",
 * and its orderer's blocks are in the chains' log, so a restart reopens every running network where it was.
 * With several portal processes on one database, the holder of the `dedicated` lease runs the networks and the others
 * forward every call to it (docs/decisions/095, 099); a new holder reopens each network from the chains' log.
 */
export class EmbeddedProvisioner extends ProvisionerState {
  /** Reopens every network (the running ones start their nodes), here or, with DATABASE_URL, in the lease's holder. */
  async start(): Promise<void> {
    if (this.deps.env.engineLink) {
      this.ownership = new EngineOwnership(
        this.deps,
        "dedicated",
        {
          becomeOwner: () => this.openAll(),
          becomePeer: () => this.haltAll(),
          answer: (p, body) => this.answerPeer(p, body),
        },
        // A cluster's peer worker keeps nothing under DATA_DIR (docs/decisions/031): it never runs the networks.
        this.deps.env.cluster?.role !== "peer",
      );
      return this.ownership.start();
    }
    await this.openAll();
  }

  private async openAll(): Promise<void> {
    for (const row of await this.deps.db.select().from(dedicatedNetworks)) {
      const entry = await this.load(row);
      // A network that fails to start is shown failed (its nodes' status); the server starts anyway.
      if (row.state === "running") await this.run(entry).catch(() => undefined);
    }
  }

  private async haltAll(): Promise<void> {
    for (const entry of this.entries.values()) await this.halt(entry);
    this.entries.clear();
  }

  async close(): Promise<void> {
    await this.ownership?.stop();
    await this.haltAll();
    // Halted, so nothing more is recorded here: the next holder may take over at once.
    await this.ownership?.release();
  }

  /** Who runs the networks (/healthz): the lease's holder; null when this process is alone. */
  readonly holder = () => this.ownership?.holder() ?? Promise.resolve(null);

  /** The owner's answers to the other processes: /<method> with its arguments. */
  private async answerPeer(p: string, body: unknown): Promise<unknown> {
    const args = (body ?? []) as unknown[];
    switch (p) {
      case "/health":
        return this.health();
      case "/deploy":
        return this.deploy(args[0] as DeployInput);
      case "/scale":
        return this.scale(String(args[0]), Number(args[1]));
      case "/setLimits":
        return this.setLimits(String(args[0]), (args[1] ?? null) as NodeLimits | null);
      case "/setCredentials":
        return (await this.setCredentials(String(args[0]), args[1] as Credentials)) ?? null;
      case "/stop":
        return (await this.stop(String(args[0]))) ?? null;
      case "/resume":
        return this.resume(String(args[0]));
      case "/remove":
        return (await this.remove(String(args[0]))) ?? null;
      case "/status":
        return this.status(String(args[0]));
      case "/serve":
        return this.serve(args[0] as GatewayRequest);
      case "/fund":
        return { hash: await this.fund(String(args[0]), String(args[1]), BigInt(String(args[2]))) };
      default:
        throw new Error(`no provisioner call ${p}`);
    }
  }

  /**
   * Deploys a network, or finishes one a crash interrupted: its chain id, its row (CA, credentials), the nodes'
   * certificates, then the nodes; resolves once every node runs. Called again, it changes nothing that exists.
   */
  deploy(input: DeployInput): Promise<NetworkStatus> {
    if (this.forwarded) return this.forward("deploy", input);
    if (typeof input?.name !== "string" || !NAME.test(input.name))
      return Promise.reject(
        new Error(`a network name is lower-case letters, digits and dashes: ${String(input?.name)}`),
      );
    if (!Number.isInteger(input.peers) || input.peers < 1 || input.peers > MAX_PEERS)
      return Promise.reject(new Error(`a network has 1 to ${MAX_PEERS} peers`));
    if (typeof input.consensus !== "string" || !input.consensus.trim() || input.consensus.length > 32)
      return Promise.reject(new Error("a network names its consensus"));
    const problem = credentialsProblem(input) ?? limitsProblem(input.limits);
    if (problem) return Promise.reject(new Error(problem));
    return this.locked(input.name, async () => {
      const chain = await reserveDedicatedChain(this.deps, input.name);
      let [row] = await this.deps.db.select().from(dedicatedNetworks).where(eq(dedicatedNetworks.name, input.name));
      if (!row) {
        const ca = await newNetworkCa(this.deps.env, input.name, this.deps.now());
        await this.deps.db
          .insert(dedicatedNetworks)
          .values({
            name: input.name,
            chainId: chain.chainId,
            consensus: input.consensus,
            peers: input.peers,
            state: "running",
            authUser: input.user,
            authPasswordHash: await hashPassword(input.password),
            caCertificatePem: ca.pem,
            caKeySealed: ca.keySealed,
            ...limitColumns(input.limits ?? null),
            createdAt: this.deps.now(),
          })
          .onConflictDoNothing();
        [row] = await this.deps.db.select().from(dedicatedNetworks).where(eq(dedicatedNetworks.name, input.name));
      }
      const entry = await this.load(row!);
      if (entry.row.peers < input.peers || entry.row.state !== "running")
        await this.update(entry, { peers: Math.max(entry.row.peers, input.peers), state: "running" });
      if (input.limits !== undefined) await this.update(entry, limitColumns(input.limits));
      await this.certify(entry.row);
      await this.run(entry);
      await entry.runtime!.addPeers(entry.row.peers);
      return this.statusOf(entry);
    });
  }

  /** Grows the network to `peers`; the new peers start and catch up (it resolves once they are started). */
  scale(name: string, peers: number): Promise<NetworkStatus> {
    if (this.forwarded) return this.forward("scale", name, peers);
    return this.locked(name, async () => {
      const entry = this.entry(name);
      if (!Number.isInteger(peers) || peers < entry.row.peers || peers > MAX_PEERS)
        throw new Error(`${name} grows only: from ${entry.row.peers} to at most ${MAX_PEERS} peers`);
      if (peers > entry.row.peers) await this.update(entry, { peers });
      await this.certify(entry.row);
      await entry.runtime?.addPeers(peers);
      return this.statusOf(entry);
    });
  }

  /**
   * Applies new limits to every node of the running network at once, without a restart (docs/decisions/074): the
   * next call is counted against the new rate and the next transaction checked against the new storage limit.
   */
  setLimits(name: string, limits: NodeLimits | null): Promise<NetworkStatus> {
    if (this.forwarded) return this.forward("setLimits", name, limits);
    const problem = limitsProblem(limits);
    if (problem) return Promise.reject(new Error(problem));
    return this.locked(name, async () => {
      const entry = this.entry(name);
      await this.update(entry, limitColumns(limits));
      return this.statusOf(entry);
    });
  }

  /** Changes the gateway's authorized user and password (the old ones stop working at once). */
  setCredentials(name: string, input: Credentials): Promise<void> {
    if (this.forwarded) return this.forward("setCredentials", name, input);
    const problem = credentialsProblem(input);
    if (problem) return Promise.reject(new Error(problem));
    return this.locked(name, async () => {
      const entry = this.entry(name);
      await this.update(entry, { authUser: input.user, authPasswordHash: await hashPassword(input.password) });
      entry.verified.clear();
    });
  }

  /** Ends the network's nodes (its thread); the state stays on disk and its endpoints answer 503. */
  stop(name: string): Promise<void> {
    if (this.forwarded) return this.forward("stop", name);
    return this.locked(name, async () => {
      const entry = this.entry(name);
      await this.update(entry, { state: "stopped" });
      await this.halt(entry);
    });
  }

  /** Starts a stopped network's nodes again, where they were. */
  resume(name: string): Promise<NetworkStatus> {
    if (this.forwarded) return this.forward("resume", name);
    return this.locked(name, async () => {
      const entry = this.entry(name);
      await this.update(entry, { state: "running" });
      await this.run(entry);
      return this.statusOf(entry);
    });
  }

  /** Ends the nodes and removes the network: its directory, its certificates, its chain and that chain's log. The name is free again. */
  remove(name: string): Promise<void> {
    if (this.forwarded) return this.forward("remove", name);
    return this.locked(name, async () => {
      const entry = this.entries.get(name);
      if (entry) await this.halt(entry);
      await rm(this.dirOf(name), { recursive: true, force: true });
      await this.deps.db.transaction(async (tx) => {
        const [chain] = await tx
          .select()
          .from(chains)
          .where(and(eq(chains.name, name), eq(chains.purpose, DEDICATED)));
        await tx.delete(dedicatedNetworks).where(eq(dedicatedNetworks.name, name));
        if (chain) {
          await tx.delete(chainLogs).where(eq(chainLogs.chainId, chain.chainId));
          await tx.delete(chainTxs).where(eq(chainTxs.chainId, chain.chainId));
          await tx.delete(chainBlocks).where(eq(chainBlocks.chainId, chain.chainId));
          const snapshots = await tx
            .delete(chainSnapshots)
            .where(eq(chainSnapshots.chainId, chain.chainId))
            .returning({ fileId: chainSnapshots.fileId });
          for (const { fileId } of snapshots) await this.deps.files.remove(tx, fileId);
          await tx.delete(chains).where(inArray(chains.id, [chain.id]));
        }
      });
      this.entries.delete(name);
    });
  }

  /** The network and its nodes with their live figures; null when there is no such network. */
  async status(name: string): Promise<NetworkStatus | null> {
    if (this.forwarded) return this.forward("status", name);
    const entry = this.entries.get(name);
    const again = () => this.forward<NetworkStatus | null>("status", name);
    return entry ? this.held(() => this.statusOf(entry), again) : null;
  }

  /** Exactly what the HTTP gateway answers for this JSON-RPC text with these credentials (the portal's "try it" form). */
  async gateway(name: string, credentials: Credentials, body: string): Promise<GatewayAnswer> {
    const reply = await this.serve({
      network: name,
      target: "gateway",
      method: "POST",
      authorization: basicHeader(credentials),
      body,
    });
    return { status: reply.status, body: reply.body };
  }

  /** One request to a network's endpoints: 404 unknown, 401 wrong credentials, 503 stopped, else the node's answer. */
  async serve(request: GatewayRequest): Promise<GatewayReply> {
    if (this.forwarded) return this.forward("serve", request);
    const entry = NAME.test(request.network) ? this.entries.get(request.network) : undefined;
    if (!entry)
      return { status: 404, body: rpcError(RPC.METHOD_NOT_FOUND, `no dedicated network named ${request.network}`) };
    if (!(await this.authorized(entry, request.authorization))) {
      return {
        status: 401,
        body: rpcError(-32001, "the network's authorized user and password are required (HTTP Basic)"),
        headers: { "WWW-Authenticate": `Basic realm="${entry.row.name}", charset="UTF-8"` },
      };
    }
    const target = request.target;
    if (target === "ca") {
      if (request.method !== "GET")
        return {
          status: 405,
          body: rpcError(RPC.METHOD_NOT_FOUND, "GET the CA certificate"),
          headers: { Allow: "GET" },
        };
      this.count(entry, "ca");
      return { status: 200, body: null, pem: entry.row.caCertificatePem };
    }
    if (request.method !== "POST")
      return {
        status: 405,
        body: rpcError(RPC.METHOD_NOT_FOUND, "POST a JSON-RPC request"),
        headers: { Allow: "POST" },
      };
    const runtime = entry.runtime;
    // The networks moved on while the credentials were checked: nothing ran here, the next holder answers.
    if (!runtime && this.forwarded) return this.forward("serve", request);
    if (entry.row.state === "stopped" || !runtime)
      return { status: 503, body: rpcError(-32002, `the network ${entry.row.name} is not running`) };
    let node;
    const nodeName = target === "gateway" ? "gateway" : target.node;
    if (target === "gateway") node = runtime.gateway;
    else {
      node = target.node === "orderer" ? runtime.orderer : runtime.peer(target.node);
      if (!node) return { status: 404, body: rpcError(RPC.METHOD_NOT_FOUND, `no node named ${target.node}`) };
    }
    // docs/decisions/074: the node's rate (429 above it) and storage limit (transactions refused when over it).
    const limits = limitsOf(entry.row);
    if (limits) {
      let window = entry.windows.get(nodeName);
      if (!window) entry.windows.set(nodeName, (window = new RateWindow()));
      if (!window.admit(callsIn(request.body), limits.requestsPerSecond))
        return {
          status: 429,
          body: rateLimitedBody(nodeName, limits),
          headers: { "Retry-After": String(RATE_WINDOW_SECONDS) },
        };
      node = storageGuarded(node, limits.storageBytes, () => this.storedBytes(entry));
    }
    if (target === "gateway") this.count(entry, "gateway");
    return { status: 200, body: await answerText(this.handedOver(node, request), request.body) };
  }

  /** Sends `wei` from the network's treasury to `address`; resolves with the transaction's hash once recorded. */
  fund(name: string, address: string, wei: bigint): Promise<string> {
    if (this.forwarded)
      return this.forward<{ hash: string }>("fund", name, address, wei.toString()).then((r) => r.hash);
    if (!/^0x[0-9a-fA-F]{40}$/.test(address))
      return Promise.reject(new RpcError(RPC.INVALID_PARAMS, `invalid address: ${address}`));
    if (wei <= 0n) return Promise.reject(new RpcError(RPC.INVALID_PARAMS, "the amount to fund is positive"));
    const entry = this.entry(name);
    const run = () =>
      this.held(async () => {
        if (!entry.runtime) throw new Error(`the network ${name} is not running`);
        return signAndSend(entry.runtime.orderer, entry.row.chainId, entry.treasuryKey, {
          to: address,
          value: wei,
          gasLimit: 21_000n,
        });
      });
    const result = entry.funding.then(run, run);
    entry.funding = result.catch(() => undefined);
    return result;
  }

  /** /healthz: each network's state and heights (this process's view; a cluster peer reports none). */
  health(): Record<string, { state: string; height: number | null; peers: (number | null)[] }> {
    const out: Record<string, { state: string; height: number | null; peers: (number | null)[] }> = {};
    for (const [name, entry] of this.entries) {
      const runtime = entry.runtime;
      out[name] = {
        state:
          entry.row.state === "stopped"
            ? "stopped"
            : entry.phase === "failed"
              ? "failed"
              : runtime
                ? "running"
                : "starting",
        height: runtime ? runtime.ordererHeight() : null,
        peers: Array.from({ length: entry.row.peers }, (_, i) => runtime?.peerHeight(`peer-${i + 1}`) ?? null),
      };
    }
    return out;
  }

  /** Tests: resolves once the network's peers imported what is recorded. */
  async settled(name: string): Promise<void> {
    await this.entries.get(name)?.runtime?.settled();
  }
}
