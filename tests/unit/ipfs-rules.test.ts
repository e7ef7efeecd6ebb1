import { describe, expect, it } from "vitest";
import {
  activeContent,
  capacityOf,
  chinaDay,
  cleanName,
  contentTypeOf,
  lastDays,
  parseRange,
  upgradePrice,
} from "#backend/domains/ipfs/rules.ts";

// docs/decisions/039: the pure rules of IPFS storage, by tables.

describe("Range headers (RFC 9110 §14) against a 1000-byte file", () => {
  it.each([
    [null, null],
    ["bytes=0-0", { offset: 0, length: 1 }],
    ["bytes=0-999", { offset: 0, length: 1000 }],
    ["bytes=10-", { offset: 10, length: 990 }],
    ["bytes=990-5000", { offset: 990, length: 10 }],
    ["bytes=-100", { offset: 900, length: 100 }],
    ["bytes=-5000", { offset: 0, length: 1000 }],
    ["bytes=1000-", "unsatisfiable"],
    ["bytes=-0", "unsatisfiable"],
    ["bytes=5-4", null],
    ["bytes=0-1,5-6", null],
    ["items=0-1", null],
    ["bytes=-", null],
    ["bytes=abc", null],
  ] as const)("%s → %j", (header, expected) => {
    expect(parseRange(header, 1000)).toEqual(expected);
  });
  it("an empty file has no satisfiable range", () => {
    expect(parseRange("bytes=0-", 0)).toBe("unsatisfiable");
    expect(parseRange("bytes=-1", 0)).toBe("unsatisfiable");
  });
});

/** The capacities the migration seeds (docs/decisions/073): the ipfs_capacities rows of a new database. */
const tiers = [
  { storeUnit: 1, unitPriceCents: 30 },
  { storeUnit: 10, unitPriceCents: 25 },
  { storeUnit: 50, unitPriceCents: 20 },
  { storeUnit: 100, unitPriceCents: 18 },
  { storeUnit: 500, unitPriceCents: 15 },
  { storeUnit: 1024, unitPriceCents: 12 },
];

describe("capacities and prices (SPEC §7 selectCapacity, getIpfsUnitPrice, getIpfsPrice)", () => {
  it.each([
    [1, { unitPriceCents: 30, priceCents: 30, capacityBytes: 1024 ** 3 }],
    [10, { unitPriceCents: 25, priceCents: 250 }],
    [1024, { unitPriceCents: 12, priceCents: 12_288, capacityBytes: 1024 ** 4 }],
  ] as const)("%i GB", (storeUnit, expected) => {
    expect(capacityOf(storeUnit, tiers)).toMatchObject({ storeUnit, periodDays: 30, ...expected });
  });
  it("refuses a capacity that is not offered", () => {
    expect(capacityOf(3, tiers)).toBeNull();
    expect(capacityOf(0, tiers)).toBeNull();
  });
});

describe("content types: the bytes' sniff first, then text formats by name", () => {
  it.each([
    ["a.png", "image/png", "image/png"],
    ["a.txt", undefined, "text/plain; charset=utf-8"],
    ["A.JSON", undefined, "application/json"],
    ["page.html", undefined, "text/html; charset=utf-8"],
    ["noext", undefined, "application/octet-stream"],
    ["a.exe", undefined, "application/octet-stream"],
  ])("%s (%s) → %s", (name, sniffed, expected) => {
    expect(contentTypeOf(name, sniffed)).toBe(expected);
  });
  it("serves active content as an attachment, never inline", () => {
    expect(activeContent("text/html; charset=utf-8")).toBe(true);
    expect(activeContent("image/svg+xml")).toBe(true);
    expect(activeContent("text/plain; charset=utf-8")).toBe(false);
    expect(activeContent("image/png")).toBe(false);
  });
});

describe("names and days", () => {
  it.each([
    ["report.pdf", "report.pdf"],
    ["../../etc/passwd", "passwd"],
    ["C:\\Users\\me\\a.txt", "a.txt"],
    ["a\u0000b\nc.txt", "abc.txt"],
    ["", "file"],
    [null, "file"],
  ])("%j → %j", (raw, expected) => {
    expect(cleanName(raw)).toBe(expected);
  });
  it("counts days in UTC+8 (SPEC §9), oldest first", () => {
    expect(chinaDay(new Date("2026-06-03T15:59:59Z"))).toBe("2026-06-03");
    expect(chinaDay(new Date("2026-06-03T16:00:00Z"))).toBe("2026-06-04");
    const days = lastDays(new Date("2026-06-03T04:00:00Z"), 30);
    expect(days).toHaveLength(30);
    expect(days[0]).toBe("2026-05-05");
    expect(days[29]).toBe("2026-06-03");
  });
});

describe("upgradePrice (docs/decisions/039, capacity upgrades)", () => {
  const now = new Date("2026-11-23T00:00:00Z");
  const inDays = (d: number) => new Date(now.getTime() + d * 86_400_000);
  it.each([
    // from, to, days left → full period difference, difference paid now, days left
    [1, 10, 30, 220, 220, 30],
    [1, 10, 15, 220, 110, 15],
    [1, 10, 1, 220, 8, 1],
    [10, 50, 45, 750, 750, 30],
    [1, 10, 0, 220, 220, 0],
    [1, 10, -3, 220, 220, 0],
  ])("%i GB → %i GB with %i days left", (from, to, days, full, paid, left) => {
    expect(upgradePrice(from, to, inDays(days), now, tiers)).toEqual({
      fullPeriodDiffCents: full,
      priceDiffCents: paid,
      remainingDays: left,
    });
  });
  it("refuses a smaller, equal or unknown capacity", () => {
    expect(upgradePrice(10, 10, inDays(30), now, tiers)).toBeNull();
    expect(upgradePrice(10, 1, inDays(30), now, tiers)).toBeNull();
    expect(upgradePrice(1, 3, inDays(30), now, tiers)).toBeNull();
  });
});
