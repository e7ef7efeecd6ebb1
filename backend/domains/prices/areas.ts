import { asc, eq } from "drizzle-orm";
import { PRICE_AREAS, type PriceArea, type PriceItem } from "#contract/prices.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { cityNodes } from "#backend/db/tables.ts";
import { pubChainOrgs } from "#backend/domains/public-chain/tables.ts";
import platform from "#backend/domains/platform/index.ts";
import publicChain from "#backend/domains/public-chain/index.ts";

/**
 * The priced areas (contract/prices.ts PRICE_AREAS): how each lists its items and writes one item's prices.
 * A later area (IPFS, cross-chain calls, DDC) adds its fields to PRICE_AREAS and one entry here.
 */
type Q = Db | Tx;
export type AreaStore = {
  items(q: Q): Promise<PriceItem[]>;
  /** The item's current prices, locked for the change; undefined when it does not exist. */
  lock(tx: Tx, itemId: number): Promise<Record<string, number> | undefined>;
  write(tx: Tx, itemId: number, prices: Record<string, number>): Promise<void>;
};

const pick = (row: Record<string, unknown>, fields: readonly string[]) =>
  Object.fromEntries(fields.map((f) => [f, Number(row[f])]));
const asPrices = (row: Record<string, unknown>, fields: readonly string[]) =>
  fields.map((field) => ({ field, cents: Number(row[field]) }));

const cityNode: AreaStore = {
  async items(q) {
    const rows = await q.select().from(cityNodes).orderBy(asc(cityNodes.id));
    return rows.map((r) => ({
      itemId: r.id,
      name: r.name,
      nameZh: r.nameZh,
      prices: asPrices(r, PRICE_AREAS.cityNode),
    }));
  },
  async lock(tx, itemId) {
    const [row] = await tx.select().from(cityNodes).where(eq(cityNodes.id, itemId)).for("update");
    return row ? pick(row, PRICE_AREAS.cityNode) : undefined;
  },
  async write(tx, itemId, prices) {
    // Inside the price change's transaction; setPrices clears the kept catalogue once it has committed.
    await platform.api.setCityNodePrices(tx, itemId, prices);
  },
};

const publicChainPlan: AreaStore = {
  async items(q) {
    const rows = await q.select().from(pubChainOrgs).orderBy(asc(pubChainOrgs.id));
    return rows.map((r) => ({
      itemId: r.id,
      name: r.planName,
      nameZh: r.planNameZh,
      prices: asPrices(r, PRICE_AREAS.publicChainPlan),
    }));
  },
  async lock(tx, itemId) {
    const [row] = await tx.select().from(pubChainOrgs).where(eq(pubChainOrgs.id, itemId)).for("update");
    return row ? pick(row, PRICE_AREAS.publicChainPlan) : undefined;
  },
  async write(tx, itemId, prices) {
    await publicChain.api.setPlanPrices(tx, itemId, prices);
  },
};

export const AREA_STORES: Record<PriceArea, AreaStore> = { cityNode, publicChainPlan };
