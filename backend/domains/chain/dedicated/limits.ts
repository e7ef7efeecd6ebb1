import { RpcError } from "#backend/domains/chain/hex.ts";
import type { ChainNode } from "#backend/domains/chain/rpc.ts";
import type { NodeLimits } from "./types.ts";

/**
 * What a dedicated network's nodes enforce (docs/decisions/074): a request rate per node, counted over a window,
 * and a storage limit that refuses transactions while the stored data is over it.
 */

/** The window the rate is counted in (contract/dedicated-node-limits.ts PRN_RATE_WINDOW_SECONDS). */
export const RATE_WINDOW_SECONDS = 10;
/** JSON-RPC error of a call over the rate (EIP-1474 "limit exceeded"). */
export const RATE_LIMITED = -32005;
/** JSON-RPC error of a transaction refused by the storage limit (EIP-1474 "transaction rejected"). */
export const STORAGE_FULL = -32003;
/** The methods that grow a node's state. */
const WRITES = new Set(["eth_sendRawTransaction", "eth_sendTransaction"]);

/** Calls admitted in the last window, counted per second; a refused request is not counted. */
export class RateWindow {
  private readonly seconds = new Map<number, number>();

  /** Admits `calls` more when the window holds them under `perSecond × window`; else false (nothing counted). */
  admit(calls: number, perSecond: number, now = Date.now()): boolean {
    const second = Math.floor(now / 1000);
    let total = 0;
    for (const [s, n] of this.seconds) {
      if (s <= second - RATE_WINDOW_SECONDS) this.seconds.delete(s);
      else total += n;
    }
    if (total + calls > perSecond * RATE_WINDOW_SECONDS) return false;
    this.seconds.set(second, (this.seconds.get(second) ?? 0) + calls);
    return true;
  }
}

/** The JSON-RPC calls of a request's text: a batch's length, else 1 (a text that is not JSON is one call). */
export function callsIn(body: string): number {
  try {
    const parsed: unknown = JSON.parse(body);
    return Array.isArray(parsed) ? Math.max(1, parsed.length) : 1;
  } catch {
    return 1;
  }
}

/** The node's answer to a call over the rate. */
export const rateLimitedBody = (node: string, limits: NodeLimits) => ({
  jsonrpc: "2.0",
  id: null,
  error: {
    code: RATE_LIMITED,
    message: `rate limit: ${node} takes ${limits.requestsPerSecond} calls per second (counted over ${RATE_WINDOW_SECONDS} s); upgrade the host configuration for more`,
  },
});

/**
 * `node` with the storage limit in front of it: a call that writes (a transaction) is refused with STORAGE_FULL
 * while `storedBytes()` is over `limitBytes`; reads go through.
 */
export function storageGuarded(node: ChainNode, limitBytes: number, storedBytes: () => Promise<number>): ChainNode {
  return {
    request: async (call) => {
      if (WRITES.has(call.method)) {
        const stored = await storedBytes();
        if (stored > limitBytes)
          throw new RpcError(
            STORAGE_FULL,
            `storage limit: the node stores ${stored} bytes, over its limit of ${limitBytes} bytes; no new transactions until the data capacity is upgraded`,
          );
      }
      return node.request(call);
    },
  };
}

/** Why limits cannot be applied, or null (positive whole numbers; null means none). */
export function limitsProblem(limits: NodeLimits | null | undefined): string | null {
  if (limits === null || limits === undefined) return null;
  const ok = (n: unknown) => typeof n === "number" && Number.isSafeInteger(n) && n > 0;
  return ok(limits.requestsPerSecond) && ok(limits.storageBytes)
    ? null
    : "a node's limits are a positive whole number of calls per second and of bytes";
}
/** The row's columns of a network's limits (null: none). */
export const limitColumns = (limits: NodeLimits | null) => ({
  requestsPerSecond: limits?.requestsPerSecond ?? null,
  storageLimitBytes: limits?.storageBytes ?? null,
});
