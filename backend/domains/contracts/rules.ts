import { getAddress, isAddress, type Abi, type AbiFunction, type AbiParameter } from "viem";

/** Pure rules of contract deployment and calls (docs/decisions/033), tested by tables in tests/unit. */

/** An ABI as typed (JSON text): an array of entries with a known `type`, or null. */
export function parseAbiText(text: string): Abi | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!Array.isArray(value) || value.length > 2_000) return null;
  const known = new Set(["function", "event", "constructor", "error", "fallback", "receive"]);
  for (const entry of value) {
    if (
      typeof entry !== "object" ||
      entry === null ||
      Array.isArray(entry) ||
      !known.has((entry as { type?: unknown }).type as string)
    )
      return null;
    const e = entry as { name?: unknown; inputs?: unknown; outputs?: unknown };
    if ((e as { type: string }).type === "function" || (e as { type: string }).type === "event") {
      if (typeof e.name !== "string" || !/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(e.name)) return null;
    }
    for (const list of [e.inputs, e.outputs]) {
      if (list === undefined) continue;
      if (
        !Array.isArray(list) ||
        !list.every((p) => typeof p === "object" && p !== null && typeof (p as { type?: unknown }).type === "string")
      )
        return null;
    }
  }
  return value as Abi;
}

/** The read functions of an ABI (view or pure), in ABI order. */
export function readFunctions(abi: Abi): AbiFunction[] {
  return abi.filter(
    (e): e is AbiFunction => e.type === "function" && (e.stateMutability === "view" || e.stateMutability === "pure"),
  );
}

/** A function's signature, `name(type,…)`, which tells overloads apart. */
export const signatureOf = (f: { name: string; inputs: readonly AbiParameter[] }) =>
  `${f.name}(${f.inputs.map((p) => p.type).join(",")})`;

export class ArgumentError extends Error {
  constructor(
    readonly index: number,
    message: string,
  ) {
    super(message);
  }
}

const INT = /^(u?)int(\d*)$/;
const BYTES = /^bytes(\d+)$/;

/**
 * One argument as typed in a form, as the value viem encodes for its ABI type: integers in decimal or 0x hex
 * (range-checked), bool as true/false, address (EIP-55 checked when mixed case), bytes as 0x hex, string as
 * it is; arrays and tuples as JSON.
 */
export function parseArgument(param: AbiParameter, text: string, index = 0): unknown {
  const type = param.type;
  const fail = (why: string): never => {
    throw new ArgumentError(index, `${param.name || `#${index + 1}`} (${type}): ${why}`);
  };
  if (type.endsWith("]") || type === "tuple") {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      fail("expected JSON");
    }
    return fromJson(param, value, index, fail);
  }
  return scalar(param, text.trim(), fail);
}

function fromJson(param: AbiParameter, value: unknown, index: number, fail: (why: string) => never): unknown {
  const type = param.type;
  const array = /^(.*)\[(\d*)\]$/.exec(type);
  if (array) {
    if (!Array.isArray(value)) fail("expected a JSON array");
    const list = value as unknown[];
    if (array[2] && list.length !== Number(array[2])) fail(`expected ${array[2]} items`);
    const inner = { ...param, type: array[1]! } as AbiParameter;
    return list.map((item) => fromJson(inner, item, index, fail));
  }
  if (type === "tuple") {
    const components = (param as { components?: readonly AbiParameter[] }).components ?? [];
    if (Array.isArray(value)) {
      if (value.length !== components.length) fail(`expected ${components.length} fields`);
      return components.map((c, i) => fromJson(c, value[i], index, fail));
    }
    if (typeof value !== "object" || value === null) fail("expected a JSON array or object");
    return Object.fromEntries(
      components.map((c, i) => [
        c.name ?? String(i),
        fromJson(c, (value as Record<string, unknown>)[c.name ?? String(i)], index, fail),
      ]),
    );
  }
  if (typeof value === "boolean" && type === "bool") return value;
  if (typeof value === "number" && Number.isSafeInteger(value)) return scalar(param, String(value), fail);
  if (typeof value !== "string") fail("expected a string in the JSON");
  return scalar(param, value as string, fail);
}

function scalar(param: AbiParameter, text: string, fail: (why: string) => never): unknown {
  const type = param.type;
  const int = INT.exec(type);
  if (int) {
    const bits = Number(int[2] || 256);
    if (!/^-?(0|[1-9][0-9]*)$/.test(text) && !/^0x[0-9a-fA-F]+$/.test(text)) fail("expected a whole number");
    const n = BigInt(text);
    const [min, max] = int[1]
      ? [0n, 2n ** BigInt(bits) - 1n]
      : [-(2n ** BigInt(bits - 1)), 2n ** BigInt(bits - 1) - 1n];
    if (n < min || n > max) fail(`out of range for ${type}`);
    return n;
  }
  if (type === "bool") {
    if (text !== "true" && text !== "false") fail("expected true or false");
    return text === "true";
  }
  if (type === "address") {
    if (!/^0x[0-9a-fA-F]{40}$/.test(text)) fail("expected an address, 0x and 40 hex digits");
    const body = text.slice(2);
    const mixed = body !== body.toLowerCase() && body !== body.toUpperCase();
    if (mixed && !isAddress(text, { strict: true })) fail("the address's checksum is wrong");
    return getAddress(text.toLowerCase());
  }
  const bytes = BYTES.exec(type);
  if (bytes || type === "bytes") {
    if (!/^0x([0-9a-fA-F]{2})*$/.test(text)) fail("expected hex bytes such as 0x00ff");
    if (bytes && text.length !== 2 + Number(bytes[1]) * 2) fail(`expected ${bytes[1]} bytes`);
    return text.toLowerCase();
  }
  if (type === "string") return text;
  return fail("this type is not supported in a form");
}

/** Arguments for a list of parameters: as many as parameters, each parsed. */
export function parseArguments(params: readonly AbiParameter[], texts: readonly string[]): unknown[] {
  if (texts.length !== params.length)
    throw new ArgumentError(
      Math.min(texts.length, params.length),
      `expected ${params.length} argument(s), got ${texts.length}`,
    );
  return params.map((p, i) => parseArgument(p, texts[i]!, i));
}

/** A decoded ABI value as text for a page: integers in decimal, arrays and tuples as JSON. */
export function valueText(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "bigint" || typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v));
}

/** The contract to deploy among a compilation's: the one named, else the only one with bytecode. */
export function chooseContract<T extends { name: string; bytecode: string }>(
  contracts: T[],
  wanted: string | null | undefined,
): { contract: T } | { error: string } {
  const deployable = contracts.filter((c) => c.bytecode.length > 2);
  if (wanted) {
    const found = deployable.find((c) => c.name === wanted);
    return found
      ? { contract: found }
      : {
          error: `the source has no deployable contract named ${wanted} (it has: ${deployable.map((c) => c.name).join(", ") || "none"})`,
        };
  }
  if (deployable.length === 1) return { contract: deployable[0]! };
  if (!deployable.length)
    return { error: "the source has no deployable contract (only interfaces or abstract contracts)" };
  return {
    error: `the source has several contracts (${deployable.map((c) => c.name).join(", ")}): name the one to deploy`,
  };
}
