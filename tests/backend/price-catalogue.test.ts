import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { Msg } from "#contract/messages.ts";
import { weiForCents } from "#contract/public-chain-codes.ts";
import crossChain from "#backend/domains/cross-chain/index.ts";
import { callPriceCents } from "#backend/domains/cross-chain/prices.ts";
import { coinPriceCents } from "#backend/domains/public-chain/prices.ts";
import { callVueapi, inProcessVueapi, insertedUser, ownDatabase, sessionOf } from "./in-process.ts";

/**
 * Every priced item in the operators' catalogue (issue 31 item 6; docs/decisions/073): for each area that was a
 * code constant, an operator changes a price, the next quote reads it, the change is in the history and the
 * audit log; a user is refused; a negative, fractional or (for the gas rate) zero amount is refused at its field
 * with a key both locales translate. Every price is put back at the end.
 */
const service = inProcessVueapi("price-catalogue", {
  // On the suite's PostgreSQL, a database of its own (prices it changes are not the shared server's).
  DATABASE_URL: await ownDatabase(process.env.DATABASE_URL),
  PAYMENT_WEBHOOK_SECRET: "backend-test-webhook-secret",
});
const post = (p: string, body: object, token?: string) => callVueapi(service, p, body, token);

type Item = { itemId: number; name: string; prices: { field: string; cents: number }[] };
const forms = (lang: string) => JSON.parse(readFileSync(`locales/${lang}/forms.json`, "utf8"));
const translated = (key: string) =>
  ["en", "zh-CN"].every((lang) => typeof key.split(".").reduce((o, k) => o?.[k], forms(lang)) === "string");

async function itemOf(op: string, area: string, name: string) {
  const list = await post("/sys/ops/prices/list", {}, op);
  expect(list.code, JSON.stringify(list)).toBe(0);
  const items = list.data.areas.find((a: { area: string }) => a.area === area).items as Item[];
  const item = items.find((i) => i.name === name);
  expect(item, `${area}: ${items.map((i) => i.name).join(", ")}`).toBeDefined();
  return { itemId: item!.itemId, field: item!.prices[0].field, cents: item!.prices[0].cents };
}

const quoteOf = async (token: string, hostConfig: string, dataCapacityGb: number) =>
  (await post("/sys/prn/quote", { nodeCount: 2, hostConfig, dataCapacityGb, cycle: 2 }, token)).data.monthCents;

/** Each new area: the item changed, its seeded price, and the next quote as the user sees it. */
const CASES: { area: string; item: string; seeded: number; quote: (user: string) => Promise<number> }[] = [
  {
    area: "ipfsCapacity",
    item: "10 GB",
    seeded: 25,
    quote: async (user) =>
      (await post("/sys/ipfsBusiness/ipfs/getIpfsPrice", { storeUnit: 10 }, user)).data.priceCents / 10,
  },
  {
    area: "dedicatedHost",
    item: "4 vCPU, 8 GB memory",
    seeded: 5500,
    // A month of 2 peers on c4m8 with 20 GB: the base, then per peer the host and the capacity.
    quote: async (user) => ((await quoteOf(user, "c4m8", 20)) - 2000 - 2 * 400) / 2,
  },
  {
    area: "dedicatedCapacity",
    item: "50 GB",
    seeded: 900,
    quote: async (user) => ((await quoteOf(user, "c2m4", 50)) - 2000 - 2 * 3000) / 2,
  },
  {
    area: "dedicatedBase",
    item: "Orderer, gateway and CA of a network",
    seeded: 2000,
    quote: async (user) => (await quoteOf(user, "c2m4", 20)) - 2 * (3000 + 400),
  },
  {
    area: "crossChainCall",
    item: "A successful cross-chain call",
    seeded: 1,
    // The fee the relayer records on the next delivered call (read where it is recorded).
    quote: async () => callPriceCents(service.services.db),
  },
  {
    area: "ddcFee",
    item: "Minting a DDC",
    seeded: 10,
    quote: async (user) => (await post("/sys/ddc/options", {}, user)).data.mintFeeCents,
  },
  {
    area: "ddcFee",
    item: "Transferring a DDC",
    seeded: 5,
    quote: async (user) => (await post("/sys/ddc/options", {}, user)).data.transferFeeCents,
  },
  {
    area: "gasRate",
    item: "Gas: one coin (10^18 wei)",
    seeded: 10_000,
    // What the next assignment buys: a cent at 100 USD a coin is 10^14 wei.
    quote: async () => coinPriceCents(service.services.db),
  },
];

