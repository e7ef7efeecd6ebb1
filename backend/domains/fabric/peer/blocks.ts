import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import { common, peer as pb } from "@hyperledger/fabric-protos";

/** google-protobuf ships no types; its Timestamp is all the peer needs of it. */
type TimestampMessage = { setSeconds(s: number): void; setNanos(n: number): void; toDate(): Date };
const { Timestamp } = createRequire(import.meta.url)("google-protobuf/google/protobuf/timestamp_pb.js") as {
  Timestamp: { new (): TimestampMessage; fromDate(d: Date): TimestampMessage };
};

export const timestampOf = (date: Date) => Timestamp.fromDate(date);

const sha256 = (...parts: Uint8Array[]) => {
  const h = createHash("sha256");
  for (const p of parts) h.update(p);
  return new Uint8Array(h.digest());
};

/** The hash of a block header that the next block names as its previous hash (SHA-256 over the header's bytes). */
export const headerHash = (block: InstanceType<typeof common.Block>) =>
  sha256(block.getHeader()?.serializeBinary() ?? new Uint8Array());

/**
 * A `common.Block`: its envelopes as they came, the data hash over them, the previous block's header hash, and the
 * validation code of each transaction in the TRANSACTIONS_FILTER metadata (one byte per transaction, as Fabric).
 */
export function buildBlock(
  number: number,
  previousHash: Uint8Array,
  envelopes: Uint8Array[],
  codes: number[],
): InstanceType<typeof common.Block> {
  const header = new common.BlockHeader();
  header.setNumber(number);
  header.setPreviousHash(previousHash);
  header.setDataHash(sha256(...envelopes));
  const data = new common.BlockData();
  data.setDataList(envelopes);
  const metadata = new common.BlockMetadata();
  const entries: Uint8Array[] = [new Uint8Array(), new Uint8Array(), Uint8Array.from(codes), new Uint8Array()];
  entries.push(new Uint8Array());
  metadata.setMetadataList(entries);
  const block = new common.Block();
  block.setHeader(header);
  block.setData(data);
  block.setMetadata(metadata);
  return block;
}

export const parseBlock = (bytes: Uint8Array) => common.Block.deserializeBinary(bytes);

/**
 * An endorser transaction's envelope as a client would assemble it from one endorsement: the peer's own
 * transactions (a chaincode's Init at install) and the tests, which have no gateway client. Unsigned: the peer
 * endorses its own Init, and an embedded channel has one organisation.
 */
export function endorsedEnvelope(input: {
  channel: string;
  txId: string;
  chaincode: { name: string; version: string };
  creator: Uint8Array;
  results: Uint8Array;
  event?: Uint8Array;
  response: { status: number; message: string; payload: Uint8Array };
  timestamp: Date;
}): Uint8Array {
  const channelHeader = new common.ChannelHeader();
  channelHeader.setType(common.HeaderType.ENDORSER_TRANSACTION);
  channelHeader.setChannelId(input.channel);
  channelHeader.setTxId(input.txId);
  channelHeader.setTimestamp(timestampOf(input.timestamp) as never);
  const signatureHeader = new common.SignatureHeader();
  signatureHeader.setCreator(input.creator);
  const header = new common.Header();
  header.setChannelHeader(channelHeader.serializeBinary());
  header.setSignatureHeader(signatureHeader.serializeBinary());

  const id = new pb.ChaincodeID();
  id.setName(input.chaincode.name);
  id.setVersion(input.chaincode.version);
  const response = new pb.Response();
  response.setStatus(input.response.status);
  response.setMessage(input.response.message);
  response.setPayload(input.response.payload);
  const action = new pb.ChaincodeAction();
  action.setResults(input.results);
  if (input.event) action.setEvents(input.event);
  action.setResponse(response);
  action.setChaincodeId(id);
  const prp = new pb.ProposalResponsePayload();
  prp.setExtension$(action.serializeBinary());
  const endorsed = new pb.ChaincodeEndorsedAction();
  endorsed.setProposalResponsePayload(prp.serializeBinary());
  const cap = new pb.ChaincodeActionPayload();
  cap.setAction(endorsed);
  const txAction = new pb.TransactionAction();
  txAction.setHeader(signatureHeader.serializeBinary());
  txAction.setPayload(cap.serializeBinary());
  const tx = new pb.Transaction();
  tx.setActionsList([txAction]);
  const payload = new common.Payload();
  payload.setHeader(header);
  payload.setData(tx.serializeBinary());
  const envelope = new common.Envelope();
  envelope.setPayload(payload.serializeBinary());
  return envelope.serializeBinary();
}
