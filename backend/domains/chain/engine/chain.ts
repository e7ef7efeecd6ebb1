import { mkdirSync } from "node:fs";
import path from "node:path";
import { createBlock, type Block } from "@ethereumjs/block";
import { createBlockchain, type Blockchain } from "@ethereumjs/blockchain";
import { type Common } from "@ethereumjs/common";
import { MerklePatriciaTrie } from "@ethereumjs/mpt";
import { MerkleStateManager } from "@ethereumjs/statemanager";
import { Capability, createTx, createTxFromRLP, type TypedTransaction } from "@ethereumjs/tx";
import { createAddressFromString, createZeroAddress, hexToBytes } from "@ethereumjs/util";
import { buildBlock, createVM, runTx, type RunTxResult, type VM } from "@ethereumjs/vm";
import { RPC, RpcError, quantity, type BlockTag, type CallRequest } from "#backend/domains/chain/hex.ts";
import { LevelStore } from "./level.ts";
import {
  ReceiptStatus,
  type ChainSpec,
  type Head,
  type LogRecord,
  type RecordedBlock,
  type SealedBlock,
  type SealedTx,
  type SealResult,
} from "./types.ts";
import { GAS_LIMIT, commonFor } from "./common.ts";
import { effectiveGasPrice, executionError, hex, refusal, txRpc } from "./rpc-shape.ts";

const ZERO32 = new Uint8Array(32);

/** One chain of the engine: its blockchain and state on LevelDB, a VM, and the operations the worker serves. */
export class EngineChain {
  private constructor(
    readonly spec: ChainSpec,
    private readonly common: Common,
    private readonly vm: VM,
    private readonly blockchain: Blockchain,
    readonly stores: LevelStore[], // blocks, state (a snapshot copies them: ../engine.worker.ts)
  ) {}

  static async open(spec: ChainSpec): Promise<EngineChain> {
    mkdirSync(spec.dir, { recursive: true });
    const common = commonFor(spec.chainId);
    const blocksDb = await LevelStore.open(path.join(spec.dir, "blocks"));
    const stateDb = await LevelStore.open(path.join(spec.dir, "state"));
    const genesisState = { [spec.treasury]: quantity(BigInt(spec.treasuryWei)) as `0x${string}` };
    const blockchain = await createBlockchain({
      db: blocksDb as never,
      common,
      genesisState,
      validateBlocks: false,
      validateConsensus: false,
    });
    const trie = new MerklePatriciaTrie({ db: stateDb as never, useKeyHashing: true, common });
    const stateManager = new MerkleStateManager({ trie, common });
    const vm = await createVM({ common, stateManager, blockchain });
    const head = await blockchain.getCanonicalHeadBlock();
    if (await stateManager.hasStateRoot(head.header.stateRoot)) await stateManager.setStateRoot(head.header.stateRoot);
    else if (head.header.number === 0n) await stateManager.generateCanonicalGenesis(genesisState);
    else throw new Error(`chain ${spec.name}: the state of block ${head.header.number} is missing`);
    return new EngineChain(spec, common, vm, blockchain, [blocksDb, stateDb]);
  }

  async close(): Promise<void> {
    for (const store of this.stores) await store.close();
  }

  private async headBlock(): Promise<Block> {
    return this.blockchain.getCanonicalHeadBlock();
  }

  async head(): Promise<Head> {
    const block = await this.headBlock();
    return { number: Number(block.header.number), hash: hex(block.hash()), timestamp: Number(block.header.timestamp) };
  }

  private async blockAt(tag: BlockTag): Promise<Block | undefined> {
    if (tag === "latest" || tag === "pending") return this.headBlock();
    try {
      return await this.blockchain.getBlock(tag === "earliest" ? 0n : tag);
    } catch {
      return undefined;
    }
  }

  /** The state as of a block: the live state for the head, else a copy on that block's state root. */
  private async stateAt(tag: BlockTag): Promise<MerkleStateManager> {
    const block = await this.blockAt(tag);
    if (!block) throw new RpcError(RPC.SERVER, "header not found");
    const head = await this.headBlock();
    const live = this.vm.stateManager as MerkleStateManager;
    if (block.header.number === head.header.number) return live;
    const copy = live.shallowCopy(false);
    await copy.setStateRoot(block.header.stateRoot);
    return copy;
  }

