import type { EngineRoute } from "#backend/kit/engine-calls.ts";
import type { BlockEvents, CommitStatus, FabricPeer, OrderInput, ProposalInput, Simulation } from "./peer-api.ts";
import { ChaincodeRefused, type FabricHost, type InstallInput, type Installed } from "./peer/host.ts";
import { identityOf, localIdentity, type LocalIdentity } from "./peer/identity.ts";

/**
 * One Fabric writer among the portal processes on one database (docs/decisions/078, 099): the holder of the `fabric`
 * engine's lease runs the embedded peer (every channel's ledger, the chaincode processes, the block log's writes)
 * and answers the others' calls over the engine link; another process's `peerFor`, installs, drops and trials are
 * calls there. So a transaction ordered through any process is committed once, in order, by the holder, and every
 * process simulates against the holder's state. The Gateway gRPC port is the holder's (docs/decisions/064); the
 * others learn its public address and TLS CA from it.
 */

/** A call to the holder (`resendable`: safe to send again when the first sending may have run). */
export type FabricCall = (path: string, body: unknown, resendable: boolean) => Promise<unknown>;

/** The calls that change nothing, sent again through a takeover; an order, an install or a drop never is. */
const READS = new Set([
  "/health",
  "/gateway",
  "/peer",
  "/peer/definition",
  "/peer/simulate",
  "/peer/status",
  "/peer/wait",
]);

/** A proposal signer as data (the test service's test identity): opened where it signs, in the owner. */
export type ProposalSigner = { mspId: string; certificatePem: string; privateKeyPem: string };
export type GatewayInfo = { publicUrl: string; port: number; caPem: string } | null;

/** JSON for the socket: bytes as base64, bigints and dates tagged, everything else as it is. */
function wire(value: unknown): unknown {
  if (value instanceof Uint8Array) return { $b: Buffer.from(value).toString("base64") };
  if (typeof value === "bigint") return { $n: value.toString() };
  if (value instanceof Date) return { $d: value.toISOString() };
  if (Array.isArray(value)) return value.map(wire);
  if (value && typeof value === "object")
    return Object.fromEntries(
      Object.entries(value).flatMap(([k, v]) => (v === undefined || typeof v === "function" ? [] : [[k, wire(v)]])),
    );
  return value;
}

function unwire<T>(value: unknown): T {
  if (Array.isArray(value)) return value.map((v) => unwire(v)) as T;
  if (value && typeof value === "object") {
    const o = value as Record<string, unknown>;
    if (typeof o.$b === "string") return new Uint8Array(Buffer.from(o.$b, "base64")) as T;
    if (typeof o.$n === "string") return BigInt(o.$n) as T;
    if (typeof o.$d === "string") return new Date(o.$d) as T;
    return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, unwire(v)])) as T;
  }
  return value as T;
}

/** What a peer worker reads of a channel when it asks for its peer: a snapshot, kept current by its own orders. */
type ChannelInfo = { chaincode: { name: string; version: string } | null; height: bigint };

/** The holder: answers the other processes' calls with this process's host. */
export function fabricAnswers(hostNow: () => FabricHost, gateway: () => GatewayInfo): EngineRoute {
  const info = async (channel: string): Promise<ChannelInfo> => {
    const peer = await hostNow().peer(channel);
    return { chaincode: peer.chaincode(), height: peer.height() };
  };
  return async (path, raw) => {
    const host = hostNow();
    const body = unwire<Record<string, unknown>>(raw ?? {});
    const channel = String(body.channel ?? "");
    switch (path) {
      case "/health":
        return host.health();
      case "/gateway":
        return { gateway: gateway() };
      case "/peer":
        return wire(await info(channel));
      case "/peer/definition":
        return { definition: (await (await host.peer(channel)).definition(String(body.name))) ?? null };
      case "/peer/simulate":
        return wire(await (await host.peer(channel)).simulate(body.input as ProposalInput, body.init === true));
      case "/peer/order":
        return wire(await (await host.peer(channel)).order(body.input as OrderInput));
      case "/peer/status":
        return wire({ status: await (await host.peer(channel)).commitStatus(String(body.txId)) });
      case "/peer/wait": {
        const peer = await host.peer(channel);
        const status = await peer
          .waitForCommit(String(body.txId), AbortSignal.timeout(Number(body.ms ?? 20_000)))
          .catch(() => null);
        return wire({ status });
      }
      case "/install": {
        const input = body.input as InstallInput & { signer?: ProposalSigner };
        try {
          const { signer, ...rest } = input;
          return wire({ installed: await host.install({ ...rest, initSigner: signer && (await identityOf(signer)) }) });
        } catch (error) {
          if (error instanceof ChaincodeRefused) return { refused: error.problems };
          throw error;
        }
      }
      case "/drop":
        await host.dropChannels((body.channels as string[]).map(String));
        return { dropped: true };
      default:
        throw new Error(`no fabric engine call ${path}`);
    }
  };
}

