import { createHmac, randomBytes } from "node:crypto";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { Deps } from "#backend/deps.ts";
import { heldCall } from "#backend/kit/engine-handover.ts";
import { EngineUnreachableError } from "#backend/kit/engine-link.ts";
import type { EngineOwnership } from "#backend/kit/engine-owner.ts";
import { RpcError } from "#backend/domains/chain/hex.ts";
import { recordedHead } from "#backend/domains/chain/records.ts";
import { handedOverNode } from "#backend/domains/chain/registry-calls.ts";
import { NODE_UNAVAILABLE } from "#backend/domains/chain/remote.ts";
import type { ChainNode } from "#backend/domains/chain/rpc.ts";
import { reserveDedicatedChain } from "#backend/domains/chain/chain-ids.ts";
import { dedicatedCertificates, dedicatedNetworks } from "#backend/domains/chain/tables.ts";
import { issueNodeCertificate, summaryOf, type CertificateSummary } from "./ca.ts";
import { basicCredentials, passwordMatches, sameText } from "./credentials.ts";
import { bytesUnder, NetworkRuntime, RequestCounter } from "./network.ts";
import { RateWindow } from "./limits.ts";
import type { GatewayReply, GatewayRequest, NetworkNode, NetworkStatus, NodeLimits } from "./types.ts";

/** A successful credentials check is remembered this long (scrypt costs tens of milliseconds). */
const VERIFIED_MS = 60_000;
/** The orderer's stored bytes are measured again after this long (the storage limit's check, docs/decisions/074). */
const STORED_MS = 2_000;
/** The gateway's paths: /chain/dedicated/<network>, …/nodes/<node>, …/ca. */
export const DEDICATED_PREFIX = "/chain/dedicated/";

export type NetworkRow = typeof dedicatedNetworks.$inferSelect;

export type Entry = {
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
  /** Per node, the calls admitted in the rate's window (docs/decisions/074). */
  windows: Map<string, RateWindow>;
  /** The orderer's stored bytes as last measured, and when. */
  stored?: { bytes: number; at: number };
};

/** The limits a network's row records; null when it has none. */
export const limitsOf = (row: NetworkRow): NodeLimits | null =>
  row.requestsPerSecond === null || row.storageLimitBytes === null
    ? null
    : { requestsPerSecond: row.requestsPerSecond, storageBytes: row.storageLimitBytes };

/**
 * What the embedded provisioner (./provisioner.ts) keeps of each network and the steps its operations share:
 * the entries and their locks, loading, running and halting a network's nodes, its certificates, its row,
 * its status and the check of its gateway's credentials.
 */
export abstract class ProvisionerState {
  protected readonly entries = new Map<string, Entry>();
  protected readonly locks = new Map<string, Promise<unknown>>();
  protected readonly cacheKey = randomBytes(32);
  /**
   * With several portal processes on one database (DATABASE_URL), the holder of the `dedicated` engine's lease runs
   * every network and answers the others' calls, which forward there (docs/decisions/095, 099); null: alone.
   */
  protected ownership: EngineOwnership | null = null;

  constructor(protected readonly deps: Deps) {}

  /**
   * Whether this process forwards its calls to the networks' holder: another process runs them, or this one is
   * stopping (its calls go to the next holder, docs/decisions/106).
   */
  protected get forwarded(): boolean {
    return !!this.ownership && !this.ownership.answersHere;
  }

  /**
   * A call the holder makes on its own networks (docs/decisions/109): when the networks moved to another process under
   * it (or the lease's fence refused its block), a read is asked of the next holder (`again`), a write is refused as
   * sent but unanswered (EngineUnreachableError, as a forwarded call that lost its holder); else its own outcome.
   */
  protected held<T>(work: () => Promise<T>, again?: () => Promise<T>): Promise<T> {
    if (!this.ownership) return work();
    return heldCall("dedicated", work, { movedOn: () => this.forwarded, again });
  }

