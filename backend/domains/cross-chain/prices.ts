import { asc, eq } from "drizzle-orm";
import { PRICE_AREAS } from "#contract/prices.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { feeItems } from "#backend/kit/fee-area.ts";
import type { PriceAreaStore } from "#backend/kit/price-area.ts";
import { crossChainFees } from "./tables.ts";

const [FIELD] = PRICE_AREAS.crossChainCall;

/** The price of one successful cross-chain call at the operators' price (docs/decisions/073). */
export async function callPriceCents(q: Db | Tx): Promise<number> {
  const [row] = await q
    .select({ cents: crossChainFees.cents })
    .from(crossChainFees)
    .where(eq(crossChainFees.code, "call"));
  return Number(row?.cents ?? 0);
}

/** The operators' price catalogue area `crossChainCall` (served through the domain's api). */
export const crossChainCallPrices: PriceAreaStore = {
  async items(q) {
    return feeItems(await q.select().from(crossChainFees).orderBy(asc(crossChainFees.id)), FIELD);
  },
  async lock(tx, itemId) {
    const [row] = await tx.select().from(crossChainFees).where(eq(crossChainFees.id, itemId)).for("update");
    return row ? { [FIELD]: Number(row.cents) } : undefined;
  },
  async write(tx, itemId, prices) {
    const cents = prices[FIELD];
    if (cents !== undefined) await tx.update(crossChainFees).set({ cents }).where(eq(crossChainFees.id, itemId));
  },
};
