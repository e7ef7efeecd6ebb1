/**
 * What crosses between the engine's worker and the main thread (plain JSON: hex strings and numbers).
 */

/** A chain the engine opens: its name in the registry, its EIP-155 id, its directory and its treasury. */
export type ChainSpec = { name: string; chainId: number; dir: string; treasury: string; treasuryWei: string };

/** One log of a receipt, with its position in the block. */
export type LogRecord = { logIndex: number; address: string; topics: string[]; data: string };

/** A receipt's status (EIP-658): 0 reverted, 1 succeeded. */
export const ReceiptStatus = { FAILED: 0, SUCCESS: 1 } as const;

/** A transaction sealed in a block: its raw bytes, its JSON-RPC form and its receipt's fields. */
export type SealedTx = {
  index: number;
  hash: string;
  raw: string;
  from: string;
  to: string | null;
  /** eth_getTransactionByHash's fields except the block's (blockHash, blockNumber, transactionIndex). */
  rpc: Record<string, unknown>;
  status: (typeof ReceiptStatus)[keyof typeof ReceiptStatus];
  gasUsed: string;
  cumulativeGasUsed: string;
  effectiveGasPrice: string;
  contractAddress: string | null;
  logsBloom: string;
  logs: LogRecord[];
};

/** A block the engine sealed: enough to record it and to replay it to the same hash. */
export type SealedBlock = {
  number: number;
  hash: string;
  parentHash: string;
  timestamp: number;
  gasUsed: string;
  txs: SealedTx[];
};

/** The result of sealing a batch: the block (none when every transaction was refused) and the refusals by position. */
export type SealResult = { block: SealedBlock | null; refused: { position: number; code: number; message: string }[] };

/** A block recorded in the product's database, as replay reads it. */
export type RecordedBlock = { number: number; hash: string; timestamp: number; rawTxs: string[] };

export type Head = { number: number; hash: string; timestamp: number };
