import { nodeCycleCents } from "#contract/service-cost.ts";
import type { Cost } from "#contract/service-wizard.ts";

/** The catalogue prices of a city node (SPEC §3 City node), USD cents. */
export type PricedNode = {
  id: number;
  name: string;
  nameZh: string;
  tpsPricePerMonthCents: number;
  tpsPricePerYearCents: number;
  capacityPricePerGbMonthCents: number;
  peerPricePerMonthCents?: number;
};

export type BookedNode = { cityNodeId: number; tps: number; capacityGb: number; peers: number };

/**
 * The cost of one payment cycle of a service, per chosen city node and in total (docs/decisions/011):
 * TPS × the node's TPS unit price per month (monthly) or per year (yearly), plus capacity GB × the node's
 * price per GB-month × the months of the cycle, plus bookkeeping nodes × the node's peer price per month
 * (0 in the seeded catalogue; operators may set it, docs/decisions/036). Integer cents only.
 * A free service (§1, one per account) still shows its cost, but `free` says nothing will be billed.
 */
export function computeCost(
  nodes: BookedNode[],
  catalogue: Map<number, PricedNode>,
  cycle: 1 | 2,
  free: boolean,
): Cost {
  const lines = nodes.flatMap((n) => {
    const node = catalogue.get(n.cityNodeId);
    if (!node) return [];
    const { tpsCents, capacityCents, totalCents } = nodeCycleCents(node, n.tps, n.capacityGb, cycle, n.peers);
    return [
      {
        cityNodeId: n.cityNodeId,
        name: node.name,
        nameZh: node.nameZh,
        tps: n.tps,
        capacityGb: n.capacityGb,
        peers: n.peers,
        tpsCents,
        capacityCents,
        totalCents,
      },
    ];
  });
  return { paymentCycle: cycle, lines, totalCents: lines.reduce((sum, l) => sum + l.totalCents, 0), free };
}
