import { asc, eq } from "drizzle-orm";
import { PRICE_AREAS } from "#contract/prices.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { onlyFields, pickPrices, pricesOf, type PriceAreaStore } from "#backend/kit/price-area.ts";
import { ipfsCapacities } from "./tables.ts";

/** A capacity offered (GB) and the monthly price of a GB at that size. */
export type CapacityTier = { storeUnit: number; unitPriceCents: number };

/** The capacities offered, smallest first, at the operators' prices (docs/decisions/073). */
export async function capacityTiers(q: Db | Tx): Promise<CapacityTier[]> {
  const rows = await q.select().from(ipfsCapacities).orderBy(asc(ipfsCapacities.storeUnit));
  return rows.map((r) => ({ storeUnit: r.storeUnit, unitPriceCents: Number(r.unitPriceCents) }));
}

export const capacityLabel = (storeUnit: number) =>
  storeUnit >= 1024 && storeUnit % 1024 === 0 ? `${storeUnit / 1024} TB` : `${storeUnit} GB`;

const FIELDS = PRICE_AREAS.ipfsCapacity;

/** The operators' price catalogue area `ipfsCapacity` (served through the domain's api). */
export const ipfsCapacityPrices: PriceAreaStore = {
  async items(q) {
    const rows = await q.select().from(ipfsCapacities).orderBy(asc(ipfsCapacities.storeUnit));
    return rows.map((r) => ({
      itemId: r.id,
      name: capacityLabel(r.storeUnit),
      nameZh: capacityLabel(r.storeUnit),
      prices: pricesOf(r, FIELDS),
    }));
  },
  async lock(tx, itemId) {
    const [row] = await tx.select().from(ipfsCapacities).where(eq(ipfsCapacities.id, itemId)).for("update");
    return row ? pickPrices(row, FIELDS) : undefined;
  },
  async write(tx, itemId, prices) {
    await tx.update(ipfsCapacities).set(onlyFields(prices, FIELDS)).where(eq(ipfsCapacities.id, itemId));
  },
};
