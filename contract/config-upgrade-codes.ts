/*
 * Configuration upgrades and renewals of a consortium-chain service (SPEC §4 Config upgrade, Payment cycle;
 * §5 Config upgrade; §9 Time; docs/decisions/036). Zod-free: the backend enforces these rules and the
 * portal shows the same refusal before the click.
 */

/** §4 Config upgrade types. */
export const UpgradeType = { NODE: 1, RESOURCE: 2 } as const;
export const UPGRADE_TYPES = [1, 2] as const;
export type UpgradeTypeValue = (typeof UPGRADE_TYPES)[number];

/** §4 Upgrade status. */
export const UpgradeStatus = { UPGRADING: 1, SUCCESS: 2, FAILED: 3 } as const;

/** §4 Config upgrade review: 1 pending, 5 not approved; 10 approved (docs/decisions/036). */
export const UpgradeReview = { PENDING: 1, NOT_APPROVED: 5, APPROVED: 10 } as const;

/** §4 Config upgrade deployment. */
export const UpgradeDeploy = { TO_SUBMIT: 1, IN_PROGRESS: 5, SUCCESS: 10, FAILED: 20, UNDEPLOYED: 25 } as const;

export const HOUR_MS = 60 * 60 * 1000;
export const DAY_MS = 24 * HOUR_MS;
/** §5/§9: no config upgrade within 5 days of the cycle's end. */
export const CYCLE_END_GUARD_MS = 5 * DAY_MS;
/** §5/§9: a config upgrade again only 6 hours after the last successful deployment. */
export const UPGRADE_COOLDOWN_MS = 6 * HOUR_MS;
/** The bill of an approved upgrade and a renewal bill are payable for 3 days (§9 "payment valid 3 days"). */
export const UPGRADE_PAYMENT_WINDOW_MS = 3 * DAY_MS;
export const RENEWAL_GRACE_MS = 3 * DAY_MS;

/** §4 Payment cycle: 1 yearly, 2 monthly, 99 weekly. */
export const PaymentCycle = { YEARLY: 1, MONTHLY: 2, WEEKLY: 99 } as const;
export type PaymentCycleValue = 1 | 2 | 99;
export const asCycle = (n: number): PaymentCycleValue => (n === 1 ? 1 : n === 99 ? 99 : 2);

/** The length of one period of a payment cycle, in days (docs/decisions/036: 365, 30, 7). */
export const cycleDays = (cycle: number) => (cycle === 1 ? 365 : cycle === 99 ? 7 : 30);

/** The §8 refusals of a config upgrade (contract/messages.ts MSG_440xx). */
export const UpgradeRefusal = {
  CYCLE_END: "MSG_44001",
  IN_PROGRESS: "MSG_44002",
  COOLDOWN: "MSG_44003",
} as const;

/**
 * SPEC §5 Config upgrade, in the order a person meets them: another upgrade in progress, within 6 hours of
 * the last success, within 5 days of the cycle's end. Pure: `now` is the caller's clock.
 */
export function upgradeRefusal(input: {
  now: Date;
  cycleEnd: Date | null;
  inProgress: boolean;
  lastSuccessAt: Date | null;
}): string | null {
  const now = input.now.getTime();
  if (input.inProgress) return UpgradeRefusal.IN_PROGRESS;
  if (input.lastSuccessAt && now - input.lastSuccessAt.getTime() < UPGRADE_COOLDOWN_MS) return UpgradeRefusal.COOLDOWN;
  if (input.cycleEnd && input.cycleEnd.getTime() - now < CYCLE_END_GUARD_MS) return UpgradeRefusal.CYCLE_END;
  return null;
}

/** What a version books on one city node. */
export type NodeConfig = { cityNodeId: number; tps: number; capacityGb: number; peers: number };

/**
 * The kind of change from `before` to `after`: a node upgrade adds or removes city nodes and leaves the
 * others as they are; a resource upgrade keeps the nodes and changes TPS, capacity or bookkeeping nodes.
 * "none" when nothing changes, "mixed" when both change (refused: two upgrades).
 */
export function changeKind(
  before: readonly NodeConfig[],
  after: readonly NodeConfig[],
): "none" | "node" | "resource" | "mixed" {
  const was = new Map(before.map((n) => [n.cityNodeId, n]));
  const is = new Map(after.map((n) => [n.cityNodeId, n]));
  const setChanged = before.some((n) => !is.has(n.cityNodeId)) || after.some((n) => !was.has(n.cityNodeId));
  const resourcesChanged = after.some((n) => {
    const w = was.get(n.cityNodeId);
    return w !== undefined && (w.tps !== n.tps || w.capacityGb !== n.capacityGb || w.peers !== n.peers);
  });
  if (setChanged && resourcesChanged) return "mixed";
  if (setChanged) return "node";
  if (resourcesChanged) return "resource";
  return "none";
}

/**
 * The price of an upgrade for the rest of the cycle (docs/decisions/036): what one full cycle of `after`
 * costs more than one of `before` at today's catalogue, times the share of the cycle left, rounded up to
 * a cent. A smaller configuration costs nothing until the next renewal, which bills the new one.
 */
export function proratedCents(fullCycleDiffCents: number, remainingMs: number, cycleMs: number): number {
  if (fullCycleDiffCents <= 0 || remainingMs <= 0 || cycleMs <= 0) return 0;
  return Math.ceil((fullCycleDiffCents * Math.min(remainingMs, cycleMs)) / cycleMs);
}
