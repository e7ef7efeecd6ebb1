import type { PriceItem } from "#contract/prices.ts";

/**
 * A fee table's rows (backend/db/fee-columns.ts) as catalogue items: the one amount, `cents`, shown under the
 * area's one field (docs/decisions/073).
 */
export const feeItems = (
  rows: readonly { id: number; name: string; nameZh: string; cents: number }[],
  field: string,
): PriceItem[] =>
  rows.map((r) => ({ itemId: r.id, name: r.name, nameZh: r.nameZh, prices: [{ field, cents: Number(r.cents) }] }));