describe("every priced item in the operators' catalogue", () => {
  it.each(CASES)("$area · $item: changed, quoted, kept in the history and audited", async (c) => {
    const name = `pc${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
    const op = await sessionOf(service, await insertedUser(service, name, "operator"));
    const user = await sessionOf(service, await insertedUser(service, `${name}u`));
    const item = await itemOf(op, c.area, c.item);
    expect(item.cents).toBe(c.seeded);
    expect(await c.quote(user)).toBe(c.seeded);

    const raised = c.seeded + 3;
    const set = await post(
      "/sys/ops/prices/set",
      { area: c.area, itemId: item.itemId, prices: { [item.field]: raised } },
      op,
    );
    try {
      expect(set, JSON.stringify(set)).toMatchObject({ code: 0, data: { changed: 1 } });
      expect(await c.quote(user)).toBe(raised);
      const history = await post("/sys/ops/prices/history", { pageIndex: 1, pageSize: 5 }, op);
      expect(history.data.page.rows[0]).toMatchObject({
        area: c.area,
        itemId: item.itemId,
        itemName: c.item,
        field: item.field,
        oldCents: c.seeded,
        newCents: raised,
        author: name,
      });
      const audit = await post(
        "/sys/ops/audit/list",
        { actor: name, action: "price.change", pageIndex: 1, pageSize: 5 },
        op,
      );
      expect(audit.data.page.total).toBe(1);
      expect(audit.data.page.rows[0]).toMatchObject({ targetId: String(item.itemId), decision: "set" });
    } finally {
      await post("/sys/ops/prices/set", { area: c.area, itemId: item.itemId, prices: { [item.field]: c.seeded } }, op);
    }
    expect(await c.quote(user)).toBe(c.seeded);
  });

  it("a user is refused; a negative, fractional or zero-rate amount is refused at its field, translated", async () => {
    const name = `pr${Date.now().toString(36)}`;
    const op = await sessionOf(service, await insertedUser(service, name, "operator"));
    const user = await sessionOf(service, await insertedUser(service, `${name}u`));
    const areas = [...new Set(CASES.map((c) => c.area))];
    for (const area of areas) {
      const item = await itemOf(op, area, CASES.find((c) => c.area === area)!.item);
      const as = (token: string, cents: number) =>
        post("/sys/ops/prices/set", { area, itemId: item.itemId, prices: { [item.field]: cents } }, token);
      const refused = await as(user, item.cents + 1);
      expect(refused.code, `${area} by a user`).not.toBe(0);
      expect(refused.message).not.toBe(Msg.INVALID_PARAMS);
      for (const bad of [-1, 1.5]) {
        const answer = await as(op, bad);
        expect(answer.message, `${area} ${bad}`).toBe(Msg.INVALID_PARAMS);
        const keys = answer.data.fieldErrors[`prices.${item.field}`] as string[];
        expect(keys).toEqual(["validation.amount.format"]);
        expect(keys.every(translated)).toBe(true);
      }
      expect((await itemOf(op, area, CASES.find((c) => c.area === area)!.item)).cents).toBe(item.cents);
    }
    const gas = await itemOf(op, "gasRate", "Gas: one coin (10^18 wei)");
    const zero = await post(
      "/sys/ops/prices/set",
      { area: "gasRate", itemId: gas.itemId, prices: { coinPriceCents: 0 } },
      op,
    );
    expect(zero.message).toBe(Msg.INVALID_PARAMS);
    expect(zero.data.fieldErrors["prices.coinPriceCents"]).toEqual(["validation.amount.positive"]);
    expect(translated("validation.amount.positive")).toBe(true);
    expect(weiForCents(1, await coinPriceCents(service.services.db))).toBe(10n ** 14n);
    // The domains serve their areas through their api (ADR 051), not through their tables.
    expect(typeof crossChain.api.priceAreas.crossChainCall.write).toBe("function");
  });
});
