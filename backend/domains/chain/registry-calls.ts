import { EngineUnreachableError } from "#backend/kit/engine-link.ts";
import { NotLeaseHolderError } from "#backend/kit/engine-lease.ts";
import type { EngineOwnership } from "#backend/kit/engine-owner.ts";
import { RPC, RpcError } from "./hex.ts";
import { NODE_UNAVAILABLE } from "./remote.ts";
import type { ChainHealth, Entry } from "./registry-types.ts";
import type { ChainNode, RpcCall } from "./rpc.ts";

/** What the chain registry does through its public calls alone: deploys, receipts, and the holder's answers. */

/** The registry's calls these use (./registry.ts). */
type ChainRegistry = {
  request(name: string, call: RpcCall): Promise<unknown>;
  send(name: string, privateKey: string, input: { data?: string }): Promise<string>;
  health(): Promise<unknown>;
  createChain(input: { name: string; purpose: string }): Promise<unknown>;
  fund(name: string, address: string, wei: bigint): Promise<string>;
};

/** A deployed contract. */
export type Deployed = { address: string; txHash: string; blockNumber: number; gasUsed: string };

/**
 * Deploys a contract's creation bytecode (with its encoded constructor arguments appended) from the account of
 * `privateKey`: its address, transaction and block once mined, or throws with the chain's reason.
 */
export async function deployOn(
  registry: ChainRegistry,
  name: string,
  privateKey: string,
  bytecode: string,
): Promise<Deployed> {
  if (!/^0x([0-9a-fA-F]{2})+$/.test(bytecode)) throw new RpcError(RPC.INVALID_PARAMS, "the bytecode is not hex");
  const txHash = await registry.send(name, privateKey, { data: bytecode });
  const receipt = await receiptOf(registry, name, txHash);
  if (receipt.status !== "0x1" || !receipt.contractAddress)
    throw new RpcError(RPC.INTERNAL, `the contract creation ${txHash} was reverted`);
  return {
    address: receipt.contractAddress,
    txHash,
    blockNumber: Number(receipt.blockNumber),
    gasUsed: BigInt(receipt.gasUsed).toString(),
  };
}

type Receipt = { status: string; contractAddress: string | null; blockNumber: string; gasUsed: string };

/** A transaction's receipt: at once on the embedded engine (answered once recorded), polled on a remote node. */
export async function receiptOf(registry: ChainRegistry, name: string, hash: string): Promise<Receipt> {
  for (let attempt = 0; attempt < 120; attempt++) {
    const receipt = await registry.request(name, { method: "eth_getTransactionReceipt", params: [hash] });
    if (receipt) return receipt as Receipt;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new RpcError(RPC.INTERNAL, `no receipt for ${hash} after 60 seconds`);
}

/**
 * The holder's answers to the other processes' calls (docs/decisions/031, 095): /health, /rpc/<chain> (one call),
 * /create, /fund.
 */
export async function answerPeer(registry: ChainRegistry, path: string, body: unknown): Promise<unknown> {
  const input = (body ?? {}) as Record<string, string>;
  if (path === "/health") return registry.health();
  if (path.startsWith("/rpc/"))
    return { result: (await registry.request(decodeURIComponent(path.slice(5)), body as RpcCall)) ?? null };
  if (path === "/create") return registry.createChain({ name: String(input.name), purpose: String(input.purpose) });
  if (path === "/fund")
    return { hash: await registry.fund(String(input.name), String(input.address), BigInt(input.wei ?? "0")) };
  throw new Error(`no engine call ${path}`);
}

/** A call to the holder of the chains (this process is a peer); a holder that cannot be reached is NODE_UNAVAILABLE. */
export async function forwardTo<T>(
  ownership: EngineOwnership,
  path: string,
  body: unknown,
  resendable: boolean,
): Promise<T> {
  try {
    return await ownership.call<T>(path, body, resendable);
  } catch (error) {
    if (error instanceof EngineUnreachableError) throw new RpcError(NODE_UNAVAILABLE, error.message);
    throw error;
  }
}

export const sends = (call: RpcCall) =>
  call.method === "eth_sendRawTransaction" || call.method === "eth_sendTransaction";

/** A chain run by the holder: each call forwarded there; one that sends a transaction is never sent twice. */
export function forwardedNode(ownership: EngineOwnership, name: string): ChainNode {
  return {
    request: async (call) =>
      (await forwardTo<{ result: unknown }>(ownership, `/rpc/${encodeURIComponent(name)}`, call, !sends(call))).result,
  };
}

/**
 * A chain this process runs as the lease's holder (docs/decisions/106; a dedicated network's node, 109). When the
 * chain moved to another process while a call was under way here (`movedOn`: a handover or a takeover stopped the
 * engine under it), its failure is not the chain's answer: a call safe to repeat is asked of the new holder
 * (`holder`), and a send that the engine had not refused is NODE_UNAVAILABLE (it may have been sealed before the
 * stop; nothing was acknowledged), never a 500.
 */
export function handedOverNode(node: ChainNode, name: string, holder: ChainNode, movedOn: () => boolean) {
  return {
    request: async (call: RpcCall) => {
      try {
        return await node.request(call);
      } catch (error) {
        // The lease was lost before this process learnt it (its fence refused the block): a clean refusal too.
        if (error instanceof NotLeaseHolderError)
          throw new RpcError(NODE_UNAVAILABLE, `the chain ${name} is being taken over by another process`);
        if (!movedOn()) throw error;
        if (!sends(call)) return holder.request(call);
        // The engine's own refusal (a nonce too low, too little gas...) came before the move: it stands.
        if (typeof (error as { code?: unknown }).code === "number") throw error;
        throw new RpcError(NODE_UNAVAILABLE, `the chain ${name} moved to another process during the call`);
      }
    },
  } satisfies ChainNode;
}

/** Each chain's height; a chain whose node does not answer says so (`unreachable`), the others are still shown. */
export async function healthOf(
  entries: Iterable<Entry>,
): Promise<Record<string, ChainHealth & { chainId: number; unreachable?: string }>> {
  const out: Record<string, ChainHealth & { chainId: number; unreachable?: string }> = {};
  for (const entry of entries)
    out[entry.name] = {
      chainId: entry.chainId,
      ...(await Promise.resolve(entry.health()).catch((error: Error) => ({
        height: 0,
        lastBlockAt: null,
        pending: 0,
        unreachable: error.message,
      }))),
    };
  return out;
}
