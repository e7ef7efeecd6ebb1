import { asc, eq } from "drizzle-orm";
import { PRICE_AREAS, type PriceArea } from "#contract/prices.ts";
import { cityNodes } from "#backend/db/tables.ts";
import { pickPrices, pricesOf, type PriceAreaStore } from "#backend/kit/price-area.ts";
import crossChain from "#backend/domains/cross-chain/index.ts";
import ddc from "#backend/domains/ddc/index.ts";
import dedicatedNodes from "#backend/domains/dedicated-nodes/index.ts";
import ipfs from "#backend/domains/ipfs/index.ts";
import platform from "#backend/domains/platform/index.ts";
import publicChain from "#backend/domains/public-chain/index.ts";

/**
 * The priced areas (contract/prices.ts PRICE_AREAS; docs/decisions/073): how each lists its items and writes one
 * item's prices. Each area's prices live in its owning domain's table and are written only through that
 * domain's api (ADR 051), inside the price change's transaction.
 */
export type AreaStore = PriceAreaStore;

const cityNode: AreaStore = {
  async items(q) {
    const rows = await q.select().from(cityNodes).orderBy(asc(cityNodes.id));
    return rows.map((r) => ({
      itemId: r.id,
      name: r.name,
      nameZh: r.nameZh,
      prices: pricesOf(r, PRICE_AREAS.cityNode),
    }));
  },
  async lock(tx, itemId) {
    const [row] = await tx.select().from(cityNodes).where(eq(cityNodes.id, itemId)).for("update");
    return row ? pickPrices(row, PRICE_AREAS.cityNode) : undefined;
  },
  async write(tx, itemId, prices) {
    // Inside the price change's transaction; setPrices clears the kept catalogue once it has committed.
    await platform.api.setCityNodePrices(tx, itemId, prices);
  },
};

export const AREA_STORES: Record<PriceArea, AreaStore> = {
  cityNode,
  publicChainPlan: publicChain.api.priceAreas.publicChainPlan,
  ipfsCapacity: ipfs.api.priceAreas.ipfsCapacity,
  dedicatedHost: dedicatedNodes.api.priceAreas.dedicatedHost,
  dedicatedCapacity: dedicatedNodes.api.priceAreas.dedicatedCapacity,
  dedicatedBase: dedicatedNodes.api.priceAreas.dedicatedBase,
  crossChainCall: crossChain.api.priceAreas.crossChainCall,
  ddcFee: ddc.api.priceAreas.ddcFee,
  gasRate: publicChain.api.priceAreas.gasRate,
};
