import { rmSync } from "node:fs";
import path from "node:path";
import { workerData } from "node:worker_threads";
import { serveWorker } from "#backend/kit/worker.ts";
import { EngineChain } from "./engine/chain.ts";
import { LevelStore } from "./engine/level.ts";
import { readSnapshotFile, writeSnapshotFile } from "./engine/snapshot-file.ts";
import type { BlockTag, CallRequest } from "./hex.ts";
import type { ChainSpec, RecordedBlock } from "./engine/types.ts";

/**
 * The embedded EVM engine's thread (docs/decisions/025): every chain of the registry lives here, and every
 * call, on whichever chain, runs after the previous one (serveWorker's single queue).
 */
void workerData;
const chains = new Map<string, EngineChain>();
/** Snapshot files being written, by path. */
const writing = new Map<string, Promise<{ entries: number }>>();

function chainOf(name: string): EngineChain {
  const chain = chains.get(name);
  if (!chain) throw new Error(`no chain ${name} is open`);
  return chain;
}

/** Closes a chain and removes its stores (before a restore or a reset). */
async function discard(spec: ChainSpec): Promise<void> {
  await chains.get(spec.name)?.close();
  chains.delete(spec.name);
  rmSync(spec.dir, { recursive: true, force: true });
}

async function openChain(spec: ChainSpec) {
  if (!chains.has(spec.name)) chains.set(spec.name, await EngineChain.open(spec));
  return chainOf(spec.name).head();
}

// Block tags cross the thread boundary as strings ("latest", or a decimal number).
const tagOf = (tag: string): BlockTag =>
  tag === "latest" || tag === "earliest" || tag === "pending" ? tag : BigInt(tag);
// Bigints of a call request cross as decimal strings.
const requestOf = (r: Record<string, string | undefined>): CallRequest => ({
  from: r.from,
  to: r.to,
  data: r.data,
  value: r.value === undefined ? undefined : BigInt(r.value),
  gas: r.gas === undefined ? undefined : BigInt(r.gas),
});

serveWorker(
  {
    open: openChain,
    head: (name: string) => chainOf(name).head(),
    seal: (name: string, rawTxs: string[], timestamp: number) => chainOf(name).seal(rawTxs, timestamp),
    reconcile: (name: string, head: RecordedBlock | undefined, missing: RecordedBlock[]) =>
      chainOf(name).reconcile(head, missing),
    rollbackTo: (name: string, number: number) => chainOf(name).rollbackTo(number),
    balance: (name: string, address: string, tag: string) => chainOf(name).balance(address, tagOf(tag)),
    nonce: (name: string, address: string, tag: string) => chainOf(name).nonce(address, tagOf(tag)),
    code: (name: string, address: string, tag: string) => chainOf(name).code(address, tagOf(tag)),
    block: (name: string, tag: string, full: boolean) => chainOf(name).block(tagOf(tag), full),
    nextBaseFee: (name: string) => chainOf(name).nextBaseFee(),
    call: (name: string, request: Record<string, string | undefined>, tag: string) =>
      chainOf(name).call(requestOf(request), tagOf(tag)),
    estimateGas: (name: string, request: Record<string, string | undefined>) =>
      chainOf(name).estimateGas(requestOf(request)),
    /**
     * Begins writing the chain as it is at its head to a snapshot file (docs/decisions/103) and answers that head at
     * once: the stores are read from the moment of this call while the next calls go on; `snapshotWritten` waits.
     */
    async snapshot(name: string, file: string) {
      const chain = chainOf(name);
      const head = await chain.head();
      const [blocks, state] = chain.stores;
      const written = writeSnapshotFile({ blocks: blocks!, state: state! }, file);
      written.catch(() => undefined);
      writing.set(file, written);
      return head;
    },
    /** Waits for a snapshot file begun by `snapshot` (beside the queue): its count of entries. */
    async snapshotWritten(file: string) {
      const written = writing.get(file);
      writing.delete(file);
      if (!written) throw new Error(`no snapshot is being written to ${file}`);
      return written;
    },
    /** Replaces the chain's stores by a snapshot file's and opens it again; answers its head. */
    async restore(spec: ChainSpec, file: string) {
      await discard(spec);
      // The stores' directories as EngineChain.open names them.
      const blocks = await LevelStore.open(path.join(spec.dir, "blocks"));
      const state = await LevelStore.open(path.join(spec.dir, "state"));
      try {
        await readSnapshotFile(file, { blocks, state });
      } catch (error) {
        // Nothing half-restored is left behind: opened again, the chain starts from its genesis.
        await Promise.all([blocks.close(), state.close()]);
        rmSync(spec.dir, { recursive: true, force: true });
        throw error;
      }
      await Promise.all([blocks.close(), state.close()]);
      return openChain(spec);
    },
    /** Starts the chain again from its genesis (a snapshot that gave another block than recorded). */
    async reset(spec: ChainSpec) {
      await discard(spec);
      return openChain(spec);
    },
    async closeAll() {
      for (const chain of chains.values()) await chain.close();
      chains.clear();
    },
  },
  { besideQueue: ["snapshotWritten"] },
);
