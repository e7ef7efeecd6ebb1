import { createPublicKey, sign, verify, type KeyObject } from "node:crypto";
import { common, msp, peer } from "@hyperledger/fabric-protos";
import type { Simulation } from "../peer-api.ts";
import { decode, denied, invalid, proposalHash, readIdentity, type Creator, type ParsedProposal } from "./wire.ts";

/**
 * Endorsement and the prepared transaction (docs/decisions/065): what Endorse answers and what Submit checks. The
 * peer signs `ProposalResponsePayload` + its serialized identity with its own key (a certificate of the service's
 * CA); the client signs the envelope's payload; Submit accepts only an envelope whose endorsement is this peer's,
 * over the proposal hash of the envelope's own header and payload, for the transaction id the request names.
 */
export type Endorser = { mspId: string; certificatePem: string; privateKey: KeyObject };

export function serializedIdentity(mspId: string, certificatePem: string): Uint8Array {
  const identity = new msp.SerializedIdentity();
  identity.setMspid(mspId);
  identity.setIdBytes(Buffer.from(certificatePem, "utf8"));
  return identity.serializeBinary();
}

/** The `protos.Response` of a simulation. */
export function responseOf(simulation: Simulation): peer.Response {
  const response = new peer.Response();
  response.setStatus(simulation.response.status);
  response.setMessage(simulation.response.message);
  response.setPayload(simulation.response.payload);
  return response;
}

/** The endorsed `ChaincodeAction` inside a `ProposalResponsePayload`, signed by the endorser. */
function endorse(proposal: ParsedProposal, simulation: Simulation, endorser: Endorser) {
  const action = new peer.ChaincodeAction();
  action.setResults(simulation.results);
  if (simulation.event) action.setEvents(simulation.event);
  action.setResponse(responseOf(simulation));
  const id = new peer.ChaincodeID();
  id.setName(simulation.chaincodeId.name);
  id.setVersion(simulation.chaincodeId.version);
  action.setChaincodeId(id);
  const payload = new peer.ProposalResponsePayload();
  payload.setProposalHash(proposalHash(proposal));
  payload.setExtension$(action.serializeBinary());
  const payloadBytes = payload.serializeBinary();
  const endorserBytes = serializedIdentity(endorser.mspId, endorser.certificatePem);
  const endorsement = new peer.Endorsement();
  endorsement.setEndorser(endorserBytes);
  endorsement.setSignature(
    sign("sha256", Buffer.concat([payloadBytes, endorserBytes]), { key: endorser.privateKey, dsaEncoding: "der" }),
  );
  return { payloadBytes, endorsement };
}

/** The unsigned transaction `Envelope` Endorse answers (the client signs its payload and submits it). */
export function preparedTransaction(proposal: ParsedProposal, simulation: Simulation, endorser: Endorser) {
  const { payloadBytes, endorsement } = endorse(proposal, simulation, endorser);
  const endorsed = new peer.ChaincodeEndorsedAction();
  endorsed.setProposalResponsePayload(payloadBytes);
  endorsed.setEndorsementsList([endorsement]);
  const actionPayload = new peer.ChaincodeActionPayload();
  actionPayload.setChaincodeProposalPayload(proposal.visiblePayload);
  actionPayload.setAction(endorsed);
  const txAction = new peer.TransactionAction();
  txAction.setHeader(proposal.signatureHeaderBytes);
  txAction.setPayload(actionPayload.serializeBinary());
  const tx = new peer.Transaction();
  tx.setActionsList([txAction]);
  const header = new common.Header();
  header.setChannelHeader(proposal.channelHeaderBytes);
  header.setSignatureHeader(proposal.signatureHeaderBytes);
  const payload = new common.Payload();
  payload.setHeader(header);
  payload.setData(tx.serializeBinary());
  const envelope = new common.Envelope();
  envelope.setPayload(payload.serializeBinary());
  return envelope;
}

/** What a submitted envelope holds, read and checked against the endorser. */
export type SubmittedTransaction = {
  channel: string;
  txId: string;
  creator: Creator;
  payloadBytes: Uint8Array;
  signature: Uint8Array;
  chaincode: string;
  results: Uint8Array;
  event?: Uint8Array;
};

