import { EventEmitter, once } from "node:events";
import { ledger, peer as peerProtos } from "@hyperledger/fabric-protos";
import type {
  BlockEvents,
  CommitStatus,
  FabricPeer,
  OrderInput,
  ProposalInput,
  Simulation,
} from "#backend/domains/fabric/peer-api.ts";

/**
 * A small in-memory FabricPeer for the gateway's tests (the real one is backend/domains/fabric/peer/): a world
 * state of versioned keys, a chaincode written as a function, a simulation that records what it read (with the
 * version) and wrote as a real `rwset.TxReadWriteSet`, ordering into numbered blocks with MVCC validation against
 * the state at commit (MVCC_READ_CONFLICT, 11), duplicate transaction ids refused (1), and chaincode events of
 * valid transactions per block.
 */
const { kvrwset } = ledger.rwset;

export type Stub = {
  txId: string;
  creatorPem: string;
  transient: Record<string, Uint8Array>;
  getState(key: string): string | undefined;
  putState(key: string, value: string): void;
  setEvent(name: string, payload: string): void;
};
/** Answers the function `fn` with `args`; throwing is a chaincode error (status 500 with its message). */
export type DoubleChaincode = (stub: Stub, fn: string, args: string[]) => Promise<string> | string;

type Version = { block: bigint; tx: number };
type Block = { number: bigint; txs: CommitStatus[]; events: BlockEvents["events"] };

export class FabricPeerDouble implements FabricPeer {
  readonly world = new Map<string, { value: string; version: Version }>();
  readonly blocks: Block[] = [{ number: 0n, txs: [], events: [] }];
  readonly orders: OrderInput[] = [];
  private readonly committed = new Map<string, CommitStatus>();
  private readonly news = new EventEmitter();

  constructor(
    readonly channel: string,
    private readonly installed: { name: string; version: string; invoke: DoubleChaincode } | null,
  ) {
    this.news.setMaxListeners(1000);
  }

  chaincode() {
    return this.installed && { name: this.installed.name, version: this.installed.version };
  }

  async simulate(input: ProposalInput): Promise<Simulation> {
    if (!this.installed) throw new Error("no chaincode installed");
    const reads = new Map<string, Version | null>();
    const writes = new Map<string, string>();
    let event: { name: string; payload: string } | undefined;
    const stub: Stub = {
      txId: input.txId,
      creatorPem: input.creator.certificatePem,
      transient: input.transient,
      getState: (key) => {
        if (writes.has(key)) return writes.get(key);
        const found = this.world.get(key);
        if (!reads.has(key)) reads.set(key, found?.version ?? null);
        return found?.value;
      },
      putState: (key, value) => void writes.set(key, value),
      setEvent: (name, payload) => void (event = { name, payload }),
    };
    const [fn, ...args] = input.args.map((a) => Buffer.from(a).toString("utf8"));
    let response: Simulation["response"];
    try {
      const answer = await this.installed.invoke(stub, fn ?? "", args);
      response = { status: 200, message: "", payload: Buffer.from(answer) };
    } catch (error) {
      response = { status: 500, message: (error as Error).message, payload: new Uint8Array() };
    }
    const kv = new kvrwset.KVRWSet();
    kv.setReadsList(
      [...reads].map(([key, version]) => {
        const read = new kvrwset.KVRead();
        read.setKey(key);
        if (version) {
          const v = new kvrwset.Version();
          v.setBlockNum(Number(version.block));
          v.setTxNum(version.tx);
          read.setVersion(v);
        }
        return read;
      }),
    );
    kv.setWritesList(
      [...writes].map(([key, value]) => {
        const write = new kvrwset.KVWrite();
        write.setKey(key);
        write.setValue(Buffer.from(value));
        return write;
      }),
    );
    const ns = new ledger.rwset.NsReadWriteSet();
    ns.setNamespace(this.installed.name);
    ns.setRwset(kv.serializeBinary());
    const set = new ledger.rwset.TxReadWriteSet();
    set.setDataModel(ledger.rwset.TxReadWriteSet.DataModel.KV);
    set.setNsRwsetList([ns]);
    let eventBytes: Uint8Array | undefined;
    if (event) {
      const ce = new peerProtos.ChaincodeEvent();
      ce.setChaincodeId(this.installed.name);
      ce.setTxId(input.txId);
      ce.setEventName(event.name);
      ce.setPayload(Buffer.from(event.payload));
      eventBytes = ce.serializeBinary();
    }
    return {
      response,
      results: set.serializeBinary(),
      event: eventBytes,
      chaincodeId: { name: this.installed.name, version: this.installed.version },
    };
  }

  async order(input: OrderInput): Promise<CommitStatus> {
    const known = this.committed.get(input.txId);
    if (known) return { txId: input.txId, blockNumber: known.blockNumber, validationCode: 1 };
    this.orders.push(input);
    const number = BigInt(this.blocks.length);
    const set = ledger.rwset.TxReadWriteSet.deserializeBinary(input.results);
    let valid = true;
    const writes: [string, string][] = [];
    for (const ns of set.getNsRwsetList()) {
      const kv = kvrwset.KVRWSet.deserializeBinary(ns.getRwset_asU8());
      for (const read of kv.getReadsList()) {
        const now = this.world.get(read.getKey())?.version;
        const v = read.getVersion();
        const same = v ? !!now && now.block === BigInt(v.getBlockNum()) && now.tx === v.getTxNum() : !now;
        if (!same) valid = false;
      }
      for (const w of kv.getWritesList()) writes.push([w.getKey(), Buffer.from(w.getValue_asU8()).toString("utf8")]);
    }
    const status: CommitStatus = { txId: input.txId, blockNumber: number, validationCode: valid ? 0 : 11 };
    const events: BlockEvents["events"] = [];
    if (valid) {
      for (const [key, value] of writes) this.world.set(key, { value, version: { block: number, tx: 0 } });
      if (input.event) {
        const ce = peerProtos.ChaincodeEvent.deserializeBinary(input.event);
        events.push({
          txId: input.txId,
          chaincodeName: ce.getChaincodeId(),
          eventName: ce.getEventName(),
          payload: ce.getPayload_asU8(),
        });
      }
    }
    this.blocks.push({ number, txs: [status], events });
    this.committed.set(input.txId, status);
    this.news.emit("block");
    return status;
  }

  async commitStatus(txId: string) {
    return this.committed.get(txId) ?? null;
  }

  async waitForCommit(txId: string, signal: AbortSignal): Promise<CommitStatus> {
    for (;;) {
      const known = this.committed.get(txId);
      if (known) return known;
      signal.throwIfAborted();
      await once(this.news, "block", { signal });
    }
  }

  async *events(chaincode: string, startBlock: bigint | undefined, signal: AbortSignal): AsyncIterable<BlockEvents> {
    let next = startBlock ?? BigInt(this.blocks.length);
    for (;;) {
      while (next < BigInt(this.blocks.length)) {
        const block = this.blocks[Number(next)]!;
        yield { blockNumber: block.number, events: block.events.filter((e) => e.chaincodeName === chaincode) };
        next++;
      }
      if (signal.aborted) return;
      try {
        await once(this.news, "block", { signal });
      } catch {
        return;
      }
    }
  }

  height() {
    return BigInt(this.blocks.length);
  }
}
