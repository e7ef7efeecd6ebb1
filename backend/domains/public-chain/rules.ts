import {
  bytesToHex,
  hexToBytes,
  isValidAddress,
  isValidChecksumAddress,
  isValidPublic,
  publicToAddress,
  toChecksumAddress,
} from "@ethereumjs/util";
import { PlanStatus, REQUEST_UNIT_BYTES } from "#contract/public-chain-codes.ts";

/** Pure rules of the public chain (SPEC §5, §9; docs/decisions/026), tested by tables in tests/unit. */

/** SPEC §9: an HTTP request counts max(number of calls in it, ceil(size / 5 MB)) requests (at least 1). */
export function requestUnits(calls: number, bytes: number): number {
  return Math.max(1, calls, Math.ceil(bytes / REQUEST_UNIT_BYTES));
}

/**
 * The meter's rows of one HTTP request: one request per call on its method, and the requests its size adds
 * beyond its calls on the first call's method, so that the rows sum to `requestUnits`.
 */
export function meterRows(
  methods: readonly string[],
  bytes: number,
): { method: string; requests: number; calls: number }[] {
  const names = methods.length ? methods : ["(invalid)"];
  const rows = new Map<string, { method: string; requests: number; calls: number }>();
  for (const method of names) {
    const row = rows.get(method) ?? { method, requests: 0, calls: 0 };
    row.requests += 1;
    row.calls += methods.length ? 1 : 0;
    rows.set(method, row);
  }
  const extra = requestUnits(methods.length, bytes) - names.length;
  if (extra > 0) rows.get(names[0])!.requests += extra;
  return [...rows.values()];
}

/** The JSON-RPC methods a request's text names (one call or a batch); empty when it is not JSON-RPC. */
export function methodsOf(text: string): string[] {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return [];
  }
  const calls = Array.isArray(body) ? body : [body];
  return calls.map((c) =>
    c && typeof c === "object" && typeof (c as { method?: unknown }).method === "string"
      ? (c as { method: string }).method.slice(0, 64)
      : "(invalid)",
  );
}

/** The calendar day in UTC+8 (SPEC §9 dates), which the daily request limit and the meter count by. */
export function chinaDay(at: Date): string {
  return new Date(at.getTime() + 8 * 3_600_000).toISOString().slice(0, 10);
}

/** The `count` days up to `at`'s (UTC+8), oldest first. */
export function lastDays(at: Date, count: number): string[] {
  return Array.from({ length: count }, (_, i) => chinaDay(new Date(at.getTime() - (count - 1 - i) * 86_400_000)));
}

/**
 * SPEC §5 / §8 "bad chain address": 0x and 40 hex digits; all lower or all upper case is taken as it is,
 * mixed case must be a valid EIP-55 checksum. Answers the checksummed address, or null.
 */
export function checkedAddress(input: string): string | null {
  const value = input.trim();
  if (!/^0x[0-9a-fA-F]{40}$/.test(value) || !isValidAddress(value.toLowerCase())) return null;
  const body = value.slice(2);
  const mixed = body !== body.toLowerCase() && body !== body.toUpperCase();
  if (mixed && !isValidChecksumAddress(value)) return null;
  return toChecksumAddress(`0x${body.toLowerCase()}`);
}

/** SPEC §4 key type 2: the address of a secp256k1 public key (64 bytes, or SEC1 with 0x04 / 0x02 / 0x03), or null. */
export function addressOfPublicKey(input: string): string | null {
  const hex = input.trim().replace(/^0x/i, "");
  if (!/^[0-9a-fA-F]+$/.test(hex) || ![64, 65, 33].includes(hex.length / 2)) return null;
  const bytes = hexToBytes(`0x${hex.toLowerCase()}`);
  try {
    if (!isValidPublic(bytes, bytes.length !== 64)) return null;
    return toChecksumAddress(bytesToHex(publicToAddress(bytes, bytes.length !== 64)));
  } catch {
    return null;
  }
}

/** Ether as typed (up to 18 decimals) in wei. */
export function etherToWei(value: string): bigint {
  const [whole, fraction = ""] = value.trim().split(".");
  return BigInt(whole) * 10n ** 18n + BigInt((fraction + "0".repeat(18)).slice(0, 18));
}

/** Whether the plan (its status and expiry) still allows new projects. */
export function planActive(plan: { status: number; expiresAt: Date }, now: Date): boolean {
  return plan.status === PlanStatus.ACTIVE && plan.expiresAt.getTime() > now.getTime();
}
