import type { Deps } from "#backend/deps.ts";
import { EngineOwnership } from "#backend/kit/engine-owner.ts";
import { fabricAnswers, RemoteHost, type GatewayInfo } from "./cluster.ts";
import type { RunningGateway } from "./gateway/types.ts";
import { HandedOverHost } from "./handed-over.ts";
import { DEFAULT_HOST, FabricHost } from "./peer/host.ts";

/** A throwaway channel older than this at start was left by an interrupted test job. */
const STALE_TRIAL_MS = 15 * 60_000;
/** How often a forwarding process asks the holder for its gateway's address (it moves with a takeover). */
const GATEWAY_REFRESH_MS = 5_000;

export type HeldGateway = { running: RunningGateway; caPem: string };

/**
 * Where this process's Fabric peer is (docs/decisions/064, 078, 099): run here (alone on the embedded database, or as
 * the holder of the `fabric` lease with DATABASE_URL), with the Gateway gRPC service in front of it; or forwarded to
 * the holder over the engine link. A process takes the peer over when the holder dies or stops: it reopens each
 * channel from the block log at first use, unpacks the installed packages again from the file store, and serves
 * the gateway with the deployment's CA (fabric_gateway_ca).
 */
export class FabricEngine {
  private local: FabricHost | null = null;
  /** The local host as the domain's calls use it under the lease (docs/decisions/109). */
  private handedOver: HandedOverHost | null = null;
  private readonly remote: RemoteHost | null = null;
  private held: HeldGateway | null = null;
  private holdersGateway: GatewayInfo = null;
  private readonly ownership: EngineOwnership | null = null;
  private refresher: NodeJS.Timeout | undefined;

  constructor(
    private readonly deps: Deps,
    /** Starts the gateway in front of a host run here. */
    private readonly serveGateway: (host: FabricHost) => Promise<HeldGateway>,
  ) {
    if (!deps.env.engineLink) return;
    this.ownership = new EngineOwnership(
      deps,
      "fabric",
      {
        becomeOwner: () => this.runHere(),
        becomePeer: () => this.forwardFromNow(),
        answer: fabricAnswers(
          () => {
            if (!this.local) throw new Error("the Fabric peer is not open in this process");
            return this.local;
          },
          () => this.gateway(),
        ),
      },
      // A cluster's peer worker keeps nothing under DATA_DIR (docs/decisions/031): it never runs the peer.
      deps.env.cluster?.role !== "peer",
    );
    const ownership = this.ownership;
    this.remote = new RemoteHost((path, body, resendable) => ownership.call(path, body, resendable));
  }

  async start(): Promise<void> {
    if (this.ownership) await this.ownership.start();
    else await this.runHere();
  }

  /**
   * The peer as this process reaches it now: its own, or the holder's through calls (also once a stop has begun: the
   * next holder answers). Under the lease, a call under way here when the peer moves on goes to the next holder or is
   * refused as unanswered (./handed-over.ts).
   */
  host(): FabricHost | HandedOverHost | RemoteHost {
    if (this.ownership && !this.ownership.answersHere) return this.remote!;
    if (!this.local) throw new Error("the fabric domain has not started");
    return this.handedOver ?? this.local;
  }

  /** The gateway's address for clients, its port and the CA they pin: this process's, or the holder's. */
  gateway(): GatewayInfo {
    if (!this.held) return this.holdersGateway;
    // FABRIC_GATEWAY_PORT=0 (tests) listens on a free port: the address names the one it got.
    const publicUrl = this.deps.env.fabricGateway.publicUrl.replace(/:0$/, `:${this.held.running.port}`);
    return { publicUrl, port: this.held.running.port, caPem: this.held.caPem };
  }

  /** Who runs the peer (/healthz); null when this process is alone. */
  readonly holder = () => this.ownership?.holder() ?? Promise.resolve(null);

  private async runHere(): Promise<void> {
    clearInterval(this.refresher);
    const host = new FabricHost(
      this.deps.db,
      this.deps.env.dataDir,
      this.deps.now,
      { ...DEFAULT_HOST, limits: { ...DEFAULT_HOST.limits, invocationMs: this.deps.env.fabricChaincodeTimeoutMs } },
      this.deps.files,
      this.ownership ? (tx) => this.ownership!.fence(tx) : undefined,
    );
    this.local = host;
    const ownership = this.ownership;
    this.handedOver = ownership ? new HandedOverHost(host, this.remote!, () => !ownership.answersHere) : null;
    // The process that runs the peer serves the gateway (docs/decisions/064). It also drops the throwaway channels
    // of test jobs that a stop interrupted (docs/decisions/069).
    const [held] = await Promise.all([
      this.serveGateway(host),
      host.dropStaleTrials(new Date(this.deps.now().getTime() - STALE_TRIAL_MS)),
    ]);
    this.held = held;
  }

  private async forwardFromNow(): Promise<void> {
    await this.stopHere();
    const refresh = async () => {
      this.holdersGateway = (await this.remote!.gateway().catch(() => this.holdersGateway)) ?? null;
    };
    await refresh();
    clearInterval(this.refresher);
    this.refresher = setInterval(() => void refresh(), GATEWAY_REFRESH_MS);
    this.refresher.unref();
  }

  private async stopHere(): Promise<void> {
    const [held, local] = [this.held, this.local];
    this.held = null;
    this.local = null;
    this.handedOver = null;
    await held?.running.close();
    await local?.close();
  }

  async close(): Promise<void> {
    clearInterval(this.refresher);
    await this.ownership?.stop();
    await this.stopHere();
    // Closed, so nothing more is committed here: the next holder may take over at once.
    await this.ownership?.release();
  }
}
