import type { Db, Tx } from "#backend/db/client.ts";
import type { WorkerClient } from "#backend/kit/worker.ts";
import {
  RPC,
  RpcError,
  paramsOf,
  parseAddress,
  parseBlockTag,
  parseCallRequest,
  parseData,
  parseHash,
  parseLogFilter,
  quantity,
  type BlockTag,
  type CallRequest,
} from "./hex.ts";
import type { ChainSpec, Head, SealResult } from "./engine/types.ts";
import {
  MAX_LOGS,
  blockNumberOfHash,
  logsIn,
  receiptByHash,
  recordBlock,
  recordedAfter,
  recordedHead,
  transactionByHash,
} from "./records.ts";
import type { ChainNode, RpcCall } from "./rpc.ts";
import type { ChainSnapshots } from "./snapshots.ts";

/** The priority fee a client is told to pay (eth_maxPriorityFeePerGas): 1 gwei. */
const PRIORITY_FEE = 1_000_000_000n;
/** Transactions sealed together at most (the engine's block builder slows as a block grows). */
const BATCH = 10;
/** Blocks replayed per database read at start. */
const REPLAY_PAGE = 200;
/** The widest block range of one eth_getLogs. */
const MAX_LOG_RANGE = 10_000;

type Pending = { raw: string; resolve: (hash: string) => void; reject: (error: unknown) => void };

/**
 * One chain of the embedded engine (docs/decisions/025): reads go to the engine's worker; sent transactions
 * wait in this chain's queue, are sealed by the worker in small batches, recorded in the database, and only
 * then answered. Receipts, transactions and logs are answered from the database's index.
 */
export class EmbeddedChain implements ChainNode {
  private pending: Pending[] = [];
  private sealing = false;
  private lastBlock: Head = { number: 0, hash: "", timestamp: 0 };

  constructor(
    readonly spec: ChainSpec,
    private readonly worker: WorkerClient,
    private readonly db: Db,
    private readonly now: () => Date,
    /** With several processes on one database: throws unless this one still holds the chains' lease (docs/decisions/095). */
    private readonly fence?: (tx: Tx) => Promise<void>,
    /** With several processes on one database: the chain's snapshots (docs/decisions/103). */
    private readonly snapshots?: ChainSnapshots,
  ) {}

  /** Opens the chain in the worker and brings it to the recorded log (removes unrecorded blocks, replays lost ones). */
  async open(): Promise<{ removed: number; replayed: number; snapshot?: number }> {
    let head = await this.worker.call<Head>("open", this.spec);
    const recorded = await recordedHead(this.db, this.spec.chainId);
    const restored =
      this.snapshots && recorded && (await this.snapshots.restoreIfBehind(this.spec, head, recorded.number));
    if (restored) head = restored;
    let total = { removed: 0, replayed: 0 };
    let from = Math.min(head.number, recorded?.number ?? 0);
    for (;;) {
      const missing = await recordedAfter(this.db, this.spec.chainId, from, REPLAY_PAGE);
      const step = await this.worker.call<{ removed: number; replayed: number }>(
        "reconcile",
        this.spec.name,
        recorded,
        missing,
      );
      total = { removed: total.removed + step.removed, replayed: total.replayed + step.replayed };
      if (missing.length < REPLAY_PAGE) break;
      from = missing[missing.length - 1]!.number;
    }
    this.lastBlock = await this.worker.call<Head>("head", this.spec.name);
    return restored ? { ...total, snapshot: restored.number } : total;
  }

  /** Height, time of the last block and transactions waiting to be sealed (/healthz). */
  health() {
    return {
      height: this.lastBlock.number,
      lastBlockAt: this.lastBlock.timestamp ? new Date(this.lastBlock.timestamp * 1000).toISOString() : null,
      pending: this.pending.length,
    };
  }

  /** Sends a raw signed transaction; resolves with its hash once its block is recorded. */
  send(raw: string): Promise<string> {
    return new Promise((resolve, reject) => {
      this.pending.push({ raw, resolve, reject });
      void this.drain();
    });
  }

  private async drain(): Promise<void> {
    if (this.sealing) return;
    this.sealing = true;
    try {
      while (this.pending.length) {
        const batch = this.pending.splice(0, BATCH);
        try {
          const result = await this.worker.call<SealResult>(
            "seal",
            this.spec.name,
            batch.map((p) => p.raw),
            Math.floor(this.now().getTime() / 1000),
          );
          if (result.block) {
            try {
              await recordBlock(this.db, this.spec.chainId, result.block, this.fence);
            } catch (error) {
              // Not recorded, so not accepted: the engine forgets the block.
              await this.worker.call("rollbackTo", this.spec.name, result.block.number - 1);
              throw error;
            }
            this.lastBlock = {
              number: result.block.number,
              hash: result.block.hash,
              timestamp: result.block.timestamp,
            };
            // Asked of the engine before the next batch is sealed: the state of this block.
            this.snapshots?.after(this.spec, result.block.number);
          }
          const refused = new Map(result.refused.map((r) => [r.position, r]));
          let accepted = 0;
          batch.forEach((p, position) => {
            const r = refused.get(position);
            if (r) p.reject(new RpcError(r.code, r.message));
            else p.resolve(result.block!.txs[accepted++]!.hash);
          });
        } catch (error) {
          for (const p of batch) p.reject(error);
        }
      }
    } finally {
      this.sealing = false;
    }
  }

