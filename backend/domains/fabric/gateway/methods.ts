import type { X509Certificate } from "node:crypto";
import { status as Status } from "@grpc/grpc-js";
import { gateway, peer as peerProtos } from "@hyperledger/fabric-protos";
import type { GatewayChannel } from "./types.ts";
import { checkEndorsement, preparedTransaction, readEnvelope, responseOf } from "./endorse.ts";
import { LIFECYCLE, lifecycleQuery } from "./lifecycle.ts";
import {
  GatewayFault,
  checkMember,
  checkSignature,
  decode,
  denied,
  invalid,
  readIdentity,
  readProposal,
  type Creator,
  type ParsedProposal,
} from "./wire.ts";

/**
 * The five methods of `gateway.Gateway` (docs/decisions/065). Each reads its request from the bytes, checks the
 * caller (signature, certificate of the channel's CA, an admitted participant) before the peer sees anything,
 * then asks the peer through the seam (../peer-api.ts).
 */
type Channel<P> = GatewayChannel<P> & { ca: X509Certificate };

export type Call<P> = {
  request: Buffer;
  signal: AbortSignal;
  send(bytes: Uint8Array): void;
  context: { now(): Date; channel(name: string): Promise<Channel<P>> };
  /** Set once the caller is admitted: the meter counts the call under it. */
  admitted?: { channel: string; participant: P };
  onAdmit?(): void;
};

/** The caller of `channel` proven by `signature` over `message`, admitted by the service, or a refusal. */
async function admit<P>(
  call: Call<P>,
  channel: Channel<P>,
  creator: Creator,
  signed: [Uint8Array, Uint8Array, string],
) {
  checkSignature(creator, signed[0], signed[1], signed[2]);
  checkMember(creator, { mspId: channel.mspId, ca: channel.ca }, call.context.now());
  const participant = await channel.admit(creator.certificatePem);
  if (participant === null)
    throw denied("the certificate is not of an approved, enabled participant of this service (revoked or unknown)");
  call.admitted = { channel: channel.peer.channel, participant };
  call.onAdmit?.();
}

/** A proposal of an Evaluate or Endorse request, its channel and caller checked. */
async function proposalOf<P>(call: Call<P>, request: gateway.EvaluateRequest | gateway.EndorseRequest) {
  const proposal = readProposal(request.getProposedTransaction());
  if (request.getChannelId() && request.getChannelId() !== proposal.channel)
    throw invalid("the request's channel is not the proposal's channel");
  if (request.getTransactionId() && request.getTransactionId() !== proposal.txId)
    throw invalid("the request's transaction id is not the proposal's");
  const channel = await call.context.channel(proposal.channel);
  await admit(call, channel, proposal.creator, [proposal.proposalBytes, proposal.signature, "proposal"]);
  // The channel's `_lifecycle` system chaincode answers its definition query (./lifecycle.ts), installed or not.
  if (proposal.chaincode === LIFECYCLE) return { proposal, channel };
  const installed = channel.peer.chaincode();
  if (!installed)
    throw new GatewayFault(Status.FAILED_PRECONDITION, `no chaincode is installed on channel ${proposal.channel} yet`);
  if (installed.name !== proposal.chaincode)
    throw new GatewayFault(
      Status.NOT_FOUND,
      `chaincode ${JSON.stringify(proposal.chaincode)} is not installed on channel ${proposal.channel} (it has ${installed.name})`,
    );
  return { proposal, channel };
}

async function simulate<P>(channel: Channel<P>, proposal: ParsedProposal) {
  return channel.peer.simulate({
    channel: proposal.channel,
    chaincode: proposal.chaincode,
    txId: proposal.txId,
    args: proposal.args,
    transient: proposal.transient,
    creator: {
      mspId: proposal.creator.mspId,
      certificatePem: proposal.creator.certificatePem,
      serialized: proposal.creator.serialized,
    },
    timestamp: proposal.timestamp,
    signedProposal: proposal.signedProposal,
  });
}

/** A chaincode's error answer, the Fabric way: its status and message, and the peer that gave it. */
function chaincodeFault<P>(channel: Channel<P>, code: Status, lead: string, status: number, message: string) {
  const detail = `chaincode response ${status}, ${message}`;
  return new GatewayFault(code, `${lead}: ${detail}`, false, [
    { address: `peer0.${channel.peer.channel}`, mspId: channel.mspId, message: detail },
  ]);
}

async function evaluate<P>(call: Call<P>) {
  const request = decode("the evaluate request", call.request, (b) => gateway.EvaluateRequest.deserializeBinary(b));
  const { proposal, channel } = await proposalOf(call, request);
  const simulation =
    proposal.chaincode === LIFECYCLE
      ? {
          response: await lifecycleQuery(channel.peer, proposal.args),
          results: new Uint8Array(),
          chaincodeId: { name: LIFECYCLE, version: "" },
        }
      : await simulate(channel, proposal);
  const { status, message } = simulation.response;
  if (status < 200 || status >= 400)
    throw chaincodeFault(channel, Status.UNKNOWN, "evaluate call to endorser returned error", status, message);
  const response = new gateway.EvaluateResponse();
  response.setResult(responseOf(simulation));
  call.send(response.serializeBinary());
}

