import { asc, eq } from "drizzle-orm";
import type { DdcFee } from "#contract/ddc-codes.ts";
import { PRICE_AREAS } from "#contract/prices.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { feeItems } from "#backend/kit/fee-area.ts";
import type { PriceAreaStore } from "#backend/kit/price-area.ts";
import { ddcFees } from "./tables.ts";

const [FIELD] = PRICE_AREAS.ddcFee;

/** A DDC service fee (mint, transfer) at the operators' price (docs/decisions/073). */
export async function ddcFeeCents(q: Db | Tx, code: (typeof DdcFee)[keyof typeof DdcFee]): Promise<number> {
  const [row] = await q.select({ cents: ddcFees.cents }).from(ddcFees).where(eq(ddcFees.code, code));
  return Number(row?.cents ?? 0);
}

/** The operators' price catalogue area `ddcFee` (served through the domain's api). */
export const ddcFeePrices: PriceAreaStore = {
  async items(q) {
    return feeItems(await q.select().from(ddcFees).orderBy(asc(ddcFees.id)), FIELD);
  },
  async lock(tx, itemId) {
    const [row] = await tx.select().from(ddcFees).where(eq(ddcFees.id, itemId)).for("update");
    return row ? { [FIELD]: Number(row.cents) } : undefined;
  },
  async write(tx, itemId, prices) {
    const cents = prices[FIELD];
    if (cents !== undefined) await tx.update(ddcFees).set({ cents }).where(eq(ddcFees.id, itemId));
  },
};
