import { RPC, RpcError } from "./hex.ts";
import type { ChainNode, RpcCall } from "./rpc.ts";

/**
 * A chain served by another Ethereum JSON-RPC node (CHAIN_RPC_URL: geth, besu, anvil…): every call is passed
 * on as it is, and the node's errors come back with their codes (docs/decisions/025).
 */
export function remoteNode(
  url: string,
): ChainNode & { health(): Promise<{ height: number; lastBlockAt: string | null; pending: number }> } {
  let next = 1;
  const post = async (call: RpcCall) => {
    const res = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: next++, ...call }),
    });
    if (!res.ok) throw new RpcError(RPC.INTERNAL, `the chain node answered HTTP ${res.status}`);
    const reply = (await res.json()) as { result?: unknown; error?: { code: number; message: string; data?: string } };
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