  private tag(value: unknown, name?: string): string {
    const tag = parseBlockTag(value, name);
    return typeof tag === "bigint" ? tag.toString() : tag;
  }

  private async blockNumberOf(tag: BlockTag): Promise<number> {
    if (tag === "earliest") return 0;
    if (tag === "latest" || tag === "pending") return (await this.worker.call<Head>("head", this.spec.name)).number;
    return Number(tag);
  }

  async request({ method, params }: RpcCall): Promise<unknown> {
    const w = this.worker;
    const name = this.spec.name;
    switch (method) {
      case "eth_chainId":
        paramsOf(params, 0, 0);
        return quantity(this.spec.chainId);
      case "net_version":
        paramsOf(params, 0, 0);
        return String(this.spec.chainId);
      case "web3_clientVersion":
        return "bsn-portal/embedded-evm/ethereumjs-10.1.3";
      case "net_listening":
        return true;
      case "eth_syncing":
        return false;
      case "eth_accounts":
        return [];
      case "eth_blockNumber":
        paramsOf(params, 0, 0);
        return quantity((await w.call<Head>("head", name)).number);
      case "eth_getBalance": {
        const [address, tag] = paramsOf(params, 1, 2);
        return w.call("balance", name, parseAddress(address), this.tag(tag));
      }
      case "eth_getTransactionCount": {
        const [address, tag] = paramsOf(params, 1, 2);
        return w.call("nonce", name, parseAddress(address), this.tag(tag));
      }
      case "eth_getCode": {
        const [address, tag] = paramsOf(params, 1, 2);
        return w.call("code", name, parseAddress(address), this.tag(tag));
      }
      case "eth_gasPrice":
        paramsOf(params, 0, 0);
        return quantity(BigInt(await w.call<string>("nextBaseFee", name)) + PRIORITY_FEE);
      case "eth_maxPriorityFeePerGas":
        paramsOf(params, 0, 0);
        return quantity(PRIORITY_FEE);
      case "eth_call": {
        const [request, tag] = paramsOf(params, 1, 3);
        return w.call("call", name, wire(parseCallRequest(request)), this.tag(tag));
      }
      case "eth_estimateGas": {
        const [request] = paramsOf(params, 1, 3);
        return w.call("estimateGas", name, wire(parseCallRequest(request)));
      }
      case "eth_sendRawTransaction": {
        const [raw] = paramsOf(params, 1, 1);
        return this.send(parseData(raw, "transaction"));
      }
      case "eth_getTransactionByHash": {
        const [hash] = paramsOf(params, 1, 1);
        return transactionByHash(this.db, this.spec.chainId, parseHash(hash));
      }
      case "eth_getTransactionReceipt": {
        const [hash] = paramsOf(params, 1, 1);
        return receiptByHash(this.db, this.spec.chainId, parseHash(hash));
      }
      case "eth_getBlockByNumber": {
        const [tag, full] = paramsOf(params, 1, 2);
        if (full !== undefined && typeof full !== "boolean")
          throw new RpcError(RPC.INVALID_PARAMS, "invalid params: the second param is a boolean");
        return w.call("block", name, this.tag(tag), full === true);
      }
      case "eth_getLogs": {
        const [filterParam] = paramsOf(params, 1, 1);
        const filter = parseLogFilter(filterParam);
        let from: number;
        let to: number;
        if (filter.blockHash) {
          const number = await blockNumberOfHash(this.db, this.spec.chainId, filter.blockHash);
          if (number === undefined) throw new RpcError(RPC.SERVER, "unknown block");
          from = to = number;
        } else {
          from = await this.blockNumberOf(filter.fromBlock);
          to = await this.blockNumberOf(filter.toBlock);
          if (from > to) throw new RpcError(RPC.INVALID_PARAMS, "invalid block range: fromBlock is after toBlock");
          if (to - from > MAX_LOG_RANGE)
            throw new RpcError(RPC.SERVER, `block range too large: at most ${MAX_LOG_RANGE} blocks`);
        }
        const logs = await logsIn(
          this.db,
          this.spec.chainId,
          { from, to, blockHash: filter.blockHash },
          filter.addresses,
          filter.topics,
        );
        if (logs.length > MAX_LOGS) throw new RpcError(RPC.SERVER, `query returned more than ${MAX_LOGS} results`);
        return logs;
      }
      default:
        throw new RpcError(RPC.METHOD_NOT_FOUND, `the method ${method} does not exist/is not available`);
    }
  }
}

/** A call request as it crosses to the worker (bigints as decimal strings). */
function wire(request: CallRequest): Record<string, string | undefined> {
  return {
    from: request.from,
    to: request.to,
    data: request.data,
    value: request.value?.toString(),
    gas: request.gas?.toString(),
  };
}
