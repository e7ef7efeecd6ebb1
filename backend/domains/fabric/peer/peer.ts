import { peer as pb } from "@hyperledger/fabric-protos";
import type { BlockEvents, CommitStatus, FabricPeer, OrderInput, ProposalInput, Simulation } from "../peer-api.ts";
import type { ChannelLedger } from "./ledger.ts";
import type { ChaincodeProcess } from "./process.ts";
import { encodeRwset, newNsRecord } from "./state.ts";

/** The chaincode's event as the peer completes it: the shim leaves its chaincode id and transaction id to the peer. */
function stampedEvent(bytes: Uint8Array, chaincode: string, txId: string): Uint8Array {
  const event = pb.ChaincodeEvent.deserializeBinary(bytes);
  event.setChaincodeId(chaincode);
  event.setTxId(txId);
  return event.serializeBinary();
}

/** What a channel's peer needs of its host: the installed chaincode and its process. */
export type PeerHost = {
  installed(channel: string): { name: string; version: string } | null;
  definition(channel: string, name: string): Promise<{ name: string; version: string; sequence: number } | null>;
  process(channel: string, chaincode: { name: string; version: string }): ChaincodeProcess | string;
};

/**
 * One channel of the embedded peer (`FabricPeer`, the seam the gateway codes against): proposals run in the
 * chaincode's process against the channel's committed state, and their reads and writes come back as a read/write
 * set; ordering goes to the channel's ledger.
 */
export class EmbeddedPeer implements FabricPeer {
  constructor(
    private readonly host: PeerHost,
    private readonly ledger: ChannelLedger,
  ) {}

  get channel() {
    return this.ledger.channel;
  }

  chaincode() {
    return this.host.installed(this.channel);
  }

  definition(name: string) {
    return this.host.definition(this.channel, name);
  }

  async simulate(input: ProposalInput, init = false): Promise<Simulation> {
    const installed = this.chaincode();
    const empty = (message: string): Simulation => ({
      response: { status: 500, message, payload: new Uint8Array() },
      results: encodeRwset(new Map()),
      chaincodeId: installed ?? { name: input.chaincode, version: "" },
    });
    if (input.channel !== this.channel) return empty(`this peer serves channel ${this.channel}, not ${input.channel}`);
    if (!installed || installed.name !== input.chaincode)
      return empty(`chaincode ${input.chaincode} is not installed on channel ${this.channel}`);
    const proc = this.host.process(this.channel, installed);
    if (typeof proc === "string") return empty(proc);
    const record = newNsRecord();
    const answer = await proc.invoke({
      init,
      channel: this.channel,
      txId: input.txId,
      args: input.args,
      signedProposal: input.signedProposal,
      ctx: { state: this.ledger.state, namespace: installed.name, record },
    });
    return {
      response: answer.response,
      results: encodeRwset(new Map([[installed.name, record]])),
      event: answer.event && stampedEvent(answer.event, installed.name, input.txId),
      chaincodeId: installed,
    };
  }

  order(input: OrderInput): Promise<CommitStatus> {
    return this.ledger.order(input);
  }

  async commitStatus(txId: string): Promise<CommitStatus | null> {
    return this.ledger.status(txId);
  }

  waitForCommit(txId: string, signal: AbortSignal): Promise<CommitStatus> {
    return this.ledger.waitForCommit(txId, signal);
  }

  events(chaincode: string, startBlock: bigint | undefined, signal: AbortSignal): AsyncIterable<BlockEvents> {
    return this.ledger.events(chaincode, startBlock, signal);
  }

  height(): bigint {
    return this.ledger.height();
  }
}
