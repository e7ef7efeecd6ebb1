import { lookup as dnsLookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import type { WebhookRefusal } from "#contract/alert-webhook.ts";

/**
 * Where an alert webhook may be sent (docs/decisions/092): an https: address whose host resolves, every address of
 * it, to a public address: never loopback, private (10/8, 172.16/12, 192.168/16, 100.64/10 shared, fc00::/7),
 * link-local (169.254/16, fe80::/10), unspecified, multicast or another reserved range, nor the portal's own. The
 * delivery then connects to the address checked here (no second resolution, ./webhook-send.ts), so a name that
 * answers a public address to the check and a private one to the connection reaches nothing. Loopback is allowed
 * only with WEBHOOK_ALLOW_LOOPBACK=1 (tests; refused in production, backend/env.ts), and even then the portal's own
 * address and port are refused.
 */

export type AddressRange = "public" | "loopback" | "private" | "linkLocal" | "reserved";

const ranges: [Exclude<AddressRange, "public">, BlockList][] = [];
function listOf(range: Exclude<AddressRange, "public">, v4: [string, number][], v6: [string, number][]) {
  const list = new BlockList();
  for (const [net, prefix] of v4) list.addSubnet(net, prefix, "ipv4");
  for (const [net, prefix] of v6) list.addSubnet(net, prefix, "ipv6");
  ranges.push([range, list]);
}
listOf("loopback", [["127.0.0.0", 8]], [["::1", 128]]);
listOf(
  "private",
  [
    ["10.0.0.0", 8],
    ["172.16.0.0", 12],
    ["192.168.0.0", 16],
    ["100.64.0.0", 10],
  ],
  [["fc00::", 7]],
);
listOf("linkLocal", [["169.254.0.0", 16]], [["fe80::", 10]]);
listOf(
  "reserved",
  [
    ["0.0.0.0", 8], // "this network", the unspecified address
    ["192.0.0.0", 24], // IETF protocol assignments
    ["192.0.2.0", 24], // documentation
    ["198.18.0.0", 15], // benchmarking
    ["198.51.100.0", 24],
    ["203.0.113.0", 24],
    ["224.0.0.0", 4], // multicast
    ["240.0.0.0", 4], // reserved, broadcast
  ],
  [
    ["::", 128], // unspecified
    ["ff00::", 8], // multicast
    ["2001:db8::", 32], // documentation
    ["64:ff9b::", 96], // NAT64: reaches an IPv4 address the check did not see
    ["100::", 64], // discard
    ["2002::", 16], // 6to4: likewise
  ],
);

/** An IPv4 address written as IPv6 (::ffff:a.b.c.d, or its hex form) as the IPv4 address it is. */
function unmapped(address: string): string {
  const lower = address.toLowerCase();
  const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex) {
    const [hi, lo] = [parseInt(hex[1], 16), parseInt(hex[2], 16)];
    return [hi >> 8, hi & 255, lo >> 8, lo & 255].join(".");
  }
  return address;
}

/** The range an IP address falls in ("reserved" for what is not an address). */
export function rangeOf(address: string): AddressRange {
  const ip = unmapped(address.replace(/^\[|\]$/g, ""));
  const family = isIP(ip);
  if (family === 0) return "reserved";
  const type = family === 4 ? "ipv4" : "ipv6";
  for (const [range, list] of ranges) if (list.check(ip, type)) return range;
  return "public";
}

export type LookupAll = (host: string) => Promise<{ address: string; family: number }[]>;

const lookupAll: LookupAll = (host) => dnsLookup(host, { all: true, verbatim: true });

export type AddressPolicy = {
  /** WEBHOOK_ALLOW_LOOPBACK=1: loopback addresses pass (tests only). */
  allowLoopback: boolean;
  /** The portal's public address (PUBLIC_URL): its host, the addresses it resolves to, and its port. */
  own: { host: string; port: string };
  /** Resolves a name to all its addresses (tests pass their own). */
  lookup?: LookupAll;
};

export type AddressVerdict =
  { ok: true; url: URL; host: string; address: string; family: 4 | 6 } | { ok: false; reason: WebhookRefusal };

const portOf = (url: URL) => url.port || (url.protocol === "https:" ? "443" : "80");

/** Checks a webhook address and answers the one IP address to connect to, or why it is refused. */
export async function checkWebhookAddress(text: string, policy: AddressPolicy): Promise<AddressVerdict> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, reason: "format" };
  }
  if (url.protocol !== "https:") return { ok: false, reason: "https" };
  if (url.username || url.password || !url.hostname) return { ok: false, reason: "format" };
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  const lookup = policy.lookup ?? lookupAll;
  const ownHost = policy.own.host.replace(/^\[|\]$/g, "").toLowerCase();
  const port = portOf(url);
  const samePort = port === policy.own.port;
  if (host === ownHost && (samePort || !isIP(host) || rangeOf(host) !== "loopback"))
    return { ok: false, reason: "own" };
  let addresses: { address: string; family: number }[];
  try {
    addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookup(host);
  } catch {
    return { ok: false, reason: "unresolved" };
  }
  if (addresses.length === 0) return { ok: false, reason: "unresolved" };
  // Every address the name has must pass: a client may be given any of them.
  for (const { address } of addresses) {
    const range = rangeOf(address);
    if (range === "loopback" && !policy.allowLoopback) return { ok: false, reason: "loopback" };
    if (range !== "public" && range !== "loopback") return { ok: false, reason: range };
  }
  const own = await ownAddresses(ownHost, lookup);
  for (const { address } of addresses) {
    // The portal's own address: any port of a public one (the same host); on loopback (tests), its own port only.
    if (own.has(unmapped(address)) && (rangeOf(address) !== "loopback" || samePort))
      return { ok: false, reason: "own" };
  }
  const chosen = addresses[0];
  return { ok: true, url, host, address: chosen.address, family: chosen.family === 6 ? 6 : 4 };
}

/** The addresses of the portal's public host (none when it does not resolve here). */
async function ownAddresses(host: string, lookup: LookupAll): Promise<Set<string>> {
  if (!host) return new Set();
  if (isIP(host)) return new Set([unmapped(host)]);
  try {
    return new Set((await lookup(host)).map((a) => unmapped(a.address)));
  } catch {
    return new Set();
  }
}

/** The portal's own host and port, from its public address. */
export function ownOf(publicUrl: string): { host: string; port: string } {
  const url = new URL(publicUrl);
  return { host: url.hostname, port: portOf(url) };
}
