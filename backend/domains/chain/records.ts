import { and, asc, desc, eq, gt, gte, inArray, lte, type SQL } from "drizzle-orm";
import type { Db, Tx } from "#backend/db/client.ts";
import { quantity } from "./hex.ts";
import type { RecordedBlock, SealedBlock } from "./engine/types.ts";
import { chainBlocks, chainLogs, chainTxs } from "./tables.ts";

/**
 * The chains' durable log and index in the product's database (docs/decisions/025): a sealed block with its
 * transactions, receipts and logs, written in one database transaction before anything is acknowledged.
 */

export async function recordBlock(
  db: Db,
  chainId: number,
  block: SealedBlock,
  /** Throws unless this process still runs the chain (its lease, docs/decisions/095); nothing is recorded then. */
  fence?: (tx: Tx) => Promise<void>,
): Promise<void> {
  await db.transaction(async (tx) => {
    await fence?.(tx);
    await tx.insert(chainBlocks).values({
      chainId,
      number: block.number,
      hash: block.hash,
      parentHash: block.parentHash,
      timestamp: block.timestamp,
      gasUsed: block.gasUsed,
      // A followed node's transactions have no raw bytes here (docs/decisions/094): only the embedded engine replays.
      rawTxs: block.txs.flatMap((t) => (t.raw ? [t.raw] : [])),
    });
    // A followed node's blocks may be empty (docs/decisions/094); the embedded engine seals none.
    if (block.txs.length)
      await tx.insert(chainTxs).values(
        block.txs.map((t) => ({
          chainId,
          hash: t.hash,
          blockNumber: block.number,
          blockHash: block.hash,
          txIndex: t.index,
          fromAddress: t.from,
          toAddress: t.to,
          status: t.status,
          gasUsed: t.gasUsed,
          cumulativeGasUsed: t.cumulativeGasUsed,
          effectiveGasPrice: t.effectiveGasPrice,
          contractAddress: t.contractAddress,
          logsBloom: t.logsBloom,
          rpc: t.rpc,
        })),
      );
    const logs = block.txs.flatMap((t) =>
      t.logs.map((l) => ({
        chainId,
        blockNumber: block.number,
        logIndex: l.logIndex,
        blockHash: block.hash,
        txHash: t.hash,
        txIndex: t.index,
        address: l.address,
        topic0: l.topics[0] ?? null,
        topic1: l.topics[1] ?? null,
        topic2: l.topics[2] ?? null,
        topic3: l.topics[3] ?? null,
        data: l.data,
      })),
    );
    if (logs.length) await tx.insert(chainLogs).values(logs);
  });
}

const recorded = (row: typeof chainBlocks.$inferSelect): RecordedBlock => ({
  number: row.number,
  hash: row.hash,
  timestamp: row.timestamp,
  rawTxs: row.rawTxs,
});

/** The last block recorded for a chain (none before its first transaction). */
export async function recordedHead(db: Db, chainId: number): Promise<RecordedBlock | undefined> {
  const [row] = await db
    .select()
    .from(chainBlocks)
    .where(eq(chainBlocks.chainId, chainId))
    .orderBy(desc(chainBlocks.number))
    .limit(1);
  return row ? recorded(row) : undefined;
}

/** The recorded blocks above `number`, in order (the tail a restart replays), at most `limit` of them. */
export async function recordedAfter(db: Db, chainId: number, number: number, limit: number): Promise<RecordedBlock[]> {
  const rows = await db
    .select()
    .from(chainBlocks)
    .where(and(eq(chainBlocks.chainId, chainId), gt(chainBlocks.number, number)))
    .orderBy(asc(chainBlocks.number))
    .limit(limit);
  return rows.map(recorded);
}

type LogRow = typeof chainLogs.$inferSelect;
const rpcLog = (l: LogRow) => ({
  address: l.address,
  topics: [l.topic0, l.topic1, l.topic2, l.topic3].filter((t): t is string => t !== null),
  data: l.data,
  blockNumber: quantity(l.blockNumber),
  blockHash: l.blockHash,
  transactionHash: l.txHash,
  transactionIndex: quantity(l.txIndex),
  logIndex: quantity(l.logIndex),
  removed: false,
});

/** eth_getTransactionByHash: the transaction with its block's fields, or null. */
export async function transactionByHash(db: Db, chainId: number, hash: string) {
  const [row] = await db
    .select()
    .from(chainTxs)
    .where(and(eq(chainTxs.chainId, chainId), eq(chainTxs.hash, hash)));
  if (!row) return null;
  return {
    ...row.rpc,
    blockHash: row.blockHash,
    blockNumber: quantity(row.blockNumber),
    transactionIndex: quantity(row.txIndex),
  };
}

/** eth_getTransactionReceipt: the receipt with its logs, or null. */
export async function receiptByHash(db: Db, chainId: number, hash: string) {
  const [row] = await db
    .select()
    .from(chainTxs)
    .where(and(eq(chainTxs.chainId, chainId), eq(chainTxs.hash, hash)));
  if (!row) return null;
  const logs = await db
    .select()
    .from(chainLogs)
    .where(and(eq(chainLogs.chainId, chainId), eq(chainLogs.txHash, hash)))
    .orderBy(asc(chainLogs.logIndex));
  return {
    transactionHash: row.hash,
    transactionIndex: quantity(row.txIndex),
    blockHash: row.blockHash,
    blockNumber: quantity(row.blockNumber),
    from: row.fromAddress,
    to: row.toAddress,
    cumulativeGasUsed: row.cumulativeGasUsed,
    gasUsed: row.gasUsed,
    effectiveGasPrice: row.effectiveGasPrice,
    contractAddress: row.contractAddress,
    logs: logs.map(rpcLog),
    logsBloom: row.logsBloom,
    status: quantity(row.status),
    type: (row.rpc.type as string | undefined) ?? "0x0",
  };
}

/** The most logs one eth_getLogs answers (a wider query is refused: narrow the range). */
export const MAX_LOGS = 10_000;

/** eth_getLogs over an inclusive block range, by addresses and topic sets. */
export async function logsIn(
  db: Db,
  chainId: number,
  range: { from: number; to: number; blockHash?: string },
  addresses: string[],
  topics: (string[] | null)[],
) {
  const where: SQL[] = [
    eq(chainLogs.chainId, chainId),
    gte(chainLogs.blockNumber, range.from),
    lte(chainLogs.blockNumber, range.to),
  ];
  if (range.blockHash) where.push(eq(chainLogs.blockHash, range.blockHash));
  if (addresses.length) where.push(inArray(chainLogs.address, addresses));
  const columns = [chainLogs.topic0, chainLogs.topic1, chainLogs.topic2, chainLogs.topic3];
  topics.forEach((set, i) => {
    if (set && set.length) where.push(inArray(columns[i]!, set));
  });
  const rows = await db
    .select()
    .from(chainLogs)
    .where(and(...where))
    .orderBy(asc(chainLogs.blockNumber), asc(chainLogs.logIndex))
    .limit(MAX_LOGS + 1);
  return rows.map(rpcLog);
}

/** The block number of a recorded block hash (eth_getLogs by blockHash). */
export async function blockNumberOfHash(db: Db, chainId: number, hash: string): Promise<number | undefined> {
  const [row] = await db
    .select({ number: chainBlocks.number })
    .from(chainBlocks)
    .where(and(eq(chainBlocks.chainId, chainId), eq(chainBlocks.hash, hash)));
  return row?.number;
}
