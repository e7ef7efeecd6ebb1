import { RPC, RpcError } from "./hex.ts";

/**
 * The JSON-RPC 2.0 envelope (docs/decisions/025): one call or a batch, each answered with its id; an error
 * carries its code, message and data. The methods are a node's (an embedded chain or a remote one).
 */
export type RpcCall = { method: string; params?: unknown };
export type ChainNode = {
  /** Answers one call's result or throws an RpcError. */
  request(call: RpcCall): Promise<unknown>;
};

/** The most calls one batch may carry. */
export const MAX_BATCH = 100;

type Reply = {
  jsonrpc: "2.0";
  id: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: string };
};

function errorOf(error: unknown): Reply["error"] {
  if (
    error instanceof RpcError ||
    (error instanceof Error && typeof (error as { code?: unknown }).code === "number" && error.name === "RpcError")
  ) {
    const e = error as RpcError;
    return e.data === undefined
      ? { code: e.code, message: e.message }
      : { code: e.code, message: e.message, data: e.data };
  }
  console.error("chain rpc failed", error);
  return { code: RPC.INTERNAL, message: "internal error" };
}

async function one(node: ChainNode, call: unknown): Promise<Reply> {
  const id = typeof call === "object" && call !== null && "id" in call ? (call as { id: unknown }).id : null;
  if (
    typeof call !== "object" ||
    call === null ||
    Array.isArray(call) ||
    typeof (call as { method?: unknown }).method !== "string"
  ) {
    return { jsonrpc: "2.0", id, error: { code: RPC.INVALID_REQUEST, message: "invalid request" } };
  }
  try {
    const { method, params } = call as RpcCall;
    return { jsonrpc: "2.0", id, result: (await node.request({ method, params })) ?? null };
  } catch (error) {
    return { jsonrpc: "2.0", id, error: errorOf(error) };
  }
}

/** Answers a parsed JSON-RPC body (one call or a batch) with what goes back as JSON. */
export async function answer(node: ChainNode, body: unknown): Promise<Reply | Reply[]> {
  if (!Array.isArray(body)) return one(node, body);
  if (!body.length) return { jsonrpc: "2.0", id: null, error: { code: RPC.INVALID_REQUEST, message: "empty batch" } };
  if (body.length > MAX_BATCH)
    return {
      jsonrpc: "2.0",
      id: null,
      error: { code: RPC.INVALID_REQUEST, message: `a batch holds at most ${MAX_BATCH} calls` },
    };
  const replies: Reply[] = [];
  // In order: a batch's transactions are sent in the order given.
  for (const call of body) replies.push(await one(node, call));
  return replies;
}

/** Answers the text of an HTTP JSON-RPC request (a body that is not JSON is a parse error). */
export async function answerText(node: ChainNode, text: string): Promise<Reply | Reply[]> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { jsonrpc: "2.0", id: null, error: { code: RPC.PARSE_ERROR, message: "parse error" } };
  }
  return answer(node, body);
}
