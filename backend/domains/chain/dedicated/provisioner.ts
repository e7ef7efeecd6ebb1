import { createHmac, randomBytes } from "node:crypto";
import { rm } from "node:fs/promises";
import type { Server } from "node:http";
import path from "node:path";
import { and, eq, inArray } from "drizzle-orm";
import type { Deps } from "#backend/deps.ts";
import { callEngine, serveEngine } from "#backend/kit/engine-socket.ts";
import { RPC, RpcError } from "#backend/domains/chain/hex.ts";
import { recordedHead } from "#backend/domains/chain/records.ts";
import { DEDICATED, NAME, reserveDedicatedChain, signAndSend } from "#backend/domains/chain/registry.ts";
import { answerText } from "#backend/domains/chain/rpc.ts";
import {
  chainBlocks,
  chainLogs,
  chainTxs,
  chains,
  dedicatedCertificates,
  dedicatedNetworks,
} from "#backend/domains/chain/tables.ts";
import { issueNodeCertificate, newNetworkCa, summaryOf, type CertificateSummary } from "./ca.ts";
import {
  basicCredentials,
  basicHeader,
  credentialsProblem,
  hashPassword,
  passwordMatches,
  sameText,
  type Credentials,
} from "./credentials.ts";
import { bytesUnder, NetworkRuntime, RequestCounter } from "./network.ts";
import type { DeployInput, GatewayAnswer, NetworkNode, NetworkStatus } from "./types.ts";

/** The most peers a network runs (the embedded provisioner runs them all in one thread). */
export const MAX_PEERS = 16;
/** A successful credentials check is remembered this long (scrypt costs tens of milliseconds). */
const VERIFIED_MS = 60_000;
/** The gateway's paths: /chain/dedicated/<network>, …/nodes/<node>, …/ca. */
export const DEDICATED_PREFIX = "/chain/dedicated/";

type NetworkRow = typeof dedicatedNetworks.$inferSelect;

/** One HTTP request to a network's endpoints, as the endpoint (or a peer process) hands it over. */
export type GatewayRequest = {
  network: string;
  target: "gateway" | "ca" | { node: string };
  method: string;
  authorization: string | null;
  body: string;
};
/** The answer: a status and a JSON body, or the CA's PEM; headers to add (WWW-Authenticate). */
export type GatewayReply = { status: number; body: unknown; pem?: string; headers?: Record<string, string> };

type Entry = {
  row: NetworkRow;
  treasury: string;
  treasuryKey: string;
  treasuryWei: string;
  runtime: NetworkRuntime | null;
  phase: "starting" | "ready" | "failed";
  failure?: string;
  counters: Map<string, RequestCounter>;
  /** Credentials checks that succeeded: HMAC of (header, stored hash) → until when. */
  verified: Map<string, number>;
  /** The treasury's transfers, one after another. */
  funding: Promise<unknown>;
};

const rpcError = (code: number, message: string) => ({ jsonrpc: "2.0", id: null, error: { code, message } });

/**
 * The embedded provisioner (docs/decisions/046): every dedicated network runs here, in a worker thread of its
 * own (orderer, peers), with its gateway (an endpoint of the chain domain) and its CA (a table). Its rows are
 * in `dedicated_networks` and `dedicated_certificates`; its chain id is a `chains` row of purpose "dedicated",
 * and its orderer's blocks are in the chains' log, so a restart reopens every running network where it was.
 * In a cluster (docs/decisions/031) the owner process runs the networks and the others forward every call to it.
 */
export class EmbeddedProvisioner {
  private readonly entries = new Map<string, Entry>();
  private readonly locks = new Map<string, Promise<unknown>>();
  private readonly role: "owner" | "peer" | null;
  private socket: Server | undefined;
  private readonly cacheKey = randomBytes(32);

  constructor(private readonly deps: Deps) {
    this.role = deps.env.cluster?.role ?? null;
  }

  private dirOf(name: string): string {
    return path.join(this.deps.env.dataDir, "dedicated", name);
  }

  /** Reopens every network (the running ones start their nodes); an owner then serves the other processes. */
  async start(): Promise<void> {
    if (this.role === "peer") return;
    for (const row of await this.deps.db.select().from(dedicatedNetworks)) {
      const entry = await this.load(row);
      // A network that fails to start is shown failed (its nodes' status); the server starts anyway.
      if (row.state === "running") await this.run(entry).catch(() => undefined);
    }
    if (this.role === "owner")
      this.socket = await serveEngine(this.deps.env, "dedicated", (p, body) => this.answerPeer(p, body));
  }

