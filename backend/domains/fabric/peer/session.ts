import type * as grpc from "@grpc/grpc-js";
import { ledger, peer as pb } from "@hyperledger/fabric-protos";
import type { ChaincodeResponse } from "../peer-api.ts";
import { timestampOf } from "./blocks.ts";
import { newNsRecord, type NsRecord, type WorldState } from "./state.ts";

const T = pb.ChaincodeMessage.Type;
type Message = InstanceType<typeof pb.ChaincodeMessage>;
export type ChaincodeStream = grpc.ServerDuplexStream<Message, Message>;

/** How many rows a range or history query hands the shim per message (the shim asks for the next batch). */
const BATCH = 100;

/** What one running proposal may see and what it did: reads at the committed state, its own writes. */
export type TxContext = {
  state: WorldState;
  namespace: string;
  record: NsRecord;
};

type Iterator = {
  rows: Uint8Array[];
  at: number;
  range?: NsRecord["ranges"][number];
  keys?: { key: string; version: { block: number; tx: number } }[];
};
type Running = {
  ctx: TxContext;
  iterators: Map<string, Iterator>;
  nextId: number;
  resolve: (answer: { response: ChaincodeResponse; event?: Uint8Array }) => void;
};

const REFUSED: Partial<Record<number, string>> = {
  [T.GET_QUERY_RESULT]: "rich queries (GetQueryResult) need CouchDB; the embedded peer keeps a LevelDB-like state only",
  [T.GET_PRIVATE_DATA_HASH]: "private data collections are not supported by the embedded peer",
  [T.PURGE_PRIVATE_DATA]: "private data collections are not supported by the embedded peer",
  [T.INVOKE_CHAINCODE]: "calling another chaincode is not supported: a service's channel has one chaincode",
  [T.WRITE_BATCH_STATE]: "write batches are not supported by this peer (fabric-shim 2.5 does not send them)",
  [T.GET_STATE_MULTIPLE]: "GetMultipleStates is not supported by this peer (fabric-shim 2.5 does not send it)",
};

/**
 * One registered chaincode process's stream (the chaincode protocol after REGISTER/REGISTERED/READY): sends INIT
 * or TRANSACTION, answers the shim's state requests from the proposal's context, and resolves on COMPLETED/ERROR.
 * A stream that ends fails every proposal under way (the process is gone).
 */
export class ChaincodeSession {
  private readonly running = new Map<string, Running>();
  private closedReason: string | null = null;
  private readonly onClose = new Set<(reason: string) => void>();

  constructor(private readonly stream: ChaincodeStream) {
    stream.on("data", (msg: Message) => this.receive(msg));
    const end = (reason: string) => this.close(reason);
    stream.on("end", () => end("the chaincode process closed its stream"));
    stream.on("error", (e: Error) => end(`the chaincode stream failed: ${e.message}`));
    stream.on("cancelled", () => end("the chaincode stream was cancelled"));
  }

  get closed() {
    return this.closedReason !== null;
  }

  whenClosed(listener: (reason: string) => void) {
    this.onClose.add(listener);
  }

  close(reason: string) {
    if (this.closedReason !== null) return;
    this.closedReason = reason;
    for (const run of this.running.values())
      run.resolve({ response: { status: 500, message: reason, payload: new Uint8Array() } });
    this.running.clear();
    try {
      this.stream.end();
    } catch {
      // already ended
    }
    for (const listener of this.onClose) listener(reason);
  }

  /** Runs Init or Invoke for one proposal; resolves with the chaincode's response and event (never rejects). */
  invoke(input: {
    init: boolean;
    channel: string;
    txId: string;
    args: Uint8Array[];
    signedProposal: Uint8Array;
    ctx: TxContext;
  }): Promise<{ response: ChaincodeResponse; event?: Uint8Array }> {
    if (this.closedReason !== null)
      return Promise.resolve({ response: { status: 500, message: this.closedReason, payload: new Uint8Array() } });
    const key = `${input.channel}\0${input.txId}`;
    return new Promise((resolve) => {
      this.running.set(key, { ctx: input.ctx, iterators: new Map(), nextId: 1, resolve });
      const chaincodeInput = new pb.ChaincodeInput();
      chaincodeInput.setArgsList(input.args);
      const msg = new pb.ChaincodeMessage();
      msg.setType(input.init ? T.INIT : T.TRANSACTION);
      msg.setTxid(input.txId);
      msg.setChannelId(input.channel);
      msg.setPayload(chaincodeInput.serializeBinary());
      msg.setProposal(pb.SignedProposal.deserializeBinary(input.signedProposal));
      msg.setTimestamp(timestampOf(new Date()) as never);
      this.stream.write(msg);
    });
  }

  private send(type: number, txId: string, channel: string, payload: Uint8Array) {
    const msg = new pb.ChaincodeMessage();
    msg.setType(type as never);
    msg.setTxid(txId);
    msg.setChannelId(channel);
    msg.setPayload(payload);
    this.stream.write(msg);
  }

