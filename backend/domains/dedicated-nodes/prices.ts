import { asc, eq } from "drizzle-orm";
import { PRICE_AREAS } from "#contract/prices.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { onlyFields, pickPrices, pricesOf, type PriceAreaStore } from "#backend/kit/price-area.ts";
import type { PriceBook } from "./rules.ts";
import { prnDataCapacities, prnFees, prnHostConfigs } from "./tables.ts";

/** The network's base fee row: the orderer, gateway and CA per month. */
const BASE = "base";

/**
 * The operators' prices of dedicated nodes (docs/decisions/073): host configurations, data capacities and the
 * network's base price, read by every quote, creation, upgrade and renewal (in the charge's transaction).
 */
export async function priceBook(q: Db | Tx): Promise<PriceBook> {
  const hosts = await q.select().from(prnHostConfigs).orderBy(asc(prnHostConfigs.id));
  const capacities = await q.select().from(prnDataCapacities).orderBy(asc(prnDataCapacities.gb));
  const [base] = await q.select().from(prnFees).where(eq(prnFees.code, BASE));
  return {
    hosts: hosts.map((h) => ({
      code: h.code,
      cpu: h.cpu,
      memoryGb: h.memoryGb,
      peerPricePerMonthCents: Number(h.peerPricePerMonthCents),
    })),
    capacities: capacities.map((c) => ({ gb: c.gb, pricePerMonthCents: Number(c.pricePerMonthCents) })),
    basePricePerMonthCents: Number(base?.cents ?? 0),
  };
}

const HOST = PRICE_AREAS.dedicatedHost;
const CAPACITY = PRICE_AREAS.dedicatedCapacity;
const FEE = PRICE_AREAS.dedicatedBase;

// Named as people read a host (issue 30 item 7: names, never codes such as "c2m4"), in the words of
// dedicatedNodes.json's hostConfig.
const hostName = (h: { cpu: number; memoryGb: number }) => `${h.cpu} vCPU, ${h.memoryGb} GB memory`;
const hostNameZh = (h: { cpu: number; memoryGb: number }) => `${h.cpu} 核 vCPU，${h.memoryGb} GB 内存`;

export const dedicatedHostPrices: PriceAreaStore = {
  async items(q) {
    const rows = await q.select().from(prnHostConfigs).orderBy(asc(prnHostConfigs.id));
    return rows.map((r) => ({ itemId: r.id, name: hostName(r), nameZh: hostNameZh(r), prices: pricesOf(r, HOST) }));
  },
  async lock(tx, itemId) {
    const [row] = await tx.select().from(prnHostConfigs).where(eq(prnHostConfigs.id, itemId)).for("update");
    return row ? pickPrices(row, HOST) : undefined;
  },
  async write(tx, itemId, prices) {
    await tx.update(prnHostConfigs).set(onlyFields(prices, HOST)).where(eq(prnHostConfigs.id, itemId));
  },
};

export const dedicatedCapacityPrices: PriceAreaStore = {
  async items(q) {
    const rows = await q.select().from(prnDataCapacities).orderBy(asc(prnDataCapacities.gb));
    return rows.map((r) => ({ itemId: r.id, name: `${r.gb} GB`, nameZh: `${r.gb} GB`, prices: pricesOf(r, CAPACITY) }));
  },
  async lock(tx, itemId) {
    const [row] = await tx.select().from(prnDataCapacities).where(eq(prnDataCapacities.id, itemId)).for("update");
    return row ? pickPrices(row, CAPACITY) : undefined;
  },
  async write(tx, itemId, prices) {
    await tx.update(prnDataCapacities).set(onlyFields(prices, CAPACITY)).where(eq(prnDataCapacities.id, itemId));
  },
};

/** The fee table's one amount (`cents`) is the area's one field. */
const feeAsPrices = (row: { cents: number }) => ({ [FEE[0]]: Number(row.cents) });

export const dedicatedBasePrices: PriceAreaStore = {
  async items(q) {
    const rows = await q.select().from(prnFees).orderBy(asc(prnFees.id));
    return rows.map((r) => ({
      itemId: r.id,
      name: r.name,
      nameZh: r.nameZh,
      prices: [{ field: FEE[0], cents: Number(r.cents) }],
    }));
  },
  async lock(tx, itemId) {
    const [row] = await tx.select().from(prnFees).where(eq(prnFees.id, itemId)).for("update");
    return row ? feeAsPrices(row) : undefined;
  },
  async write(tx, itemId, prices) {
    const cents = prices[FEE[0]];
    if (cents !== undefined) await tx.update(prnFees).set({ cents }).where(eq(prnFees.id, itemId));
  },
};