/** A channel of the owner's peer, as a peer worker reaches it. */
class RemotePeer implements FabricPeer {
  constructor(
    private readonly send: FabricCall,
    readonly channel: string,
    private info: ChannelInfo,
  ) {}

  private call<T>(path: string, body: object): Promise<T> {
    return this.send(path, wire({ channel: this.channel, ...body }), READS.has(path)).then((r) => unwire<T>(r));
  }

  chaincode() {
    return this.info.chaincode;
  }

  height() {
    return this.info.height;
  }

  async definition(name: string) {
    return (
      await this.call<{ definition: { name: string; version: string; sequence: number } | null }>("/peer/definition", {
        name,
      })
    ).definition;
  }

  simulate(input: ProposalInput, init = false): Promise<Simulation> {
    return this.call<Simulation>("/peer/simulate", { input, init });
  }

  async order(input: OrderInput): Promise<CommitStatus> {
    const status = await this.call<CommitStatus>("/peer/order", { input });
    if (status.blockNumber + 1n > this.info.height) this.info = { ...this.info, height: status.blockNumber + 1n };
    return status;
  }

  async commitStatus(txId: string): Promise<CommitStatus | null> {
    return (await this.call<{ status: CommitStatus | null }>("/peer/status", { txId })).status;
  }

  async waitForCommit(txId: string, signal: AbortSignal): Promise<CommitStatus> {
    for (;;) {
      if (signal.aborted) throw signal.reason ?? new Error("aborted");
      const { status } = await this.call<{ status: CommitStatus | null }>("/peer/wait", { txId, ms: 20_000 });
      if (status) return status;
    }
  }

  async *events(): AsyncIterable<BlockEvents> {
    throw new Error("chaincode events are served by the owner worker's gateway");
  }
}

/** The stand-in for the host in a process that forwards (the same methods the domain's api uses), each a call. */
export class RemoteHost {
  private identity: Promise<LocalIdentity> | null = null;

  constructor(private readonly send: FabricCall) {}

  /** The holder's gateway: its public address and TLS CA. */
  async gateway(): Promise<GatewayInfo> {
    return ((await this.send("/gateway", null, true)) as { gateway: GatewayInfo }).gateway;
  }

  async peer(
    channel: string,
  ): Promise<RemotePeer & { simulate(input: ProposalInput, init?: boolean): Promise<Simulation> }> {
    const info = unwire<ChannelInfo>(await this.send("/peer", wire({ channel }), true));
    return new RemotePeer(this.send, channel, info);
  }

  async install(input: Omit<InstallInput, "initSigner"> & { signer?: ProposalSigner }): Promise<Installed> {
    const answer = unwire<{ installed?: Installed; refused?: string[] }>(
      await this.send("/install", wire({ input }), false),
    );
    if (answer.refused) throw new ChaincodeRefused(answer.refused);
    return answer.installed!;
  }

  async dropChannels(channels: string[]): Promise<void> {
    if (channels.length) await this.send("/drop", { channels }, false);
  }

  /** The identity of this worker's own local proposals (the peer never checks their signature). */
  ownIdentity(): Promise<LocalIdentity> {
    this.identity ??= localIdentity();
    return this.identity;
  }

  async health() {
    return (await this.send("/health", null, true)) as ReturnType<FabricHost["health"]>;
  }

  async close(): Promise<void> {}
}