  async balance(address: string, tag: BlockTag): Promise<string> {
    const account = await (await this.stateAt(tag)).getAccount(createAddressFromString(address));
    return quantity(account?.balance ?? 0n);
  }

  async nonce(address: string, tag: BlockTag): Promise<string> {
    const account = await (await this.stateAt(tag)).getAccount(createAddressFromString(address));
    return quantity(account?.nonce ?? 0n);
  }

  async code(address: string, tag: BlockTag): Promise<string> {
    return hex(await (await this.stateAt(tag)).getCode(createAddressFromString(address)));
  }

  /** The base fee of the next block (what a transaction sent now pays at least per gas). */
  async nextBaseFee(): Promise<string> {
    return quantity((await this.headBlock()).header.calcNextBaseFee());
  }

  /** A block in its JSON-RPC form, with full transactions or their hashes; null when there is none. */
  async block(tag: BlockTag, full: boolean): Promise<Record<string, unknown> | null> {
    const block = await this.blockAt(tag);
    if (!block) return null;
    const h = block.header;
    const blockHash = hex(block.hash());
    const json = h.toJSON();
    return {
      number: quantity(h.number),
      hash: blockHash,
      parentHash: hex(h.parentHash),
      nonce: json.nonce,
      sha3Uncles: hex(h.uncleHash),
      logsBloom: hex(h.logsBloom),
      transactionsRoot: hex(h.transactionsTrie),
      stateRoot: hex(h.stateRoot),
      receiptsRoot: hex(h.receiptTrie),
      miner: h.coinbase.toString(),
      difficulty: quantity(h.difficulty),
      totalDifficulty: quantity(h.difficulty),
      extraData: hex(h.extraData),
      size: quantity(block.serialize().length),
      gasLimit: quantity(h.gasLimit),
      gasUsed: quantity(h.gasUsed),
      timestamp: quantity(h.timestamp),
      mixHash: hex(h.mixHash),
      baseFeePerGas: h.baseFeePerGas === undefined ? undefined : quantity(h.baseFeePerGas),
      withdrawalsRoot: h.withdrawalsRoot ? hex(h.withdrawalsRoot) : undefined,
      withdrawals: block.withdrawals ? [] : undefined,
      blobGasUsed: h.blobGasUsed === undefined ? undefined : quantity(h.blobGasUsed),
      excessBlobGas: h.excessBlobGas === undefined ? undefined : quantity(h.excessBlobGas),
      parentBeaconBlockRoot: h.parentBeaconBlockRoot ? hex(h.parentBeaconBlockRoot) : undefined,
      requestsHash: h.requestsHash ? hex(h.requestsHash) : undefined,
      uncles: [],
      transactions: block.transactions.map((tx, i) =>
        full
          ? { ...txRpc(tx, h.baseFeePerGas), blockHash, blockNumber: quantity(h.number), transactionIndex: quantity(i) }
          : hex(tx.hash()),
      ),
    };
  }

