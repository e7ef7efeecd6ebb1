import { GB, IPFS_PERIOD_DAYS } from "#contract/ipfs-codes.ts";

/** Pure rules of IPFS storage (docs/decisions/039), tested by tables in tests/unit/ipfs-rules.test.ts. */

/** The capacities offered with the monthly price of a GB at each (the ipfs_capacities table, docs/decisions/073). */
export type CapacityTiers = readonly { storeUnit: number; unitPriceCents: number }[];

/** A capacity of selectCapacity with its prices, or null when it is not offered. */
export function capacityOf(storeUnit: number, tiers: CapacityTiers) {
  const tier = tiers.find((c) => c.storeUnit === storeUnit);
  if (!tier) return null;
  return {
    storeUnit,
    unitPriceCents: tier.unitPriceCents,
    priceCents: tier.unitPriceCents * storeUnit,
    periodDays: IPFS_PERIOD_DAYS,
    capacityBytes: storeUnit * GB,
  };
}

const UTC8_MS = 8 * 3_600_000;
const DAY_MS = 86_400_000;

/** The UTC+8 day of an instant (SPEC §9 dates), YYYY-MM-DD. */
export const chinaDay = (at: Date) => new Date(at.getTime() + UTC8_MS).toISOString().slice(0, 10);

/** The `n` UTC+8 days ending today, oldest first. */
export function lastDays(now: Date, n: number): string[] {
  const today = Date.parse(`${chinaDay(now)}T00:00:00Z`);
  return Array.from({ length: n }, (_, i) => new Date(today - (n - 1 - i) * DAY_MS).toISOString().slice(0, 10));
}

/**
 * A Range header against a file of `size` bytes (RFC 9110 §14): one byte range gives its offset and length;
 * a range past the end is "unsatisfiable" (416); anything else (absent, several ranges, another unit, a
 * malformed header) serves the whole file (null).
 */
export function parseRange(
  header: string | null,
  size: number,
): { offset: number; length: number } | "unsatisfiable" | null {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return null;
  const [, first, last] = match;
  if (first === "" && last === "") return null;
  if (first === "") {
    const suffix = Number(last);
    if (suffix === 0) return "unsatisfiable";
    const length = Math.min(suffix, size);
    return size === 0 ? "unsatisfiable" : { offset: size - length, length };
  }
  const start = Number(first);
  if (start >= size) return "unsatisfiable";
  const end = last === "" ? size - 1 : Math.min(Number(last), size - 1);
  if (end < start) return null;
  return { offset: start, length: end - start + 1 };
}

const BY_EXTENSION: Record<string, string> = {
  txt: "text/plain; charset=utf-8",
  md: "text/markdown; charset=utf-8",
  csv: "text/csv; charset=utf-8",
  json: "application/json",
  html: "text/html; charset=utf-8",
  htm: "text/html; charset=utf-8",
  css: "text/css; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  svg: "image/svg+xml",
  xml: "application/xml",
  wasm: "application/wasm",
};

/**
 * The content type a file is served with: what its bytes show (file-type's sniff, for binary formats),
 * else what its name's extension says for text formats, else application/octet-stream.
 */
export function contentTypeOf(name: string, sniffed: string | undefined): string {
  if (sniffed) return sniffed;
  const ext = /\.([A-Za-z0-9]{1,8})$/.exec(name)?.[1]?.toLowerCase();
  return (ext && BY_EXTENSION[ext]) || "application/octet-stream";
}

/** Types a browser would run as a page on this site: served as attachments, never inline. */
export const activeContent = (contentType: string) =>
  /^(text\/html|image\/svg\+xml|application\/xml|text\/xml|application\/xhtml\+xml|text\/javascript)/i.test(
    contentType,
  );

/** A file name as stored: its last path segment, without control characters, at most 255 characters. */
export function cleanName(raw: string | null | undefined): string {
  const base = (raw ?? "").split(/[\\/]/).pop() ?? "";
  const clean = base
    .replace(/[\u0000-\u001f\u007f]/g, "")
    .trim()
    .slice(0, 255);
  return clean || "file";
}

/**
 * The price of a capacity upgrade (docs/decisions/039, addendum "Capacity upgrades"): the difference of one
 * period's price between the two capacities, for the share of the paid period that is left, rounded up to the
 * cent. Once the paid period has ended, the whole period's difference (the new capacity is bought from now).
 */
export function upgradePrice(
  fromStoreUnit: number,
  toStoreUnit: number,
  expiresAt: Date,
  now: Date,
  tiers: CapacityTiers,
) {
  const from = capacityOf(fromStoreUnit, tiers);
  const to = capacityOf(toStoreUnit, tiers);
  if (!from || !to || toStoreUnit <= fromStoreUnit) return null;
  const fullPeriodDiffCents = Math.max(0, to.priceCents - from.priceCents);
  const periodMs = IPFS_PERIOD_DAYS * DAY_MS;
  const remainingMs = Math.min(periodMs, expiresAt.getTime() - now.getTime());
  const priceDiffCents =
    remainingMs <= 0 ? fullPeriodDiffCents : Math.ceil((fullPeriodDiffCents * remainingMs) / periodMs);
  return { fullPeriodDiffCents, priceDiffCents, remainingDays: Math.max(0, Math.ceil(remainingMs / DAY_MS)) };
}