  async close(): Promise<void> {
    await new Promise((resolve) => (this.socket ? this.socket.close(resolve) : resolve(undefined)));
    this.socket = undefined;
    for (const entry of this.entries.values()) await this.halt(entry);
    this.entries.clear();
  }

  /** The owner's answers to the other processes: /<method> with its arguments. */
  private async answerPeer(p: string, body: unknown): Promise<unknown> {
    const args = (body ?? []) as unknown[];
    switch (p) {
      case "/deploy":
        return this.deploy(args[0] as DeployInput);
      case "/scale":
        return this.scale(String(args[0]), Number(args[1]));
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

  private forward<T>(method: string, ...args: unknown[]): Promise<T> {
    return callEngine<T>(this.deps.env, "dedicated", `/${method}`, args);
  }

  /** Runs `work` after every earlier change of the same network. */
  private locked<T>(name: string, work: () => Promise<T>): Promise<T> {
    const result = (this.locks.get(name) ?? Promise.resolve()).then(work, work);
    this.locks.set(
      name,
      result.catch(() => undefined),
    );
    return result;
  }

  private async load(row: NetworkRow): Promise<Entry> {
    const known = this.entries.get(row.name);
    if (known) {
      known.row = row;
      return known;
    }
    const chain = await reserveDedicatedChain(this.deps, row.name);
    const entry: Entry = {
      row,
      treasury: chain.treasury,
      treasuryKey: chain.treasuryKey,
      treasuryWei: chain.treasuryWei,
      runtime: null,
      phase: "ready",
      counters: new Map(),
      verified: new Map(),
      funding: Promise.resolve(),
    };
    this.entries.set(row.name, entry);
    return entry;
  }

  /** Starts the network's nodes when they are not running; a failure is kept and shown as the nodes' status. */
  private async run(entry: Entry): Promise<void> {
    if (entry.runtime) return;
    entry.phase = "starting";
    const runtime = new NetworkRuntime(
      {
        name: entry.row.name,
        chainId: entry.row.chainId,
        dir: this.dirOf(entry.row.name),
        treasury: entry.treasury,
        treasuryWei: entry.treasuryWei,
      },
      this.deps.db,
      this.deps.now,
      (node) => this.count(entry, node),
    );
    try {
      await runtime.open(entry.row.peers);
      entry.runtime = runtime;
      entry.phase = "ready";
      entry.failure = undefined;
    } catch (error) {
      entry.phase = "failed";
      entry.failure = error instanceof Error ? error.message : String(error);
      console.error(`dedicated network ${entry.row.name} failed to start`, error);
      await runtime.close().catch(() => undefined);
      throw error;
    }
  }

  private async halt(entry: Entry): Promise<void> {
    const runtime = entry.runtime;
    entry.runtime = null;
    await runtime?.close();
  }

  private count(entry: Entry, node: string): void {
    let counter = entry.counters.get(node);
    if (!counter) entry.counters.set(node, (counter = new RequestCounter()));
    counter.hit();
  }

  private entry(name: string): Entry {
    const entry = this.entries.get(name);
    if (!entry) throw new Error(`no dedicated network named ${name}`);
    return entry;
  }

  /** Issues the certificates its nodes lack (orderer, peers, gateway). */
  private async certify(row: NetworkRow): Promise<void> {
    const nodes = ["orderer", ...Array.from({ length: row.peers }, (_, i) => `peer-${i + 1}`), "gateway"];
    const have = new Set(
      (
        await this.deps.db
          .select({ node: dedicatedCertificates.node })
          .from(dedicatedCertificates)
          .where(eq(dedicatedCertificates.networkId, row.id))
      ).map((r) => r.node),
    );
    for (const node of nodes) {
      if (have.has(node)) continue;
      const cert = await issueNodeCertificate(
        this.deps.env,
        { pem: row.caCertificatePem, keySealed: row.caKeySealed },
        row.name,
        node,
        this.deps.now(),
      );
      await this.deps.db
        .insert(dedicatedCertificates)
        .values({
          networkId: row.id,
          node,
          subject: cert.subject,
          serial: cert.serial,
          notAfter: new Date(cert.notAfter),
          fingerprint: cert.fingerprint,
          certificatePem: cert.pem,
          keySealed: cert.keySealed,
        })
        .onConflictDoNothing();
    }
  }

  private async update(
    entry: Entry,
    values: Partial<Pick<NetworkRow, "peers" | "state" | "authUser" | "authPasswordHash">>,
  ): Promise<void> {
    const [row] = await this.deps.db
      .update(dedicatedNetworks)
      .set(values)
      .where(eq(dedicatedNetworks.id, entry.row.id))
      .returning();
    entry.row = row!;
  }

  /**
   * Deploys a network, or finishes one a crash interrupted: its chain id, its row (CA, credentials), the nodes'
   * certificates, then the nodes; resolves once every node runs. Called again, it changes nothing that exists.
   */
  deploy(input: DeployInput): Promise<NetworkStatus> {
    if (this.role === "peer") return this.forward("deploy", input);
    if (typeof input?.name !== "string" || !NAME.test(input.name))
      return Promise.reject(
        new Error(`a network name is lower-case letters, digits and dashes: ${String(input?.name)}`),
      );
    if (!Number.isInteger(input.peers) || input.peers < 1 || input.peers > MAX_PEERS)
      return Promise.reject(new Error(`a network has 1 to ${MAX_PEERS} peers`));
    if (typeof input.consensus !== "string" || !input.consensus.trim() || input.consensus.length > 32)
      return Promise.reject(new Error("a network names its consensus"));
    const problem = credentialsProblem(input);
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
            createdAt: this.deps.now(),
          })
          .onConflictDoNothing();
        [row] = await this.deps.db.select().from(dedicatedNetworks).where(eq(dedicatedNetworks.name, input.name));
      }
      const entry = await this.load(row!);
      if (entry.row.peers < input.peers || entry.row.state !== "running")
        await this.update(entry, { peers: Math.max(entry.row.peers, input.peers), state: "running" });
      await this.certify(entry.row);
      await this.run(entry);
      await entry.runtime!.addPeers(entry.row.peers);
      return this.statusOf(entry);
    });
  }

  /** Grows the network to `peers`; the new peers start and catch up (it resolves once they are started). */
  scale(name: string, peers: number): Promise<NetworkStatus> {
    if (this.role === "peer") return this.forward("scale", name, peers);
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

  /** Changes the gateway's authorized user and password (the old ones stop working at once). */
  setCredentials(name: string, input: Credentials): Promise<void> {
    if (this.role === "peer") return this.forward("setCredentials", name, input);
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
    if (this.role === "peer") return this.forward("stop", name);
    return this.locked(name, async () => {
      const entry = this.entry(name);
      await this.update(entry, { state: "stopped" });
      await this.halt(entry);
    });
  }

  /** Starts a stopped network's nodes again, where they were. */
  resume(name: string): Promise<NetworkStatus> {
    if (this.role === "peer") return this.forward("resume", name);
    return this.locked(name, async () => {
      const entry = this.entry(name);
      await this.update(entry, { state: "running" });
      await this.run(entry);
      return this.statusOf(entry);
    });
  }

  /** Ends the nodes and removes the network: its directory, its certificates, its chain and that chain's log. The name is free again. */
  remove(name: string): Promise<void> {
    if (this.role === "peer") return this.forward("remove", name);
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
          await tx.delete(chains).where(inArray(chains.id, [chain.id]));
        }
      });
      this.entries.delete(name);
    });
  }

  /** The network and its nodes with their live figures; null when there is no such network. */
  async status(name: string): Promise<NetworkStatus | null> {
    if (this.role === "peer") return this.forward("status", name);
    const entry = this.entries.get(name);
    return entry ? this.statusOf(entry) : null;
  }

  private async statusOf(entry: Entry): Promise<NetworkStatus> {
    const { row, runtime } = entry;
    const base = `${DEDICATED_PREFIX}${row.name}`;
    const certs = new Map<string, CertificateSummary>();
    for (const c of await this.deps.db
      .select()
      .from(dedicatedCertificates)
      .where(eq(dedicatedCertificates.networkId, row.id))) {
      certs.set(c.node, {
        subject: c.subject,
        serial: c.serial,
        notAfter: c.notAfter.toISOString(),
        fingerprint: c.fingerprint,
      });
    }
    const rpm = (node: string) => entry.counters.get(node)?.perMinute() ?? 0;
    const stopped = row.state === "stopped";
    const common = stopped
      ? "stopped"
      : entry.phase === "failed"
        ? "failed"
        : entry.phase === "starting" || !runtime
          ? "starting"
          : "running";
    const ordererHeight = runtime
      ? runtime.ordererHeight()
      : ((await recordedHead(this.deps.db, row.chainId))?.number ?? 0);
    const dir = this.dirOf(row.name);
    const nodes: NetworkNode[] = [
      {
        name: "orderer",
        type: 3,
        status: common,
        endpoint: `${base}/nodes/orderer`,
        height: ordererHeight,
        lag: null,
        requestsPerMinute: rpm("orderer"),
        bytesUsed: await bytesUnder(path.join(dir, "orderer")),
        certificate: certs.get("orderer") ?? null,
      },
    ];
    for (let i = 1; i <= row.peers; i++) {
      const peer = `peer-${i}`;
      const height = runtime?.peerHeight(peer);
      const status = common !== "running" ? common : height === undefined ? "starting" : runtime!.peerState(peer);
      nodes.push({
        name: peer,
        type: 1,
        status,
        endpoint: `${base}/nodes/${peer}`,
        height: height ?? null,
        lag: height === undefined ? null : Math.max(0, ordererHeight - height),
        requestsPerMinute: rpm(peer),
        bytesUsed: await bytesUnder(path.join(dir, peer)),
        certificate: certs.get(peer) ?? null,
      });
    }
    nodes.push({
      name: "gateway",
      type: 2,
      status: common,
      endpoint: base,
      height: ordererHeight,
      lag: null,
      requestsPerMinute: rpm("gateway"),
      bytesUsed: 0,
      certificate: certs.get("gateway") ?? null,
    });
    nodes.push({
      name: "ca",
      type: 4,
      status: stopped ? "stopped" : "running",
      endpoint: `${base}/ca`,
      height: null,
      lag: null,
      requestsPerMinute: rpm("ca"),
      // The CA's state is its certificate and sealed key, kept in the database.
      bytesUsed: Buffer.byteLength(row.caCertificatePem) + Buffer.byteLength(row.caKeySealed),
      certificate: await summaryOf(row.caCertificatePem),
    });
    return {
      name: row.name,
      chainId: row.chainId,
      state: stopped ? "stopped" : "running",
      consensus: row.consensus,
      peers: row.peers,
      nodes,
      caCertificatePem: row.caCertificatePem,
    };
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

  /** Checks the Basic credentials against the network's authorized user (a success is remembered for a minute). */
  private async authorized(entry: Entry, authorization: string | null): Promise<boolean> {
    const given = basicCredentials(authorization);
    if (!given) return false;
    const key = createHmac("sha256", this.cacheKey)
      .update(`${authorization}\0${entry.row.authUser}\0${entry.row.authPasswordHash}`)
      .digest("base64");
    const until = entry.verified.get(key);
    if (until !== undefined && until > Date.now()) return true;
    const ok =
      sameText(given.user, entry.row.authUser) && (await passwordMatches(given.password, entry.row.authPasswordHash));
    if (ok) {
      if (entry.verified.size > 1000) entry.verified.clear();
      entry.verified.set(key, Date.now() + VERIFIED_MS);
    }
    return ok;
  }

  /** One request to a network's endpoints: 404 unknown, 401 wrong credentials, 503 stopped, else the node's answer. */
  async serve(request: GatewayRequest): Promise<GatewayReply> {
    if (this.role === "peer") return this.forward("serve", request);
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
    if (entry.row.state === "stopped" || !runtime)
      return { status: 503, body: rpcError(-32002, `the network ${entry.row.name} is not running`) };
    let node;
    if (target === "gateway") {
      this.count(entry, "gateway");
      node = runtime.gateway;
    } else {
      node = target.node === "orderer" ? runtime.orderer : runtime.peer(target.node);
      if (!node) return { status: 404, body: rpcError(RPC.METHOD_NOT_FOUND, `no node named ${target.node}`) };
    }
    return { status: 200, body: await answerText(node, request.body) };
  }

  /** Sends `wei` from the network's treasury to `address`; resolves with the transaction's hash once recorded. */
  fund(name: string, address: string, wei: bigint): Promise<string> {
    if (this.role === "peer")
      return this.forward<{ hash: string }>("fund", name, address, wei.toString()).then((r) => r.hash);
    if (!/^0x[0-9a-fA-F]{40}$/.test(address))
      return Promise.reject(new RpcError(RPC.INVALID_PARAMS, `invalid address: ${address}`));
    if (wei <= 0n) return Promise.reject(new RpcError(RPC.INVALID_PARAMS, "the amount to fund is positive"));
    const entry = this.entry(name);
    const run = async () => {
      if (!entry.runtime) throw new Error(`the network ${name} is not running`);
      return signAndSend(entry.runtime.orderer, entry.row.chainId, entry.treasuryKey, {
        to: address,
        value: wei,
        gasLimit: 21_000n,
      });
    };
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