  /**
   * Seals the raw transactions that the chain accepts into one new block (instant mining) and returns it with
   * its receipts; a refused transaction is left out with its reason. `timestamp` is the block's (the caller's
   * clock, never before the parent's): the same transactions and timestamp give the same block again.
   */
  async seal(rawTxs: string[], timestamp: number): Promise<SealResult> {
    const parent = await this.headBlock();
    const builder = await buildBlock(this.vm, {
      parentBlock: parent,
      headerData: {
        timestamp: BigInt(Math.max(timestamp, Number(parent.header.timestamp))),
        parentBeaconBlockRoot: ZERO32,
        gasLimit: GAS_LIMIT,
      },
      blockOpts: { putBlockIntoBlockchain: true },
    });
    const refused: SealResult["refused"] = [];
    const accepted: { raw: string; tx: TypedTransaction; result: RunTxResult }[] = [];
    for (const [position, raw] of rawTxs.entries()) {
      try {
        const tx = this.decode(raw);
        const result = await builder.addTransaction(tx);
        accepted.push({ raw, tx, result });
      } catch (error) {
        refused.push({
          position,
          code: error instanceof RpcError ? error.code : RPC.SERVER,
          message: error instanceof RpcError ? error.message : refusal(error),
        });
      }
    }
    if (!accepted.length) {
      await builder.revert();
      return { block: null, refused };
    }
    const { block } = await builder.build();
    const baseFee = block.header.baseFeePerGas;
    let logIndex = 0;
    const txs: SealedTx[] = accepted.map(({ raw, tx, result }, index) => {
      const logs: LogRecord[] = (result.execResult.logs ?? []).map(([address, topics, logData]) => ({
        logIndex: logIndex++,
        address: hex(address),
        topics: topics.map(hex),
        data: hex(logData),
      }));
      const receipt = result.receipt;
      return {
        index,
        hash: hex(tx.hash()),
        raw,
        from: tx.getSenderAddress().toString(),
        to: tx.to ? tx.to.toString() : null,
        rpc: txRpc(tx, baseFee),
        status:
          "status" in receipt && receipt.status === ReceiptStatus.SUCCESS
            ? ReceiptStatus.SUCCESS
            : ReceiptStatus.FAILED,
        gasUsed: quantity(result.totalGasSpent),
        cumulativeGasUsed: quantity(receipt.cumulativeBlockGasUsed),
        effectiveGasPrice: quantity(effectiveGasPrice(tx, baseFee)),
        contractAddress: result.createdAddress ? result.createdAddress.toString() : null,
        logsBloom: hex(receipt.bitvector),
        logs,
      };
    });
    const sealed: SealedBlock = {
      number: Number(block.header.number),
      hash: hex(block.hash()),
      parentHash: hex(block.header.parentHash),
      timestamp: Number(block.header.timestamp),
      gasUsed: quantity(block.header.gasUsed),
      txs,
    };
    return { block: sealed, refused };
  }

  private decode(raw: string): TypedTransaction {
    let tx: TypedTransaction;
    try {
      tx = createTxFromRLP(hexToBytes(raw as `0x${string}`), { common: this.common });
    } catch (error) {
      throw new RpcError(
        RPC.SERVER,
        `invalid transaction: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`,
      );
    }
    if (!tx.isSigned()) throw new RpcError(RPC.SERVER, "invalid transaction: not signed");
    if (!tx.supports(Capability.EIP155ReplayProtection) && tx.type === 0)
      throw new RpcError(RPC.SERVER, "only replay-protected (EIP-155) transactions allowed over RPC");
    if (tx.type === 3) throw new RpcError(RPC.SERVER, "blob transactions are not supported");
    return tx;
  }

  /**
   * Brings the engine to the recorded chain: blocks above the last recorded one were never acknowledged and
   * are removed; recorded blocks the engine lost are sealed again from their raw transactions, each checked to
   * give the recorded hash.
   */
  async reconcile(
    recordedHead: RecordedBlock | undefined,
    missing: RecordedBlock[],
  ): Promise<{ removed: number; replayed: number }> {
    const head = await this.headBlock();
    let removed = 0;
    const target = recordedHead?.number ?? 0;
    if (Number(head.header.number) > target) {
      removed = Number(head.header.number) - target;
      await this.rollbackTo(target);
    }
    let replayed = 0;
    for (const recorded of missing) {
      const current = await this.headBlock();
      if (recorded.number <= Number(current.header.number)) continue;
      const { block } = await this.seal(recorded.rawTxs, recorded.timestamp);
      if (!block || block.hash !== recorded.hash) {
        throw new Error(
          `chain ${this.spec.name}: replaying block ${recorded.number} gave ${block?.hash ?? "no block"}, the record says ${recorded.hash}`,
        );
      }
      replayed++;
    }
    return { removed, replayed };
  }

  /** Removes the blocks above `number` (a block the database did not record) and returns the state to it. */
  async rollbackTo(number: number): Promise<void> {
    const above = await this.blockAt(BigInt(number + 1));
    if (above) await this.blockchain.delBlock(above.hash());
    const block = await this.blockAt(BigInt(number));
    await (this.vm.stateManager as MerkleStateManager).setStateRoot(block!.header.stateRoot);
  }

