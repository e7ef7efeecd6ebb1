/*
 * The price of a service's city nodes for one payment cycle (docs/decisions/011, 029): one formula for the
 * backend's cost (backend/domains/service-wizard/cost.ts) and the wizard's running total in the browser.
 * Zod-free, integer cents only.
 */

/** The catalogue prices of a city node (SPEC §3 City node), USD cents. */
export type NodePrices = {
  tpsPricePerMonthCents: number;
  tpsPricePerYearCents: number;
  capacityPricePerGbMonthCents: number;
  /** The price of one bookkeeping node (peer) per month; operators may set it (docs/decisions/036). */
  peerPricePerMonthCents?: number;
};

/** §4 payment cycle: 1 yearly (12 months), 2 monthly, 99 weekly (7/30 of a month, docs/decisions/036). */
export const monthsOf = (cycle: 1 | 2 | 99) => (cycle === 1 ? 12 : 1);

/** A monthly amount for one cycle: × 12 yearly, as is monthly, 7/30 of it (rounded up) weekly. */
const perCycle = (monthlyCents: number, cycle: 1 | 2 | 99) =>
  cycle === 99 ? Math.ceil((monthlyCents * 7) / 30) : monthlyCents * monthsOf(cycle);

/**
 * One node's cost for the cycle: TPS × the node's TPS price per month (monthly, weekly pro rata) or per year
 * (yearly), plus capacity GB × its price per GB-month, plus bookkeeping nodes × the peer price per month,
 * both × the months of the cycle. The one cost formula of the wizard, config upgrades and renewals.
 */
export function nodeCycleCents(prices: NodePrices, tps: number, capacityGb: number, cycle: 1 | 2 | 99, peers = 0) {
  const tpsCents =
    cycle === 1 ? tps * prices.tpsPricePerYearCents : perCycle(tps * prices.tpsPricePerMonthCents, cycle);
  const capacityCents = perCycle(capacityGb * prices.capacityPricePerGbMonthCents, cycle);
  const peerCents = perCycle(peers * (prices.peerPricePerMonthCents ?? 0), cycle);
  return { tpsCents, capacityCents, peerCents, totalCents: tpsCents + capacityCents + peerCents };
}

/** The cost of a whole configuration for one cycle (nodes the catalogue does not list cost nothing). */
export function configCycleCents(
  nodes: readonly { cityNodeId: number; tps: number; capacityGb: number; peers: number }[],
  prices: ReadonlyMap<number, NodePrices>,
  cycle: 1 | 2 | 99,
) {
  let total = 0;
  for (const n of nodes) {
    const p = prices.get(n.cityNodeId);
    if (p) total += nodeCycleCents(p, n.tps, n.capacityGb, cycle, n.peers).totalCents;
  }
  return total;
}

/** What a newly chosen node's inputs hold: within what every catalogue node offers. */
export const NODE_DEFAULTS = { tps: "100", capacityGb: "10", peers: "1" } as const;

/** A row of the nodes form as typed (strings; unchosen rows are ignored). */
export type NodeRowInput = {
  cityNodeId?: string;
  selected?: string;
  tps?: string;
  capacityGb?: string;
  peers?: string;
};

const whole = (v: string | undefined) => (v !== undefined && /^\s*[0-9]{1,9}\s*$/.test(v) ? Number(v) : null);

/**
 * The running total of the nodes form: each chosen row's cost (null while its TPS or capacity is not a
 * whole number yet) and the sum of the rows that have one; `complete` when every chosen row has a cost.
 */
export function runningTotal(
  rows: readonly (NodeRowInput | undefined)[],
  prices: ReadonlyMap<number, NodePrices>,
  cycle: 1 | 2,
) {
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
    const cents = nodeCycleCents(node, tps, capacityGb, cycle, whole(row.peers) ?? 0).totalCents;
    lines.set(id, cents);
    totalCents += cents;
  }
  return { lines, totalCents, complete, chosen };
}