  /**
   * A network's node as the holder serves it (docs/decisions/109): a read under way when the networks moved is asked
   * of the next holder's same endpoint, one call; a send is NODE_UNAVAILABLE (./registry-calls.ts handedOverNode).
   */
  protected handedOver(node: ChainNode, request: GatewayRequest): ChainNode {
    const ownership = this.ownership;
    if (!ownership) return node;
    const holder: ChainNode = {
      request: async (call) => {
        const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: call.method, params: call.params ?? [] });
        const reply = await ownership.call<GatewayReply>("/serve", [{ ...request, body }], true);
        const answer = reply.body as { result?: unknown; error?: { code: number; message: string; data?: string } };
        if (answer?.error) throw new RpcError(answer.error.code, answer.error.message, answer.error.data);
        if (reply.status !== 200)
          throw new RpcError(NODE_UNAVAILABLE, `the network ${request.network} answered HTTP ${reply.status}`);
        return answer?.result ?? null;
      },
    };
    return handedOverNode(node, request.network, holder, () => this.forwarded);
  }

  protected dirOf(name: string): string {
    return path.join(this.deps.env.dataDir, "dedicated", name);
  }

  /** A call to the holder; only a status (a read) is sent again when its first sending may have run. */
  protected forward<T>(method: string, ...args: unknown[]): Promise<T> {
    return this.ownership!.call<T>(`/${method}`, args, method === "status");
  }

  /**
   * Runs `work` after every earlier change of the same network (a write: see `held`). A change whose turn comes after
   * the networks moved on does not run here (a new holder runs them now): refused as not sent.
   */
  protected locked<T>(name: string, work: () => Promise<T>): Promise<T> {
    const moved = () =>
      new EngineUnreachableError(`the dedicated networks moved to another process before ${name}'s change`, false);
    const change = () => (this.forwarded ? Promise.reject(moved()) : this.held(work));
    const result = (this.locks.get(name) ?? Promise.resolve()).then(change, change);
    this.locks.set(
      name,
      result.catch(() => undefined),
    );
    return result;
  }

  protected async load(row: NetworkRow): Promise<Entry> {
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
      windows: new Map(),
    };
    this.entries.set(row.name, entry);
    return entry;
  }

  /** Starts the network's nodes when they are not running; a failure is kept and shown as the nodes' status. */
  protected async run(entry: Entry): Promise<void> {
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
      this.ownership ? (tx) => this.ownership!.fence(tx) : undefined,
      { files: this.deps.files, every: this.deps.env.chainSnapshotBlocks },
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

  protected async halt(entry: Entry): Promise<void> {
    const runtime = entry.runtime;
    entry.runtime = null;
    await runtime?.close();
  }

  protected count(entry: Entry, node: string): void {
    let counter = entry.counters.get(node);
    if (!counter) entry.counters.set(node, (counter = new RequestCounter()));
    counter.hit();
  }

  /** The bytes the orderer stores on disk (every write goes through it), measured at most every STORED_MS. */
  protected async storedBytes(entry: Entry): Promise<number> {
    const now = Date.now();
    if (entry.stored && now - entry.stored.at < STORED_MS) return entry.stored.bytes;
    const bytes = await bytesUnder(path.join(this.dirOf(entry.row.name), "orderer"));
    entry.stored = { bytes, at: now };
    return bytes;
  }

  protected entry(name: string): Entry {
    const entry = this.entries.get(name);
    if (!entry) throw new Error(`no dedicated network named ${name}`);
    return entry;
  }

  /** Issues the certificates its nodes lack (orderer, peers, gateway). */
  protected async certify(row: NetworkRow): Promise<void> {
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

  protected async update(
    entry: Entry,
    values: Partial<
      Pick<NetworkRow, "peers" | "state" | "authUser" | "authPasswordHash" | "requestsPerSecond" | "storageLimitBytes">
    >,
  ): Promise<void> {
    const [row] = await this.deps.db
      .update(dedicatedNetworks)
      .set(values)
      .where(eq(dedicatedNetworks.id, entry.row.id))
      .returning();
    entry.row = row!;
  }

  protected async statusOf(entry: Entry): Promise<NetworkStatus> {
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
    const limits = limitsOf(row);
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
        limits,
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
        limits,
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
      limits,
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
      limits: null,
      certificate: await summaryOf(row.caCertificatePem),
    });
    return {
      name: row.name,
      chainId: row.chainId,
      state: stopped ? "stopped" : "running",
      consensus: row.consensus,
      peers: row.peers,
      limits,
      nodes,
      caCertificatePem: row.caCertificatePem,
    };
  }

  /** Checks the Basic credentials against the network's authorized user (a success is remembered for a minute). */
  protected async authorized(entry: Entry, authorization: string | null): Promise<boolean> {
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
}
