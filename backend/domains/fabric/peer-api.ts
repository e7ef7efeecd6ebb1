/**
 * The seam between the embedded Fabric peer (`./peer/`: world state, chaincode processes, ordering, the block log)
 * and the Fabric Gateway gRPC service (`./gateway/`: signed proposals, identities, TLS) of issue 28 slice 3. The
 * gateway checks who is calling and turns the wire messages into these calls; the peer never sees a signature.
 * Byte fields are Fabric protocol buffers (`@hyperledger/fabric-protos` 0.3.x) so that both sides build and read
 * the same messages the official client expects.
 */

/** A chaincode's answer to one proposal (Fabric's `protos.Response`: 200 is success, 500 an error). */
export type ChaincodeResponse = { status: number; message: string; payload: Uint8Array };

/** What the caller's signed proposal asks the peer to run, once the gateway has checked the signature. */
export type ProposalInput = {
  channel: string;
  chaincode: string;
  /** The transaction id the client computed (hex of SHA-256 over nonce + creator), unique per channel. */
  txId: string;
  /** The function name first, then its arguments, as the client sent them. */
  args: Uint8Array[];
  transient: Record<string, Uint8Array>;
  /** The caller's identity: the serialized `msp.SerializedIdentity` bytes and its parts. */
  creator: { mspId: string; certificatePem: string; serialized: Uint8Array };
  /** The proposal's `ChannelHeader.timestamp` (seconds precision is enough). */
  timestamp: Date;
  /** The signed proposal, as the chaincode's GetSignedProposal sees it (`protos.SignedProposal` bytes). */
  signedProposal: Uint8Array;
};

/** A simulated proposal: the chaincode's answer and what it read and wrote; nothing is committed yet. */
export type Simulation = {
  response: ChaincodeResponse;
  /** `rwset.TxReadWriteSet` bytes (one `NsReadWriteSet` per namespace touched, each holding `kvrwset.KVRWSet`). */
  results: Uint8Array;
  /** `protos.ChaincodeEvent` bytes of the event the chaincode set, if it set one. */
  event?: Uint8Array;
  /** The chaincode name and version that answered (`protos.ChaincodeID`). */
  chaincodeId: { name: string; version: string };
};

/** A transaction to order: the client-signed envelope the gateway's Submit received, already checked. */
export type OrderInput = {
  channel: string;
  txId: string;
  /** The `common.Envelope` bytes, stored in the block as they came. */
  envelope: Uint8Array;
  /** The endorsed read/write set inside it (`rwset.TxReadWriteSet` bytes) and its event, if any. */
  results: Uint8Array;
  event?: Uint8Array;
  chaincode: string;
};

/** Fabric's `protos.TxValidationCode` values the peer gives (0 VALID, 11 MVCC_READ_CONFLICT, 2 BAD_PAYLOAD, ...). */
export type CommitStatus = { txId: string; blockNumber: bigint; validationCode: number };

/** The chaincode events of one block, in transaction order (only valid transactions' events). */
export type BlockEvents = {
  blockNumber: bigint;
  events: { txId: string; chaincodeName: string; eventName: string; payload: Uint8Array }[];
};

/** One channel of one embedded peer (a consortium service's Fabric network has one channel). */
export interface FabricPeer {
  readonly channel: string;
  /** The installed chaincode's name and version, or null when none is installed yet. */
  chaincode(): { name: string; version: string } | null;
  /**
   * The committed chaincode definition, as the channel's `_lifecycle` QueryChaincodeDefinition answers it: the name,
   * version and sequence (each install of a new version is the next sequence), or null when `name` is not defined.
   */
  definition?(name: string): Promise<{ name: string; version: string; sequence: number } | null>;
  /** Runs the proposal against the current world state; throws only when the peer itself cannot (not a chaincode error). */
  simulate(input: ProposalInput): Promise<Simulation>;
  /**
   * Orders the transaction into a block, validates it (MVCC against the state at commit) and records the block in the
   * database before it resolves. A duplicate txId is refused (DUPLICATE_TXID, 1) without a second block entry.
   */
  order(input: OrderInput): Promise<CommitStatus>;
  /** The status of a committed transaction, or null while it is unknown (the gateway waits with `waitFor`). */
  commitStatus(txId: string): Promise<CommitStatus | null>;
  /** Resolves when the transaction is committed (or the signal aborts). */
  waitForCommit(txId: string, signal: AbortSignal): Promise<CommitStatus>;
  /** Chaincode events from `startBlock` (default: the next block) on, until the signal aborts. */
  events(chaincode: string, startBlock: bigint | undefined, signal: AbortSignal): AsyncIterable<BlockEvents>;
  /** The current height (number of blocks, genesis included). */
  height(): bigint;
}
