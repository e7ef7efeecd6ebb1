import { and, eq, gte } from "drizzle-orm";
import type { Db } from "#backend/db/client.ts";
import type { SealedBlock, SealedTx } from "./engine/types.ts";
import { recordBlock, recordedHead } from "./records.ts";
import type { ChainNode } from "./rpc.ts";
import { chainBlocks, chainLogs, chainTxs, ReceiptStatus } from "./tables.ts";

/**
 * The index of a chain served by another node (docs/decisions/094): the node's blocks, transactions, receipts and
 * logs copied into the same tables the embedded engine writes (chain_blocks, chain_txs, chain_logs), so that what
 * reads them (gas spent per account, gas recovery after a crash, search by transaction hash) sees the node's
 * chain. JSON-RPC calls still go to the node itself; only the portal's own pages read the index.
 *
 * - It starts at the node's height when first followed (older blocks are the node's business, not the portal's),
 *   then takes every block after the last one it recorded, every second and after each transaction the portal
 *   sends (`through`), so a sent transaction is in the index when `send` resolves, as on the embedded engine.
 * - A recorded block the node no longer has at that height (a reorganisation, or a node started again from an
 *   empty state) is forgotten with everything above it, and the node's blocks are taken again from there.
 * - A block's raw transactions are not kept (`raw_txs` is empty): only the embedded engine replays its log.
 * - Several processes may follow one node: a block another one recorded first makes this one's insert fail, and
 *   its next step starts after that block.
 */
export class NodeFollower {
  private chainIdOf: number | undefined;
  private running: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private lastError = "";

  constructor(
    private readonly db: Db,
    private readonly node: ChainNode,
    private readonly label: string,
    private readonly intervalMs = 1000,
  ) {}

  /** Follows the node in the background until `stop`. */
  start(): void {
    const tick = () => {
      this.timer = setTimeout(() => {
        void this.step()
          .catch(() => undefined)
          .finally(() => {
            if (this.timer) tick();
          });
      }, this.intervalMs);
      this.timer.unref();
    };
    tick();
  }

  async stop(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running.catch(() => undefined);
  }

  /** The node's chain id, asked once. */
  async chainId(): Promise<number> {
    this.chainIdOf ??= Number(await this.node.request({ method: "eth_chainId" }));
    return this.chainIdOf;
  }

  /** Resolves once the index holds the node's blocks up to `blockNumber` (steps run one at a time). */
  async through(blockNumber: number): Promise<void> {
    for (let attempt = 0; attempt < 20; attempt++) {
      const head = await recordedHead(this.db, await this.chainId());
      if (head && head.number >= blockNumber) return;
      await this.step().catch(() => undefined);
    }
    throw new Error(`${this.label}: block ${blockNumber} is not in the index after 20 attempts`);
  }

  /** One catch-up: forgets what the node no longer has, then records the blocks after the last one recorded. */
  step(): Promise<void> {
    const run = this.running.then(() => this.catchUp());
    this.running = run.then(
      () => {
        this.lastError = "";
      },
      (error: unknown) => {
        const message = (error as Error).message;
        if (message !== this.lastError) console.warn(`chain node ${this.label}: not indexed: ${message}`);
        this.lastError = message;
      },
    );
    return run;
  }

  private async catchUp(): Promise<void> {
    const chainId = await this.chainId();
    const latest = Number(await this.node.request({ method: "eth_blockNumber" }));
    let head = await recordedHead(this.db, chainId);
    if (head && head.number > latest) {
      await forgetFrom(this.db, chainId, latest + 1);
      head = await recordedHead(this.db, chainId);
    }
    while (head) {
      const block = (await this.node.request({
        method: "eth_getBlockByNumber",
        params: [`0x${head.number.toString(16)}`, false],
      })) as { hash: string } | null;
      if (block?.hash === head.hash) break;
      await forgetFrom(this.db, chainId, head.number);
      head = await recordedHead(this.db, chainId);
    }
    for (let number = head ? head.number + 1 : latest; number <= latest; number++)
      await recordBlock(this.db, chainId, await this.sealed(number));
  }

  /** Block `number` as the node has it, with its transactions' receipts and logs. */
  private async sealed(number: number): Promise<SealedBlock> {
    const block = (await this.node.request({
      method: "eth_getBlockByNumber",
      params: [`0x${number.toString(16)}`, true],
    })) as RpcBlock | null;
    if (!block) throw new Error(`the node has no block ${number}`);
    const txs = await Promise.all(
      block.transactions.map(async (tx, index): Promise<SealedTx> => {
        const receipt = (await this.node.request({
          method: "eth_getTransactionReceipt",
          params: [tx.hash],
        })) as RpcReceipt | null;
        if (!receipt) throw new Error(`the node has no receipt for ${tx.hash}`);
        const { blockHash: _h, blockNumber: _n, transactionIndex: _i, ...rpc } = tx;
        return {
          index,
          hash: tx.hash,
          raw: "",
          from: tx.from,
          to: tx.to ?? null,
          rpc,
          status: receipt.status === "0x1" ? ReceiptStatus.SUCCESS : ReceiptStatus.FAILED,
          gasUsed: receipt.gasUsed,
          cumulativeGasUsed: receipt.cumulativeGasUsed,
          effectiveGasPrice: receipt.effectiveGasPrice ?? tx.gasPrice ?? "0x0",
          contractAddress: receipt.contractAddress ?? null,
          logsBloom: receipt.logsBloom,
          logs: receipt.logs.map((l) => ({
            logIndex: Number(l.logIndex),
            address: l.address,
            topics: l.topics,
            data: l.data,
          })),
        };
      }),
    );
    return {
      number,
      hash: block.hash,
      parentHash: block.parentHash,
      timestamp: Number(block.timestamp),
      gasUsed: block.gasUsed,
      txs,
    };
  }
}

type RpcTx = Record<string, unknown> & {
  hash: string;
  from: string;
  to?: string | null;
  gasPrice?: string;
  blockHash?: string;
  blockNumber?: string;
  transactionIndex?: string;
};
type RpcBlock = {
  hash: string;
  parentHash: string;
  timestamp: string;
  gasUsed: string;
  transactions: RpcTx[];
};
type RpcReceipt = {
  status: string;
  gasUsed: string;
  cumulativeGasUsed: string;
  effectiveGasPrice?: string;
  contractAddress?: string | null;
  logsBloom: string;
  logs: { logIndex: string; address: string; topics: string[]; data: string }[];
};

/** Forgets a chain's recorded blocks from `number` up, with their transactions and logs. */
async function forgetFrom(db: Db, chainId: number, number: number): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(chainLogs).where(and(eq(chainLogs.chainId, chainId), gte(chainLogs.blockNumber, number)));
    await tx.delete(chainTxs).where(and(eq(chainTxs.chainId, chainId), gte(chainTxs.blockNumber, number)));
    await tx.delete(chainBlocks).where(and(eq(chainBlocks.chainId, chainId), gte(chainBlocks.number, number)));
  });
}