  private receive(msg: Message) {
    const txId = msg.getTxid();
    const channel = msg.getChannelId();
    const key = `${channel}\0${txId}`;
    const run = this.running.get(key);
    const type = msg.getType();
    if (type === T.KEEPALIVE) return;
    if (!run) return; // a late message of a proposal already answered (timed out)
    if (type === T.COMPLETED || type === T.ERROR) {
      this.running.delete(key);
      if (type === T.ERROR) {
        const message = new TextDecoder().decode(msg.getPayload_asU8()) || "the chaincode failed";
        run.resolve({ response: { status: 500, message, payload: new Uint8Array() } });
        return;
      }
      const response = pb.Response.deserializeBinary(msg.getPayload_asU8());
      const event = msg.getChaincodeEvent();
      run.resolve({
        response: { status: response.getStatus(), message: response.getMessage(), payload: response.getPayload_asU8() },
        event: event && event.getEventName() ? event.serializeBinary() : undefined,
      });
      return;
    }
    try {
      this.send(T.RESPONSE, txId, channel, this.answer(run, type, msg.getPayload_asU8()));
    } catch (error) {
      this.send(
        T.ERROR,
        txId,
        channel,
        new TextEncoder().encode(error instanceof Error ? error.message : String(error)),
      );
    }
  }

  /** The RESPONSE payload of one shim request; throws the ERROR message. */
  private answer(run: Running, type: number, payload: Uint8Array): Uint8Array {
    const { state, namespace: ns, record } = run.ctx;
    const noPrivate = (collection: string) => {
      if (collection) throw new Error("private data collections are not supported by the embedded peer");
    };
    switch (type) {
      case T.GET_STATE: {
        const req = pb.GetState.deserializeBinary(payload);
        noPrivate(req.getCollection());
        const entry = state.get(ns, req.getKey());
        if (!record.reads.has(req.getKey())) record.reads.set(req.getKey(), entry?.version ?? null);
        return entry?.value ?? new Uint8Array();
      }
      case T.PUT_STATE: {
        const req = pb.PutState.deserializeBinary(payload);
        noPrivate(req.getCollection());
        if (!req.getKey()) throw new Error("a key must not be empty");
        record.writes.set(req.getKey(), req.getValue_asU8());
        return new Uint8Array();
      }
      case T.DEL_STATE: {
        const req = pb.DelState.deserializeBinary(payload);
        noPrivate(req.getCollection());
        record.writes.set(req.getKey(), null);
        return new Uint8Array();
      }
      case T.GET_STATE_BY_RANGE: {
        const req = pb.GetStateByRange.deserializeBinary(payload);
        noPrivate(req.getCollection());
        const meta = req.getMetadata_asU8();
        if (meta.length && pb.QueryMetadata.deserializeBinary(meta).getPagesize() > 0)
          throw new Error("paginated range queries are not supported by the embedded peer");
        const rows = state.range(ns, req.getStartkey(), req.getEndkey());
        const range = { start: req.getStartkey(), end: req.getEndkey(), exhausted: false, reads: [] };
        record.ranges.push(range);
        const kvs = rows.map(({ key, entry }) => {
          const kv = new ledger.queryresult.KV();
          kv.setNamespace(ns);
          kv.setKey(key);
          kv.setValue(entry.value);
          return kv.serializeBinary();
        });
        return this.open(
          run,
          kvs,
          range,
          rows.map((r) => ({ key: r.key, version: r.entry.version })),
        );
      }
      case T.GET_HISTORY_FOR_KEY: {
        const req = pb.GetHistoryForKey.deserializeBinary(payload);
        const rows = [...state.keyHistory(ns, req.getKey())].reverse().map((h) => {
          const mod = new ledger.queryresult.KeyModification();
          mod.setTxId(h.txId);
          mod.setValue(h.value);
          mod.setTimestamp(timestampOf(h.timestamp) as never);
          mod.setIsDelete(h.isDelete);
          return mod.serializeBinary();
        });
        return this.open(run, rows);
      }
      case T.QUERY_STATE_NEXT: {
        const id = pb.QueryStateNext.deserializeBinary(payload).getId();
        const it = run.iterators.get(id);
        if (!it) throw new Error(`no query iterator ${id}`);
        return this.batch(run, id, it);
      }
      case T.QUERY_STATE_CLOSE: {
        const id = pb.QueryStateClose.deserializeBinary(payload).getId();
        run.iterators.delete(id);
        const res = new pb.QueryResponse();
        res.setId(id);
        return res.serializeBinary();
      }
      case T.GET_STATE_METADATA:
        noPrivate(pb.GetStateMetadata.deserializeBinary(payload).getCollection());
        return new pb.StateMetadataResult().serializeBinary();
      case T.PUT_STATE_METADATA:
        noPrivate(pb.PutStateMetadata.deserializeBinary(payload).getCollection());
        return new Uint8Array();
      default:
        throw new Error(REFUSED[type] ?? `the embedded peer does not answer chaincode message type ${type}`);
    }
  }

  private open(run: Running, rows: Uint8Array[], range?: Iterator["range"], keys?: Iterator["keys"]): Uint8Array {
    const id = String(run.nextId++);
    const it: Iterator = { rows, at: 0, range, keys };
    run.iterators.set(id, it);
    return this.batch(run, id, it);
  }

  private batch(run: Running, id: string, it: Iterator): Uint8Array {
    const end = Math.min(it.at + BATCH, it.rows.length);
    const res = new pb.QueryResponse();
    res.setId(id);
    res.setResultsList(
      it.rows.slice(it.at, end).map((bytes) => {
        const r = new pb.QueryResultBytes();
        r.setResultbytes(bytes);
        return r;
      }),
    );
    // What the proposal has seen of a range goes into its read set (for the phantom check at commit).
    if (it.range && it.keys) it.range.reads.push(...it.keys.slice(it.at, end));
    it.at = end;
    res.setHasMore(end < it.rows.length);
    if (it.range && end >= it.rows.length) it.range.exhausted = true;
    if (end >= it.rows.length) run.iterators.delete(id);
    return res.serializeBinary();
  }
}

export { newNsRecord };
