import { RpcError } from "./hex.ts";
import type { ChainNode, RpcCall } from "./rpc.ts";

/** The JSON-RPC error code of a call the chain's node did not answer (a server error in the -32000s). */
export const NODE_UNAVAILABLE = -32050;

/** How long one call may take on a node before it counts as not answering. */
const CALL_TIMEOUT_MS = 15_000;

/**
 * A chain served by another Ethereum JSON-RPC node (CHAIN_NODES or CHAIN_RPC_URL: geth, besu, anvil, Hardhat…):
 * every call is passed on as it is, and the node's errors come back with their codes (docs/decisions/025, 094). A
 * node that does not answer (refused, reset, or silent for 15 s) is `NODE_UNAVAILABLE`, which the pages show
 * as the chain being unreachable and jobs retry.
 */
export function remoteNode(
  url: string,
): ChainNode & { health(): Promise<{ height: number; lastBlockAt: string | null; pending: number }> } {
  let next = 1;
  const post = async (call: RpcCall) => {
    let reply: { result?: unknown; error?: { code: number; message: string; data?: string } };
    try {
      const res = await fetch(url, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: next++, ...call }),
        signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
      });
      if (!res.ok) {
        await res.body?.cancel();
        throw new RpcError(NODE_UNAVAILABLE, `the chain node answered HTTP ${res.status}`);
      }
      reply = (await res.json()) as typeof reply;
    } catch (error) {
      if (error instanceof RpcError) throw error;
      throw new RpcError(NODE_UNAVAILABLE, `the chain node does not answer (${(error as Error).message})`);
    }
    if (reply.error)
      throw new RpcError(
        reply.error.code,
        reply.error.message,
        typeof reply.error.data === "string" ? reply.error.data : undefined,
      );
    return reply.result;
  };
  return {
    request: post,
    async health() {
      const block = (await post({ method: "eth_getBlockByNumber", params: ["latest", false] })) as {
        number: string;
        timestamp: string;
      } | null;
      return {
        height: block ? Number(block.number) : 0,
        lastBlockAt: block ? new Date(Number(block.timestamp) * 1000).toISOString() : null,
        pending: 0,
      };
    },
  };
}
