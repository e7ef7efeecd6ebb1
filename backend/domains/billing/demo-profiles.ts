import { type BillDetail } from "./tables.ts";
import { cityNodes } from "#backend/db/tables.ts";
import { addDays, DAY_MS } from "./time.ts";

/** The demo accounts' profiles and the small helpers of billing's demo records (./demo.ts). */
export type Node = typeof cityNodes.$inferSelect;
export type Profile = {
  grantCents: number;
  recharges: { daysAgo: number; cents: number; payType: string }[];
  /** Daily traffic in MB per node code around which the usage varies. */
  usage: Record<string, number>;
  /** The service the resource bills are for: TPS and capacity per node. */
  service: { name: string; appId: number; nodes: string[]; tps: number; capacityGb: number };
  extraBills: boolean;
  withdrawalCents: number;
};

export const PROFILES: Record<string, Profile> = {
  demoperson: {
    grantCents: 5_000,
    recharges: [
      { daysAgo: 58, cents: 30_000, payType: "GT0001" },
      { daysAgo: 12, cents: 20_000, payType: "GT0002" },
    ],
    usage: { "CN-BJ-01": 2_600, "CN-SH-01": 1_900, "HK-01": 1_200 },
    service: {
      name: "Campus credential ledger",
      appId: 1001,
      nodes: ["CN-BJ-01", "CN-SH-01", "HK-01"],
      tps: 20,
      capacityGb: 10,
    },
    extraBills: false,
    withdrawalCents: 0,
  },
  democompany: {
    grantCents: 20_000,
    recharges: [
      { daysAgo: 58, cents: 300_000, payType: "GT0002" },
      { daysAgo: 33, cents: 150_000, payType: "GT0003" },
      { daysAgo: 12, cents: 100_000, payType: "GT0004" },
    ],
    usage: { "CN-BJ-01": 9_800, "CN-SH-01": 7_400, "CN-GZ-01": 5_200, "SG-01": 3_100 },
    service: {
      name: "Supply chain traceability",
      appId: 2001,
      nodes: ["CN-BJ-01", "CN-SH-01", "CN-GZ-01"],
      tps: 100,
      capacityGb: 50,
    },
    extraBills: true,
    withdrawalCents: 25_000,
  },
};

export const ago = (now: Date, days: number, hours = 0) => new Date(now.getTime() - days * DAY_MS + hours * 3_600_000);

export function resources(nodes: Node[], codes: string[], tps: number, capacityGb: number, cycle: 1 | 2): BillDetail {
  const lines = codes.map((code) => {
    const n = nodes.find((x) => x.code === code)!;
    const monthly = tps * n.tpsPricePerMonthCents + capacityGb * n.capacityPricePerGbMonthCents;
    const yearly = tps * n.tpsPricePerYearCents + capacityGb * n.capacityPricePerGbMonthCents * 10;
    return {
      nodeCode: code,
      tps,
      capacityGb,
      peers: n.peers,
      monthlyPriceCents: monthly,
      yearlyPriceCents: yearly,
      amountCents: cycle === 1 ? yearly : monthly,
    };
  });
  // A consortium service spans city nodes of several clouds: its lines name each node; no one region or cloud.
  return { resources: lines, nodeCount: lines.length };
}

/** §9 "Withdrawal return 7 working days": Monday to Friday. */
export function addWorkingDays(day: string, n: number): string {
  let d = day;
  for (let left = n; left > 0;) {
    d = addDays(d, 1);
    const weekday = new Date(`${d}T00:00:00Z`).getUTCDay();
    if (weekday !== 0 && weekday !== 6) left -= 1;
  }
  return d;
}

export const sum = (d: BillDetail) =>
  [...(d.resources ?? []), ...(d.dataUsage ?? [])].reduce((s, l) => s + l.amountCents, 0);
