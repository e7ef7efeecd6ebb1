/*
 * The price of a service's city nodes for one payment cycle (docs/decisions/011, 029): one formula for the
 * backend's cost (backend/domains/service-wizard/cost.ts) and the wizard's running total in the browser.
 * Zod-free, integer cents only.
 */

/** The catalogue prices of a city node (SPEC §3 City node), USD cents. */
export type NodePrices = { tpsPricePerMonthCents: number; tpsPricePerYearCents: number; capacityPricePerGbMonthCents: number };

/** §4 payment cycle: 1 yearly (12 months), 2 monthly. */
export const monthsOf = (cycle: 1 | 2) => (cycle === 1 ? 12 : 1);

/**
 * One node's cost for the cycle: TPS × the node's TPS price per month (monthly) or per year (yearly), plus
 * capacity GB × its price per GB-month × the months of the cycle. Bookkeeping nodes (peers) carry no price.
 */
export function nodeCycleCents(prices: NodePrices, tps: number, capacityGb: number, cycle: 1 | 2) {
  const tpsCents = tps * (cycle === 1 ? prices.tpsPricePerYearCents : prices.tpsPricePerMonthCents);
  const capacityCents = capacityGb * prices.capacityPricePerGbMonthCents * monthsOf(cycle);
  return { tpsCents, capacityCents, totalCents: tpsCents + capacityCents };
}

/** What a newly chosen node's inputs hold: within what every catalogue node offers. */
export const NODE_DEFAULTS = { tps: "100", capacityGb: "10", peers: "1" } as const;

/** A row of the nodes form as typed (strings; unchosen rows are ignored). */
export type NodeRowInput = { cityNodeId?: string; selected?: string; tps?: string; capacityGb?: string; peers?: string };

const whole = (v: string | undefined) => (v !== undefined && /^\s*[0-9]{1,9}\s*$/.test(v) ? Number(v) : null);

/**
 * The running total of the nodes form: each chosen row's cost (null while its TPS or capacity is not a
 * whole number yet) and the sum of the rows that have one; `complete` when every chosen row has a cost.
 */
export function runningTotal(rows: readonly (NodeRowInput | undefined)[], prices: ReadonlyMap<number, NodePrices>, cycle: 1 | 2) {
  const lines = new Map<number, number | null>();
  let totalCents = 0;
  let complete = true;
  let chosen = 0;
  for (const row of rows) {
    if (!row || row.selected !== "on") continue;
    const id = Number(row.cityNodeId);
    const node = prices.get(id);
    if (!node) continue;
    chosen += 1;
    const tps = whole(row.tps);
    const capacityGb = whole(row.capacityGb);
    if (tps === null || capacityGb === null) {
      lines.set(id, null);
      complete = false;
      continue;
    }
    const cents = nodeCycleCents(node, tps, capacityGb, cycle).totalCents;
    lines.set(id, cents);
    totalCents += cents;
  }
  return { lines, totalCents, complete, chosen };
}