  /** eth_call: the call runs on a checkpoint of the state, which is reverted afterwards. */
  async call(request: CallRequest, tag: BlockTag): Promise<string> {
    // The VM's EVM runs on the live state only: a call on an older block is refused (docs/decisions/025).
    if ((await this.stateAt(tag)) !== this.vm.stateManager)
      throw new RpcError(RPC.SERVER, "eth_call runs on the latest block only");
    const head = await this.headBlock();
    const evm = this.vm.evm;
    await evm.journal.checkpoint();
    try {
      const result = await evm.runCall({
        caller: request.from ? createAddressFromString(request.from) : createZeroAddress(),
        to: request.to ? createAddressFromString(request.to) : undefined,
        data: request.data ? hexToBytes(request.data as `0x${string}`) : undefined,
        value: request.value,
        gasLimit: request.gas ?? GAS_LIMIT,
        gasPrice: 0n,
        block: this.pendingBlock(head),
      });
      const error = result.execResult.exceptionError;
      if (error) throw executionError(error.error, hex(result.execResult.returnValue));
      return hex(result.execResult.returnValue);
    } finally {
      await evm.journal.revert();
    }
  }

  private pendingBlock(parent: Block): Block {
    return createBlock(
      {
        header: {
          number: parent.header.number + 1n,
          timestamp: BigInt(Math.max(Math.floor(Date.now() / 1000), Number(parent.header.timestamp))),
          gasLimit: GAS_LIMIT,
          baseFeePerGas: parent.header.calcNextBaseFee(),
          parentHash: parent.hash(),
        },
      },
      { common: this.common },
    );
  }

  /** Runs a transaction request on a checkpoint; returns whether it succeeded, its gas and its revert data. */
  private async trial(request: CallRequest, gasLimit: bigint, block: Block) {
    const tx = createTx(
      {
        type: 2,
        to: request.to as `0x${string}` | undefined,
        data: request.data as `0x${string}` | undefined,
        value: request.value ?? 0n,
        gasLimit,
        maxFeePerGas: block.header.baseFeePerGas ?? 0n,
        maxPriorityFeePerGas: 0n,
        nonce:
          (
            await this.vm.stateManager.getAccount(
              createAddressFromString(request.from ?? createZeroAddress().toString()),
            )
          )?.nonce ?? 0n,
      },
      { common: this.common, freeze: false },
    );
    const sender = request.from ? createAddressFromString(request.from) : createZeroAddress();
    tx.getSenderAddress = () => sender;
    await this.vm.evm.journal.checkpoint();
    try {
      const result = await runTx(this.vm, {
        tx,
        block,
        skipBalance: true,
        skipNonce: true,
        skipBlockGasLimitValidation: true,
        skipHardForkValidation: true,
      });
      const error = result.execResult.exceptionError;
      return {
        ok: !error,
        used: result.totalGasSpent,
        refund: result.gasRefund,
        error: error?.error,
        returnData: hex(result.execResult.returnValue),
      };
    } catch (error) {
      return { ok: false, used: 0n, refund: 0n, error: refusal(error), returnData: "0x", thrown: true };
    } finally {
      await this.vm.evm.journal.revert();
    }
  }

  /** eth_estimateGas: the least gas limit with which the transaction succeeds, within 1.5% (as geth does). */
  async estimateGas(request: CallRequest): Promise<string> {
    const block = this.pendingBlock(await this.headBlock());
    const cap = request.gas ?? GAS_LIMIT;
    const first = await this.trial(request, cap, block);
    if (!first.ok) {
      if ("thrown" in first && first.thrown)
        throw new RpcError(RPC.SERVER, first.error ?? "gas required exceeds allowance");
      throw executionError(first.error ?? "revert", first.returnData);
    }
    let lo = first.used - 1n;
    let hi = ((first.used + first.refund + 2300n) * 64n) / 63n;
    if (hi > cap) hi = cap;
    if (!(await this.trial(request, hi, block)).ok) {
      lo = hi;
      hi = cap;
    }
    while (hi - lo > 1n && (hi - lo) * 1000n > hi * 15n) {
      const mid = (lo + hi) / 2n;
      if ((await this.trial(request, mid, block)).ok) hi = mid;
      else lo = mid;
    }
    return quantity(hi);
  }
}
