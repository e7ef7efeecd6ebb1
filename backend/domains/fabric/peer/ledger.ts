import { and, asc, eq } from "drizzle-orm";
import { peer as pb } from "@hyperledger/fabric-protos";
import type { Db, Tx } from "#backend/db/client.ts";
import type { BlockEvents, CommitStatus, OrderInput } from "../peer-api.ts";
import { fabricBlocks, fabricTxs } from "../tables.ts";
import { buildBlock, headerHash, parseBlock } from "./blocks.ts";
import { TxCode, WorldState, decodeRwset, type NsRecord } from "./state.ts";

/**
 * One channel's ledger (docs/decisions/064): its block log in the database, the world state and key history the
 * valid transactions made, the txId index, and the chaincode events. Ordering is one transaction per block, one
 * at a time per channel: validated against the state at commit (MVCC), written to the database, then applied and
 * answered. `open` rebuilds everything from the log.
 */
export class ChannelLedger {
  readonly state = new WorldState();
  private nextNumber = 0;
  private lastHash: Uint8Array = new Uint8Array();
  private readonly statuses = new Map<string, CommitStatus>();
  private readonly blockEvents: BlockEvents[] = [];
  private readonly listeners = new Set<() => void>();
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly db: Db,
    readonly channel: string,
    private readonly now: () => Date,
    /** With several processes on one database: throws unless this one still holds the peer's lease (docs/decisions/099). */
    private readonly fence?: (tx: Tx) => Promise<void>,
  ) {}

  /** The channel's ledger from its log; a channel without one gets its genesis block. */
  static async open(
    db: Db,
    channel: string,
    now: () => Date,
    fence?: (tx: Tx) => Promise<void>,
  ): Promise<ChannelLedger> {
    const ledger = new ChannelLedger(db, channel, now, fence);
    const blocks = await db
      .select({ number: fabricBlocks.number, block: fabricBlocks.block })
      .from(fabricBlocks)
      .where(eq(fabricBlocks.channel, channel))
      .orderBy(asc(fabricBlocks.number));
    if (!blocks.length) {
      const genesis = buildBlock(0, new Uint8Array(), [], []);
      await db
        .insert(fabricBlocks)
        .values({ channel, number: 0, block: Buffer.from(genesis.serializeBinary()) })
        .onConflictDoNothing();
      ledger.nextNumber = 1;
      ledger.lastHash = headerHash(genesis);
      return ledger;
    }
    const last = blocks[blocks.length - 1]!;
    ledger.nextNumber = last.number + 1;
    ledger.lastHash = headerHash(parseBlock(last.block));
    const txs = await db
      .select()
      .from(fabricTxs)
      .where(eq(fabricTxs.channel, channel))
      .orderBy(asc(fabricTxs.blockNumber), asc(fabricTxs.txIndex));
    for (const tx of txs) {
      if (tx.blockNumber > last.number) continue;
      const status = { txId: tx.txId, blockNumber: BigInt(tx.blockNumber), validationCode: tx.validationCode };
      ledger.statuses.set(tx.txId, status);
      if (tx.validationCode !== TxCode.VALID) continue;
      ledger.state.apply(decodeRwset(tx.results), { block: tx.blockNumber, tx: tx.txIndex }, tx.txId, tx.committedAt);
      ledger.recordEvent(tx.blockNumber, tx.txId, tx.event);
    }
    return ledger;
  }

  height(): bigint {
    return BigInt(this.nextNumber);
  }

  status(txId: string): CommitStatus | null {
    return this.statuses.get(txId) ?? null;
  }

  /** Orders one transaction: resolves once its block is in the database and applied. */
  order(input: OrderInput): Promise<CommitStatus> {
    const run = this.queue.then(() => this.commit(input));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async commit(input: OrderInput): Promise<CommitStatus> {
    const known = this.statuses.get(input.txId);
    if (known) return { ...known, validationCode: TxCode.DUPLICATE_TXID };
    const [dup] = await this.db
      .select({ n: fabricTxs.blockNumber })
      .from(fabricTxs)
      .where(and(eq(fabricTxs.channel, this.channel), eq(fabricTxs.txId, input.txId)));
    if (dup) return { txId: input.txId, blockNumber: BigInt(dup.n), validationCode: TxCode.DUPLICATE_TXID };

    let rw: Map<string, NsRecord> | null = null;
    try {
      rw = decodeRwset(input.results);
    } catch {
      rw = null;
    }
    const code = rw ? this.state.validate(rw) : TxCode.BAD_PAYLOAD;
    const number = this.nextNumber;
    const block = buildBlock(number, this.lastHash, [input.envelope], [code]);
    const committedAt = this.now();
    await this.db.transaction(async (tx) => {
      await this.fence?.(tx);
      await tx
        .insert(fabricBlocks)
        .values({ channel: this.channel, number, block: Buffer.from(block.serializeBinary()), committedAt });
      await tx.insert(fabricTxs).values({
        channel: this.channel,
        txId: input.txId,
        blockNumber: number,
        txIndex: 0,
        validationCode: code,
        chaincode: input.chaincode,
        results: Buffer.from(input.results),
        event: input.event?.length ? Buffer.from(input.event) : null,
        committedAt,
      });
    });
    this.nextNumber = number + 1;
    this.lastHash = headerHash(block);
    if (rw && code === TxCode.VALID) {
      this.state.apply(rw, { block: number, tx: 0 }, input.txId, committedAt);
      this.recordEvent(number, input.txId, input.event);
    }
    const status = { txId: input.txId, blockNumber: BigInt(number), validationCode: code };
    this.statuses.set(input.txId, status);
    for (const wake of this.listeners) wake();
    return status;
  }

  private recordEvent(block: number, txId: string, bytes: Uint8Array | null | undefined) {
    if (!bytes?.length) return;
    try {
      const event = pb.ChaincodeEvent.deserializeBinary(bytes);
      this.blockEvents.push({
        blockNumber: BigInt(block),
        events: [
          {
            txId,
            chaincodeName: event.getChaincodeId(),
            eventName: event.getEventName(),
            payload: event.getPayload_asU8(),
          },
        ],
      });
    } catch {
      // An event that is not a ChaincodeEvent is not delivered (the transaction stays valid).
    }
  }

  /** Resolves at the next commit, or when the signal aborts. */
  private nextCommit(signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (signal.aborted) return resolve();
      const done = () => {
        this.listeners.delete(done);
        signal.removeEventListener("abort", done);
        resolve();
      };
      this.listeners.add(done);
      signal.addEventListener("abort", done, { once: true });
    });
  }

  async waitForCommit(txId: string, signal: AbortSignal): Promise<CommitStatus> {
    for (;;) {
      const status = this.statuses.get(txId);
      if (status) return status;
      if (signal.aborted) throw signal.reason ?? new Error("aborted");
      await this.nextCommit(signal);
    }
  }

  async *events(chaincode: string, startBlock: bigint | undefined, signal: AbortSignal): AsyncIterable<BlockEvents> {
    let from = startBlock ?? this.height();
    let index = 0;
    while (!signal.aborted) {
      while (index < this.blockEvents.length) {
        const block = this.blockEvents[index++]!;
        if (block.blockNumber < from) continue;
        const events = block.events.filter((e) => e.chaincodeName === chaincode);
        if (events.length) yield { blockNumber: block.blockNumber, events };
        from = block.blockNumber + 1n;
      }
      await this.nextCommit(signal);
    }
  }
}