/** Reads a submitted `Envelope` down to its endorsed action (no identity check yet). */
export function readEnvelope(envelope: common.Envelope | undefined): SubmittedTransaction & {
  endorsements: peer.Endorsement[];
  proposalResponsePayload: Uint8Array;
  expectedHash: Uint8Array;
  responseStatus: number;
} {
  if (!envelope) throw invalid("the request carries no prepared transaction");
  const payloadBytes = envelope.getPayload_asU8();
  const payload = decode("the transaction payload", payloadBytes, (b) => common.Payload.deserializeBinary(b));
  const header = payload.getHeader();
  if (!header) throw invalid("the transaction payload has no header");
  const channelHeaderBytes = header.getChannelHeader_asU8();
  const signatureHeaderBytes = header.getSignatureHeader_asU8();
  const channelHeader = decode("the channel header", channelHeaderBytes, (b) =>
    common.ChannelHeader.deserializeBinary(b),
  );
  const signatureHeader = decode("the signature header", signatureHeaderBytes, (b) =>
    common.SignatureHeader.deserializeBinary(b),
  );
  const creator = readIdentity(signatureHeader.getCreator_asU8());
  const tx = decode("the transaction", payload.getData_asU8(), (b) => peer.Transaction.deserializeBinary(b));
  const actions = tx.getActionsList();
  if (actions.length !== 1) throw invalid("the transaction must hold exactly one action");
  const actionPayload = decode("the chaincode action payload", actions[0]!.getPayload_asU8(), (b) =>
    peer.ChaincodeActionPayload.deserializeBinary(b),
  );
  const endorsed = actionPayload.getAction();
  if (!endorsed) throw invalid("the transaction has no endorsed action");
  const proposalResponsePayload = endorsed.getProposalResponsePayload_asU8();
  const responsePayload = decode("the proposal response payload", proposalResponsePayload, (b) =>
    peer.ProposalResponsePayload.deserializeBinary(b),
  );
  const action = decode("the chaincode action", responsePayload.getExtension_asU8(), (b) =>
    peer.ChaincodeAction.deserializeBinary(b),
  );
  const expectedHash = proposalHash({
    channelHeaderBytes,
    signatureHeaderBytes,
    visiblePayload: actionPayload.getChaincodeProposalPayload_asU8(),
  });
  if (!Buffer.from(responsePayload.getProposalHash_asU8()).equals(Buffer.from(expectedHash)))
    throw denied("the endorsement is not for this transaction's proposal (proposal hash differs)");
  const event = action.getEvents_asU8();
  return {
    channel: channelHeader.getChannelId(),
    txId: channelHeader.getTxId(),
    creator,
    payloadBytes,
    signature: envelope.getSignature_asU8(),
    chaincode: action.getChaincodeId()?.getName() ?? "",
    results: action.getResults_asU8(),
    event: event.length ? event : undefined,
    endorsements: endorsed.getEndorsementsList(),
    proposalResponsePayload,
    expectedHash,
    responseStatus: action.getResponse()?.getStatus() ?? 0,
  };
}

/** Endorsers' public keys, parsed once (a PEM parsed per Submit cost a tenth of the gateway's time). */
const publicKeys = new Map<string, KeyObject>();

/** The envelope must carry this peer's endorsement, signed by its key, over the payload it holds. */
export function checkEndorsement(tx: ReturnType<typeof readEnvelope>, endorser: Endorser) {
  const mine = Buffer.from(serializedIdentity(endorser.mspId, endorser.certificatePem));
  let key = publicKeys.get(endorser.certificatePem);
  if (!key) {
    if (publicKeys.size >= 1000) publicKeys.clear();
    publicKeys.set(endorser.certificatePem, (key = createPublicKey(endorser.certificatePem)));
  }
  const ok = tx.endorsements.some((e) => {
    const who = Buffer.from(e.getEndorser_asU8());
    if (!who.equals(mine)) return false;
    try {
      return verify(
        "sha256",
        Buffer.concat([tx.proposalResponsePayload, who]),
        { key, dsaEncoding: "der" },
        e.getSignature_asU8(),
      );
    } catch {
      return false;
    }
  });
  if (!ok) throw denied("the transaction is not endorsed by this channel's peer (endorse it again)");
  if (tx.responseStatus < 200 || tx.responseStatus >= 400)
    throw invalid(`the endorsed chaincode response has status ${tx.responseStatus}: it cannot be submitted`);
}
