import { workerData } from "node:worker_threads";
import { serveWorker } from "#backend/kit/worker.ts";
import { EngineChain } from "./engine/chain.ts";
import type { BlockTag, CallRequest } from "./hex.ts";
import type { ChainSpec, RecordedBlock } from "./engine/types.ts";

/**
 * The embedded EVM engine's thread (docs/decisions/025): every chain of the registry lives here, and every
 * call, on whichever chain, runs after the previous one (serveWorker's single queue).
 */
void workerData;
const chains = new Map<string, EngineChain>();

function chainOf(name: string): EngineChain {
  const chain = chains.get(name);
  if (!chain) throw new Error(`no chain ${name} is open`);
  return chain;
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

serveWorker({
  async open(spec: ChainSpec) {
    if (!chains.has(spec.name)) chains.set(spec.name, await EngineChain.open(spec));
    return chainOf(spec.name).head();
  },
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
  async closeAll() {
    for (const chain of chains.values()) await chain.close();
    chains.clear();
  },
});
