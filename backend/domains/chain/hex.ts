/**
 * Ethereum JSON-RPC encodings (pure; shared by the engine's worker and the request layer): QUANTITY is a
 * hex number without leading zeros ("0x0", "0x1a"), DATA is an even-length hex byte string ("0x", "0x00ff").
 */

/** A JSON-RPC error: code and message as the Ethereum clients use them, with optional data (revert data). */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: string,
  ) {
    super(message);
    this.name = "RpcError";
  }
}

export const RPC = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL: -32603,
  /** What geth answers for a refused transaction or a failed call. */
  SERVER: -32000,
  /** A call or estimate that reverted: the revert data comes as `data`. */
  EXECUTION_REVERTED: 3,
} as const;

const badParams = (message: string) => new RpcError(RPC.INVALID_PARAMS, message);

/** A non-negative integer as QUANTITY. */
export function quantity(value: bigint | number): string {
  const n = BigInt(value);
  if (n < 0n) throw new RangeError("a quantity is never negative");
  return `0x${n.toString(16)}`;
}

/** A QUANTITY parameter as bigint; anything else (leading zeros, no 0x, not hex) is a bad parameter. */
export function parseQuantity(value: unknown, name = "quantity"): bigint {
  if (typeof value !== "string" || !/^0x(0|[1-9a-fA-F][0-9a-fA-F]*)$/.test(value))
    throw badParams(`invalid ${name}: expected a hex quantity such as 0x1a`);
  if (value.length > 66) throw badParams(`invalid ${name}: larger than 256 bits`);
  return BigInt(value);
}

/** Bytes as DATA. */
export function data(bytes: Uint8Array): string {
  return `0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex")}`;
}

/** A DATA parameter, lower-cased; `bytes` asks for an exact length (20 for an address, 32 for a hash). */
export function parseData(value: unknown, name = "data", bytes?: number): string {
  if (typeof value !== "string" || !/^0x([0-9a-fA-F]{2})*$/.test(value))
    throw badParams(`invalid ${name}: expected hex bytes such as 0x00ff`);
  if (bytes !== undefined && value.length !== 2 + bytes * 2)
    throw badParams(`invalid ${name}: expected ${bytes} bytes`);
  return value.toLowerCase();
}

export const parseAddress = (value: unknown, name = "address") => parseData(value, name, 20);
export const parseHash = (value: unknown, name = "hash") => parseData(value, name, 32);

/** Hex DATA as bytes (the hex is already checked). */
export function bytesOf(hex: string): Uint8Array {
  return Uint8Array.from(Buffer.from(hex.slice(2), "hex"));
}

/** A block parameter: a tag or a number. "safe" and "finalized" are the head on an instant-mining chain. */
export type BlockTag = "latest" | "earliest" | "pending" | bigint;

export function parseBlockTag(value: unknown, name = "block"): BlockTag {
  if (value === undefined || value === null || value === "latest" || value === "safe" || value === "finalized")
    return "latest";
  if (value === "earliest" || value === "pending") return value;
  // EIP-1898: { blockNumber } (a blockHash form is not kept by this engine's index)
  if (typeof value === "object" && value !== null && "blockNumber" in value)
    return parseBlockTag((value as { blockNumber: unknown }).blockNumber, name);
  if (typeof value === "string" && value.startsWith("0x")) return parseQuantity(value, name);
  throw badParams(`invalid ${name}: expected a block number or "latest", "earliest", "pending", "safe", "finalized"`);
}

/** A transaction-like object for eth_call and eth_estimateGas, checked. */
export type CallRequest = {
  from?: string;
  to?: string;
  data?: string;
  value?: bigint;
  gas?: bigint;
  gasPrice?: bigint;
  maxFeePerGas?: bigint;
  maxPriorityFeePerGas?: bigint;
};

export function parseCallRequest(value: unknown): CallRequest {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw badParams("invalid transaction: expected an object");
  const v = value as Record<string, unknown>;
  const opt = <T>(key: string, parse: (x: unknown, name: string) => T): T | undefined =>
    v[key] === undefined || v[key] === null ? undefined : parse(v[key], key);
  const input = opt("input", parseData);
  const dataField = opt("data", parseData);
  if (input !== undefined && dataField !== undefined && input !== dataField)
    throw badParams("invalid transaction: input and data differ");
  return {
    from: opt("from", parseAddress),
    to: opt("to", parseAddress),
    data: input ?? dataField,
    value: opt("value", parseQuantity),
    gas: opt("gas", parseQuantity),
    gasPrice: opt("gasPrice", parseQuantity),
    maxFeePerGas: opt("maxFeePerGas", parseQuantity),
    maxPriorityFeePerGas: opt("maxPriorityFeePerGas", parseQuantity),
  };
}

/** An eth_getLogs filter, checked: addresses and topics lower-cased, each topic position null or a set. */
export type LogFilter = {
  fromBlock: BlockTag;
  toBlock: BlockTag;
  blockHash?: string;
  addresses: string[];
  topics: (string[] | null)[];
};

export function parseLogFilter(value: unknown): LogFilter {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw badParams("invalid filter: expected an object");
  const v = value as Record<string, unknown>;
  const addresses =
    v.address === undefined || v.address === null
      ? []
      : Array.isArray(v.address)
        ? v.address.map((a) => parseAddress(a))
        : [parseAddress(v.address)];
  if (v.topics !== undefined && v.topics !== null && !Array.isArray(v.topics))
    throw badParams("invalid topics: expected an array");
  const topicsIn = (v.topics ?? []) as unknown[];
  if (topicsIn.length > 4) throw badParams("invalid topics: at most 4 positions");
  const topics = topicsIn.map((t) =>
    t === null || t === undefined
      ? null
      : Array.isArray(t)
        ? t.map((x) => parseHash(x, "topic"))
        : [parseHash(t, "topic")],
  );
  const blockHash = v.blockHash === undefined || v.blockHash === null ? undefined : parseHash(v.blockHash, "blockHash");
  if (blockHash && (v.fromBlock !== undefined || v.toBlock !== undefined))
    throw badParams("invalid filter: blockHash excludes fromBlock and toBlock");
  return {
    fromBlock: parseBlockTag(v.fromBlock ?? "latest", "fromBlock"),
    toBlock: parseBlockTag(v.toBlock ?? "latest", "toBlock"),
    blockHash,
    addresses,
    topics,
  };
}

/** The params array of a method, with its arity checked. */
export function paramsOf(params: unknown, min: number, max: number): unknown[] {
  const list = params === undefined || params === null ? [] : params;
  if (!Array.isArray(list)) throw badParams("params must be an array");
  if (list.length < min || list.length > max)
    throw badParams(
      min === max
        ? `expected ${min} params, got ${list.length}`
        : `expected ${min} to ${max} params, got ${list.length}`,
    );
  return list;
}
