import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  POSITIVE_PRICE_FIELDS,
  PRICE_AREA_NAMES,
  PRICE_AREAS,
  PRICE_FIELDS,
  priceFormSchema,
  pricePaths,
} from "#contract/prices.ts";

/** The operators' price catalogue (contract/prices.ts; docs/decisions/036, 073): its areas, fields and rules. */
const locale = (lang: string) => JSON.parse(readFileSync(`locales/${lang}/configuration.json`, "utf8")).prices;

describe("PRICE_AREAS", () => {
  it.each([
    [
      "cityNode",
      [
        "tpsPricePerMonthCents",
        "tpsPricePerYearCents",
        "capacityPricePerGbMonthCents",
        "trafficPricePerGbCents",
        "peerPricePerMonthCents",
      ],
    ],
    ["publicChainPlan", ["priceCents"]],
    ["ipfsCapacity", ["unitPriceCents"]],
    ["dedicatedHost", ["peerPricePerMonthCents"]],
    ["dedicatedCapacity", ["pricePerMonthCents"]],
    ["dedicatedBase", ["pricePerMonthCents"]],
    ["crossChainCall", ["feeCents"]],
    ["ddcFee", ["feeCents"]],
    ["gasRate", ["coinPriceCents"]],
  ] as const)("%s has the fields %j", (area, fields) => {
    expect(PRICE_AREAS[area]).toEqual(fields);
  });
  it("lists every area once, in the page's order", () => {
    expect(PRICE_AREA_NAMES).toEqual(Object.keys(PRICE_AREAS));
    expect(PRICE_AREA_NAMES).toHaveLength(9);
  });
  it.each(["en", "zh-CN"])("names every area and field in %s", (lang) => {
    const prices = locale(lang);
    for (const area of PRICE_AREA_NAMES) expect(prices.areas[area], area).toMatch(/\S/);
    for (const field of PRICE_FIELDS) expect(prices.fields[field], field).toMatch(/\S/);
  });
  it("only the gas rate may not be 0", () => expect(POSITIVE_PRICE_FIELDS).toEqual(["coinPriceCents"]));
});

describe("the price form and the set payload", () => {
  const form = (area: string, field: string, typed: string) =>
    priceFormSchema.safeParse({ area, itemId: "3", prices: { [field]: typed } });
  const set = (area: string, field: string, cents: number) =>
    pricePaths["/sys/ops/prices/set"].payload.safeParse({ area, itemId: 3, prices: { [field]: cents } });
  const messages = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
    r.success ? [] : r.error!.issues.map((i) => i.message);

  it.each([
    ["ipfsCapacity", "unitPriceCents", "0.26", []],
    ["dedicatedBase", "pricePerMonthCents", "0", []],
    ["ddcFee", "feeCents", "-1", ["validation.amount.format"]],
    ["ddcFee", "feeCents", "0.105", ["validation.amount.format"]],
    // Empty: required, and not an amount either (as the form has always said).
    ["crossChainCall", "feeCents", "", ["validation.amount.required", "validation.amount.format"]],
    ["dedicatedHost", "peerPricePerMonthCents", "1000000.01", ["validation.amount.max"]],
    ["gasRate", "coinPriceCents", "0", ["validation.amount.positive"]],
    ["gasRate", "coinPriceCents", "100", []],
  ] as const)("form %s.%s typed %j → %j", (area, field, typed, expected) => {
    expect(messages(form(area, field, typed))).toEqual(expected);
  });

  it.each([
    ["ipfsCapacity", "unitPriceCents", 26, []],
    ["ddcFee", "feeCents", -1, ["validation.amount.format"]],
    ["ddcFee", "feeCents", 1.5, ["validation.amount.format"]],
    ["dedicatedCapacity", "pricePerMonthCents", 100_000_001, ["validation.amount.max"]],
    ["gasRate", "coinPriceCents", 0, ["validation.amount.positive"]],
    ["cityNode", "peerPricePerMonthCents", 0, []],
  ] as const)("payload %s.%s = %d → %j", (area, field, cents, expected) => {
    expect(messages(set(area, field, cents))).toEqual(expected);
  });
});