async function endorse<P>(call: Call<P>) {
  const request = decode("the endorse request", call.request, (b) => gateway.EndorseRequest.deserializeBinary(b));
  const { proposal, channel } = await proposalOf(call, request);
  if (proposal.chaincode === LIFECYCLE)
    throw new GatewayFault(Status.FAILED_PRECONDITION, "_lifecycle is only queried here (Evaluate), not endorsed");
  const simulation = await simulate(channel, proposal);
  const { status, message } = simulation.response;
  if (status < 200 || status >= 400)
    throw chaincodeFault(channel, Status.ABORTED, "failed to endorse transaction", status, message);
  const response = new gateway.EndorseResponse();
  response.setPreparedTransaction(preparedTransaction(proposal, simulation, channel.endorser));
  call.send(response.serializeBinary());
}

async function submit<P>(call: Call<P>) {
  const request = decode("the submit request", call.request, (b) => gateway.SubmitRequest.deserializeBinary(b));
  const envelope = request.getPreparedTransaction();
  const tx = readEnvelope(envelope);
  if (request.getTransactionId() !== tx.txId) throw invalid("the request's transaction id is not the envelope's");
  if (request.getChannelId() !== tx.channel) throw invalid("the request's channel is not the envelope's channel");
  const channel = await call.context.channel(tx.channel);
  await admit(call, channel, tx.creator, [tx.payloadBytes, tx.signature, "transaction envelope"]);
  checkEndorsement(tx, channel.endorser);
  await channel.peer.order({
    channel: tx.channel,
    txId: tx.txId,
    envelope: envelope!.serializeBinary(),
    results: tx.results,
    event: tx.event,
    chaincode: tx.chaincode,
  });
  call.send(new gateway.SubmitResponse().serializeBinary());
}

/** A signed request (`SignedCommitStatusRequest`, `SignedChaincodeEventsRequest`) read and its caller admitted. */
async function signedRequest<P, R extends { getChannelId(): string; getIdentity_asU8(): Uint8Array }>(
  call: Call<P>,
  what: string,
  outer: { getRequest_asU8(): Uint8Array; getSignature_asU8(): Uint8Array },
  read: (b: Uint8Array) => R,
) {
  const bytes = outer.getRequest_asU8();
  const request = decode(what, bytes, read);
  const creator = readIdentity(request.getIdentity_asU8());
  const channel = await call.context.channel(request.getChannelId());
  await admit(call, channel, creator, [bytes, outer.getSignature_asU8(), what]);
  return { request, channel };
}

async function commitStatus<P>(call: Call<P>) {
  const outer = decode("the signed commit status request", call.request, (b) =>
    gateway.SignedCommitStatusRequest.deserializeBinary(b),
  );
  const { request, channel } = await signedRequest(call, "commit status request", outer, (b) =>
    gateway.CommitStatusRequest.deserializeBinary(b),
  );
  const txId = request.getTransactionId();
  if (!/^[0-9a-f]{64}$/.test(txId)) throw invalid("the transaction id is not 64 hex digits");
  const status = await channel.peer.waitForCommit(txId, call.signal);
  const response = new gateway.CommitStatusResponse();
  response.setResult(status.validationCode as peerProtos.TxValidationCodeMap[keyof peerProtos.TxValidationCodeMap]);
  response.setBlockNumber(Number(status.blockNumber));
  call.send(response.serializeBinary());
}

async function chaincodeEvents<P>(call: Call<P>) {
  const outer = decode("the signed chaincode events request", call.request, (b) =>
    gateway.SignedChaincodeEventsRequest.deserializeBinary(b),
  );
  const { request, channel } = await signedRequest(call, "chaincode events request", outer, (b) =>
    gateway.ChaincodeEventsRequest.deserializeBinary(b),
  );
  const chaincode = request.getChaincodeId();
  if (!chaincode) throw invalid("the request names no chaincode");
  const position = request.getStartPosition();
  let start: bigint | undefined;
  if (position?.hasSpecified()) start = BigInt(position.getSpecified()!.getNumber());
  else if (position?.hasOldest()) start = 0n;
  else if (position?.hasNewest()) start = channel.peer.height() > 0n ? channel.peer.height() - 1n : 0n;
  let after = request.getAfterTransactionId();
  for await (const block of channel.peer.events(chaincode, start, call.signal)) {
    let events = block.events.filter((e) => e.chaincodeName === chaincode);
    if (after) {
      const i = events.findIndex((e) => e.txId === after);
      if (i >= 0) events = events.slice(i + 1);
      after = "";
    }
    if (!events.length) continue;
    const response = new gateway.ChaincodeEventsResponse();
    response.setBlockNumber(Number(block.blockNumber));
    response.setEventsList(
      events.map((e) => {
        const event = new peerProtos.ChaincodeEvent();
        event.setChaincodeId(e.chaincodeName);
        event.setTxId(e.txId);
        event.setEventName(e.eventName);
        event.setPayload(e.payload);
        return event;
      }),
    );
    call.send(response.serializeBinary());
  }
}

export const handlers = {
  Evaluate: evaluate,
  Endorse: endorse,
  Submit: submit,
  CommitStatus: commitStatus,
  ChaincodeEvents: chaincodeEvents,
};
