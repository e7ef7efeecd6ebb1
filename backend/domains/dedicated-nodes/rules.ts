import {
  PRN_NAME_RE,
  PRN_PASSWORD_RE,
  PRN_PEERS_MAX,
  PRN_PEERS_MIN,
  PRN_YEAR_MONTHS,
  PrnUpdateType,
  prnCycleDays,
  type PrnUpdateTypeValue,
} from "#contract/dedicated-nodes-codes.ts";

/** Pure rules of dedicated nodes (docs/decisions/047): names, passwords, prices, prorating, upgrade values. */

const DAY_MS = 86_400_000;

export const isProjectName = (name: string) => PRN_NAME_RE.test(name);
export const isProjectPassword = (password: string) => PRN_PASSWORD_RE.test(password);

export type Configuration = { nodeCount: number; hostConfig: string; dataCapacityGb: number };

/** The operators' prices (the domain's price tables, docs/decisions/073), read once per quote or charge. */
export type PriceBook = {
  hosts: readonly { code: string; cpu: number; memoryGb: number; peerPricePerMonthCents: number }[];
  capacities: readonly { gb: number; pricePerMonthCents: number }[];
  basePricePerMonthCents: number;
};

export const hostConfigOf = (code: string, book: PriceBook) => book.hosts.find((h) => h.code === code) ?? null;
export const dataCapacityOf = (gb: number, book: PriceBook) => book.capacities.find((d) => d.gb === gb) ?? null;

/** One month of a configuration: the orderer, gateway and CA, plus each peer's host and data capacity. Null for an unknown value. */
export function monthCents(config: Configuration, book: PriceBook): number | null {
  const host = hostConfigOf(config.hostConfig, book);
  const data = dataCapacityOf(config.dataCapacityGb, book);
  if (
    !host ||
    !data ||
    !Number.isInteger(config.nodeCount) ||
    config.nodeCount < PRN_PEERS_MIN ||
    config.nodeCount > PRN_PEERS_MAX
  )
    return null;
  return book.basePricePerMonthCents + config.nodeCount * (host.peerPricePerMonthCents + data.pricePerMonthCents);
}

/** The price of one period: a month (cycle 2) or a year of ten months (cycle 1). */
export function periodCents(config: Configuration, cycle: number, book: PriceBook): number | null {
  const month = monthCents(config, book);
  if (month === null) return null;
  return cycle === 1 ? month * PRN_YEAR_MONTHS : month;
}

/** Whole days left of a period ending at `periodEnd` (0 once ended), rounded up. */
export function remainingDays(periodEnd: Date, now: Date): number {
  return Math.max(0, Math.ceil((periodEnd.getTime() - now.getTime()) / DAY_MS));
}

/**
 * The difference an upgrade costs now: the full period's difference prorated on the days left of the period
 * (rounded up to the cent), never negative (nothing is refunded for a smaller host configuration).
 */
export function upgradeDiffCents(
  from: Configuration,
  to: Configuration,
  cycle: number,
  periodEnd: Date,
  now: Date,
  book: PriceBook,
) {
  const before = periodCents(from, cycle, book);
  const after = periodCents(to, cycle, book);
  if (before === null || after === null) return null;
  const full = Math.max(0, after - before);
  const days = remainingDays(periodEnd, now);
  const periodDays = prnCycleDays(cycle);
  return {
    fullPeriodDiffCents: full,
    priceDiffCents: Math.ceil((full * Math.min(days, periodDays)) / periodDays),
    remainingDays: days,
    periodDays,
  };
}

/** The configuration after an upgrade of `type` to the text `toValue`, or null when the value is not one of the lists. */
export function applyUpgrade(
  config: Configuration,
  type: PrnUpdateTypeValue,
  toValue: string,
  book: PriceBook,
): Configuration | null {
  if (type === PrnUpdateType.NODE_COUNT) {
    if (!/^[0-9]{1,2}$/.test(toValue)) return null;
    const n = Number(toValue);
    return n >= PRN_PEERS_MIN && n <= PRN_PEERS_MAX ? { ...config, nodeCount: n } : null;
  }
  if (type === PrnUpdateType.HOST_CONFIG)
    return hostConfigOf(toValue, book) ? { ...config, hostConfig: toValue } : null;
  if (!/^[0-9]{1,5}$/.test(toValue)) return null;
  return dataCapacityOf(Number(toValue), book) ? { ...config, dataCapacityGb: Number(toValue) } : null;
}

/** The value an upgrade of `type` changes, as text. */
export function valueOf(config: Configuration, type: PrnUpdateTypeValue): string {
  if (type === PrnUpdateType.NODE_COUNT) return String(config.nodeCount);
  if (type === PrnUpdateType.HOST_CONFIG) return config.hostConfig;
  return String(config.dataCapacityGb);
}

/** The values an upgrade of `type` may move to: more peers only; any other host configuration; any data capacity not below what is used. */
export function upgradeValues(
  config: Configuration,
  type: PrnUpdateTypeValue,
  usedBytes: number,
  book: PriceBook,
): string[] {
  if (type === PrnUpdateType.NODE_COUNT) {
    const out: string[] = [];
    for (let n = config.nodeCount + 1; n <= PRN_PEERS_MAX; n += 1) out.push(String(n));
    return out;
  }
  if (type === PrnUpdateType.HOST_CONFIG) return book.hosts.map((h) => h.code).filter((c) => c !== config.hostConfig);
  return book.capacities
    .filter((d) => d.gb !== config.dataCapacityGb && d.gb * 1024 ** 3 >= usedBytes)
    .map((d) => String(d.gb));
}

/** The end of a period of `cycle` starting at `start`. */
export const periodEndOf = (start: Date, cycle: number) => new Date(start.getTime() + prnCycleDays(cycle) * DAY_MS);
