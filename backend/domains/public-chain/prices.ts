import { asc, eq } from "drizzle-orm";
import { PRICE_AREAS } from "#contract/prices.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { feeItems } from "#backend/kit/fee-area.ts";
import { pickPrices, pricesOf, type PriceAreaStore } from "#backend/kit/price-area.ts";
import { setPlanPrices } from "./catalogue.ts";
import { pubChainFees, pubChainOrgs } from "./tables.ts";

const [COIN] = PRICE_AREAS.gasRate;
const PLAN = PRICE_AREAS.publicChainPlan;

/** The gas rate: the price of one coin (10^18 wei) of gas in USD cents, never 0 (docs/decisions/073). */
export async function coinPriceCents(q: Db | Tx): Promise<number> {
  const [row] = await q.select({ cents: pubChainFees.cents }).from(pubChainFees).where(eq(pubChainFees.code, "coin"));
  return Math.max(1, Number(row?.cents ?? 0));
}

/** The operators' price catalogue area `publicChainPlan`: an organisation node's plan. */
export const publicChainPlanPrices: PriceAreaStore = {
  async items(q) {
    const rows = await q.select().from(pubChainOrgs).orderBy(asc(pubChainOrgs.id));
    return rows.map((r) => ({ itemId: r.id, name: r.planName, nameZh: r.planNameZh, prices: pricesOf(r, PLAN) }));
  },
  async lock(tx, itemId) {
    const [row] = await tx.select().from(pubChainOrgs).where(eq(pubChainOrgs.id, itemId)).for("update");
    return row ? pickPrices(row, PLAN) : undefined;
  },
  async write(tx, itemId, prices) {
    if (prices.priceCents !== undefined) await setPlanPrices(tx, itemId, { priceCents: prices.priceCents });
  },
};

/** The operators' price catalogue area `gasRate`: the price of a coin of gas. */
export const gasRatePrices: PriceAreaStore = {
  async items(q) {
    return feeItems(await q.select().from(pubChainFees).orderBy(asc(pubChainFees.id)), COIN);
  },
  async lock(tx, itemId) {
    const [row] = await tx.select().from(pubChainFees).where(eq(pubChainFees.id, itemId)).for("update");
    return row ? { [COIN]: Number(row.cents) } : undefined;
  },
  async write(tx, itemId, prices) {
    const cents = prices[COIN];
    // A rate divides by it: 0 is refused by the contract, and never written.
    if (cents !== undefined && cents > 0)
      await tx.update(pubChainFees).set({ cents }).where(eq(pubChainFees.id, itemId));
  },
};
