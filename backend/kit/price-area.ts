import type { PriceItem } from "#contract/prices.ts";
import type { Db, Tx } from "#backend/db/client.ts";

/**
 * One area of the operators' price catalogue (contract/prices.ts PRICE_AREAS; docs/decisions/073), as its owning
 * domain serves it through its `api`: the items with their prices, one item's prices locked for a change, and
 * the change written, inside the prices domain's transaction. Only the owning domain writes its table (ADR 051).
 */
export type PriceAreaStore = {
  items(q: Db | Tx): Promise<PriceItem[]>;
  /** The item's current prices, locked for the change; undefined when it does not exist. */
  lock(tx: Tx, itemId: number): Promise<Record<string, number> | undefined>;
  write(tx: Tx, itemId: number, prices: Record<string, number>): Promise<void>;
};

/** The named prices of a row, as the catalogue shows them. */
export const pricesOf = (row: Record<string, unknown>, fields: readonly string[]) =>
  fields.map((field) => ({ field, cents: Number(row[field]) }));

/** The named prices of a row, by field. */
export const pickPrices = (row: Record<string, unknown>, fields: readonly string[]) =>
  Object.fromEntries(fields.map((f) => [f, Number(row[f])]));

/** Only the fields of the area (the prices domain checks them first; a write never goes past them). */
export const onlyFields = (prices: Record<string, number>, fields: readonly string[]) =>
  Object.fromEntries(Object.entries(prices).filter(([f]) => fields.includes(f)));
