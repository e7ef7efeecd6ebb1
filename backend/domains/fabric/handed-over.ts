import { heldCall } from "#backend/kit/engine-handover.ts";
import type { RemoteHost } from "./cluster.ts";
import type { BlockEvents, CommitStatus, FabricPeer, OrderInput, ProposalInput, Simulation } from "./peer-api.ts";
import { ChaincodeRefused, type FabricHost, type InstallInput, type Installed } from "./peer/host.ts";
import type { EmbeddedPeer } from "./peer/peer.ts";

/** A channel of the holder's peer as a forwarding process reaches it. */
type HolderPeer = Awaited<ReturnType<RemoteHost["peer"]>>;
type Held = <T>(run: () => Promise<T>, again?: () => Promise<T>) => Promise<T>;

/**
 * The Fabric peer run here as the holder of the `fabric` lease, as the domain's code uses it (docs/decisions/109).
 * When the peer moves to another process while a call is under way (`movedOn`: a handover or a takeover closed it
 * under the call), the call's failure is not the peer's answer:
 * - a read is asked of the next holder through `remote`: opening a channel, a chaincode's definition, a simulation
 *   (an endorsement commits nothing), a commit status and a wait for one;
 * - a write is refused as sent but unanswered (EngineUnreachableError, as RemoteHost's own call that lost its holder):
 *   an order, an install (its Init is an order), a drop of channels (a drop sent again could take a channel the next
 *   holder installed since).
 * A package the peer refused (ChaincodeRefused) is its own answer, moved or not; so is any failure with the lease
 * still here.
 */
export class HandedOverHost {
  private readonly held: Held;

  constructor(
    private readonly local: FabricHost,
    private readonly remote: RemoteHost,
    movedOn: () => boolean,
  ) {
    this.held = (run, again) =>
      heldCall("fabric", run, { movedOn, again, stands: (error) => error instanceof ChaincodeRefused });
  }

  /** The channel's peer, here; the holder's when the peer moved while it was being opened. */
  async peer(channel: string): Promise<HandedOverPeer | HolderPeer> {
    const holder = () => this.remote.peer(channel);
    return this.held<HandedOverPeer | HolderPeer>(
      async () => new HandedOverPeer(await this.local.peer(channel), holder, this.held),
      holder,
    );
  }

  install(input: InstallInput): Promise<Installed> {
    return this.held(() => this.local.install(input));
  }

  dropChannels(channels: string[]): Promise<void> {
    return this.held(() => this.local.dropChannels(channels));
  }

  ownIdentity() {
    return this.local.ownIdentity();
  }

  health() {
    return this.local.health();
  }

  processList() {
    return this.local.processList();
  }
}

/** One channel of the peer run here; its reads go to the next holder when the peer moved under them. */
export class HandedOverPeer implements FabricPeer {
  constructor(
    private readonly here: EmbeddedPeer,
    private readonly holder: () => Promise<HolderPeer>,
    private readonly held: Held,
  ) {}

  get channel() {
    return this.here.channel;
  }

  chaincode() {
    return this.here.chaincode();
  }

  height() {
    return this.here.height();
  }

  definition(name: string) {
    return this.held(
      () => this.here.definition(name),
      async () => (await this.holder()).definition(name),
    );
  }

  simulate(input: ProposalInput, init = false): Promise<Simulation> {
    return this.held(
      () => this.here.simulate(input, init),
      async () => (await this.holder()).simulate(input, init),
    );
  }

  order(input: OrderInput): Promise<CommitStatus> {
    return this.held(() => this.here.order(input));
  }

  commitStatus(txId: string): Promise<CommitStatus | null> {
    return this.held(
      () => this.here.commitStatus(txId),
      async () => (await this.holder()).commitStatus(txId),
    );
  }

  waitForCommit(txId: string, signal: AbortSignal): Promise<CommitStatus> {
    return this.held(
      () => this.here.waitForCommit(txId, signal),
      async () => (await this.holder()).waitForCommit(txId, signal),
    );
  }

  /** Served by the holder's own gateway only (it closes with the peer): not moved. */
  events(chaincode: string, startBlock: bigint | undefined, signal: AbortSignal): AsyncIterable<BlockEvents> {
    return this.here.events(chaincode, startBlock, signal);
  }
}
