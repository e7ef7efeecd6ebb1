import billing from "#backend/domains/billing/index.ts";
import { and, asc, desc, eq, inArray, max } from "drizzle-orm";
import {
  UpgradeStatus,
  asCycle,
  changeKind,
  cycleDays,
  DAY_MS,
  proratedCents,
  upgradeRefusal,
  type NodeConfig,
} from "#contract/config-upgrade-codes.ts";
import type { UpgradeDetail, UpgradeRow } from "#contract/configuration.ts";
import { CrossStatus } from "#contract/cross-chain-codes.ts";
import { Msg } from "#contract/messages.ts";
import { configCycleCents, nodeCycleCents, type NodePrices } from "#contract/service-cost.ts";
import { serviceActions } from "#contract/service-status.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { cityNodes, users } from "#backend/db/tables.ts";
import { ApiError } from "#backend/http/errors.ts";
import { bills, type BillDetail } from "#backend/domains/billing/tables.ts";
import { readReport } from "./inspect.ts";
import { availableOn } from "./jobs.ts";
import { appNodes, appVersions, apps, configUpgrades, type NodeConfigRow } from "./tables.ts";
import inbox from "#backend/domains/inbox/index.ts";

/**
 * Configuration upgrades of a running service (SPEC §4 Config upgrade, §5, §9 bill type 2;
 * docs/decisions/036): request → operator review → the bill paid from the balance → the deployment job
 * re-books the node resources for real. The price is the difference of one cycle at today's catalogue,
 * for the share of the cycle that is left.
 */
export const JOB_UPGRADE_DEPLOY = "service.configUpgradeDeploy";

type Q = Db | Tx;
type AppRow = typeof apps.$inferSelect;
type VersionRow = typeof appVersions.$inferSelect;
type UpgradeRecord = typeof configUpgrades.$inferSelect;
type CatalogueNode = NodePrices & {
  id: number;
  name: string;
  nameZh: string;
  code: string;
  interchainProtocols: number[];
};

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

export type Catalogue = Map<number, NodePrices & { code: string }>;

/** A bill's resource lines (SPEC §3 Bill usage detail) for one cycle of `nodes`. */
export function resourceLines(
  nodes: readonly NodeConfig[],
  catalogue: Catalogue,
  cycle: number,
): NonNullable<BillDetail["resources"]> {
  return nodes.flatMap((n) => {
    const p = catalogue.get(n.cityNodeId);
    if (!p) return [];
    return [
      {
        nodeCode: p.code,
        tps: n.tps,
        capacityGb: n.capacityGb,
        peers: n.peers,
        monthlyPriceCents: p.tpsPricePerMonthCents,
        yearlyPriceCents: p.tpsPricePerYearCents,
        amountCents: nodeCycleCents(p, n.tps, n.capacityGb, asCycle(cycle), n.peers).totalCents,
      },
    ];
  });
}

/** The city-node catalogue with its prices, read now (a change applies to new orders and renewals). */
export async function priceCatalogue(q: Q): Promise<Map<number, CatalogueNode>> {
  const rows = await q.select().from(cityNodes).orderBy(asc(cityNodes.id));
  return new Map(rows.map((r) => [r.id, r]));
}

/** What the version books now, in city-node order. */
export async function currentConfig(q: Q, verId: number): Promise<NodeConfig[]> {
  const rows = await q.select().from(appNodes).where(eq(appNodes.verId, verId)).orderBy(asc(appNodes.cityNodeId));
  return rows.map((r) => ({ cityNodeId: r.cityNodeId, tps: r.tps, capacityGb: r.capacityGb, peers: r.peers }));
}

/**
 * The paid period of the service's payment cycle: the recorded one, or (a service that ran before cycles
 * were recorded) the period of its publication's cycle that contains `now`.
 */
export function cycleOf(
  app: Pick<AppRow, "cycleStart" | "cycleEnd" | "paymentCycle">,
  publishedAt: Date | null,
  now: Date,
): { start: Date; end: Date } | null {
  if (app.cycleStart && app.cycleEnd) return { start: app.cycleStart, end: app.cycleEnd };
  if (!publishedAt) return null;
  const len = cycleDays(app.paymentCycle) * DAY_MS;
  const n = Math.max(0, Math.floor((now.getTime() - publishedAt.getTime()) / len));
  const start = new Date(publishedAt.getTime() + n * len);
  return { start, end: new Date(start.getTime() + len) };
}

/** The §5 facts of a service now: an upgrade in progress, the last success. */
async function upgradeFacts(q: Q, appId: number) {
  const [inProgress] = await q
    .select({ id: configUpgrades.id })
    .from(configUpgrades)
    .where(and(eq(configUpgrades.appId, appId), eq(configUpgrades.status, UpgradeStatus.UPGRADING)))
    .limit(1);
  const [last] = await q
    .select({ at: max(configUpgrades.deployedAt) })
    .from(configUpgrades)
    .where(and(eq(configUpgrades.appId, appId), eq(configUpgrades.status, UpgradeStatus.SUCCESS)));
  return { inProgress: inProgress !== undefined, lastSuccessAt: last?.at ? new Date(last.at) : null };
}

/** The running service a publisher upgrades: theirs (else not found) and allowed by §4 (else MSG_44006). */
export async function upgradableService(q: Q, userId: number, appId: number) {
  const [app] = await q.select().from(apps).where(eq(apps.id, appId));
  if (!app || app.userId !== userId) throw new ApiError(Msg.NOT_FOUND);
  const [version] = app.currentVerId
    ? await q.select().from(appVersions).where(eq(appVersions.id, app.currentVerId))
    : [];
  if (!version) throw new ApiError(Msg.UPGRADE_NOT_AVAILABLE);
  const actions = serviceActions({
    verState: version.verState,
    billState: version.billState,
    verUpable: version.verUpable,
    crossStatus: app.crossStatus,
    freeYN: app.freeYN,
  });
  if (!actions.has("configUpgrade")) throw new ApiError(Msg.UPGRADE_NOT_AVAILABLE);
  return { app, version };
}

/** The refusal of §5 for this service now, or null. */
export async function refusalNow(q: Q, app: AppRow, version: VersionRow, now: Date): Promise<string | null> {
  const facts = await upgradeFacts(q, app.id);
  return upgradeRefusal({ now, cycleEnd: cycleOf(app, version.publishedAt, now)?.end ?? null, ...facts });
}

/** What is left on each catalogue node for this version (its own booking counted as free). */
export async function leftFor(q: Q, verId: number) {
  const nodes = await q.select({ id: cityNodes.id }).from(cityNodes).orderBy(asc(cityNodes.id));
  const out = [];
  for (const n of nodes) {
    const left = await availableOn(q as Tx, n.id, verId);
    out.push({ cityNodeId: n.id, tps: Math.max(0, left.tps), capacityGb: Math.max(0, left.capacityGb) });
  }
  return out;
}

/**
 * Checks a requested configuration against the current one and prices it: every node in the catalogue,
 * the change of the requested type (MSG_44005) and not nothing (MSG_44004); the price for the rest of the cycle.
 */
export async function priceRequest(
  q: Q,
  app: AppRow,
  version: VersionRow,
  request: { upgradeType: 1 | 2; nodes: NodeConfig[] },
  now: Date,
) {
  const catalogue = await priceCatalogue(q);
  const after = [...request.nodes].sort((a, b) => a.cityNodeId - b.cityNodeId);
  if (new Set(after.map((n) => n.cityNodeId)).size !== after.length || after.some((n) => !catalogue.has(n.cityNodeId)))
    throw new ApiError(Msg.UPGRADE_UNKNOWN_NODE);
  const before = await currentConfig(q, version.id);
  const kind = changeKind(before, after);
  if (kind === "none") throw new ApiError(Msg.UPGRADE_NO_CHANGE);
  if (kind === "mixed" || (kind === "node") !== (request.upgradeType === 1))
    throw new ApiError(Msg.UPGRADE_TYPE_MISMATCH);
  if (addsNodeWithoutProtocol(app, before, after, catalogue))
    throw new ApiError(Msg.XC_PROTOCOL_UNSUPPORTED, { fieldErrors: { nodes: [Msg.XC_PROTOCOL_UNSUPPORTED] } });
  const cycle = cycleOf(app, version.publishedAt, now);
  if (!cycle) throw new ApiError(Msg.UPGRADE_NOT_AVAILABLE);
  const c = asCycle(app.paymentCycle);
  const fullCycleDiffCents = configCycleCents(after, catalogue, c) - configCycleCents(before, catalogue, c);
  const remainingMs = cycle.end.getTime() - now.getTime();
  const amountCents = proratedCents(fullCycleDiffCents, remainingMs, cycle.end.getTime() - cycle.start.getTime());
  return {
    before,
    after,
    cycle,
    fullCycleDiffCents,
    amountCents,
    remainingDays: Math.max(0, Math.ceil(remainingMs / DAY_MS)),
  };
}

/** Cross-chain statuses whose protocol the service's nodes must keep supporting: activated, pending activation or deactivation. */
const CROSS_CHAIN_KEPT: readonly number[] = [
  CrossStatus.ACTIVATED,
  CrossStatus.PENDING_ACTIVATION,
  CrossStatus.PENDING_DEACTIVATION,
];

/**
 * §8 "Nodes do not support the chosen interchain protocol" (docs/decisions/048): a service open to cross-chain
 * may not add a city node that does not support its protocol (the catalogue's `interchainProtocols`).
 */
function addsNodeWithoutProtocol(
  app: Pick<AppRow, "crossStatus" | "crossProtocol">,
  before: NodeConfig[],
  after: NodeConfig[],
  catalogue: Map<number, CatalogueNode>,
) {
  const protocol = app.crossProtocol;
  if (protocol === null || !CROSS_CHAIN_KEPT.includes(app.crossStatus)) return false;
  const had = new Set(before.map((n) => n.cityNodeId));
  return after.some(
    (n) => !had.has(n.cityNodeId) && !catalogue.get(n.cityNodeId)!.interchainProtocols.includes(protocol),
  );
}

/**
 * A publisher's upgrade request (§5 checked on the server): unpaid usage bills block it (payType 1, MSG_30005),
 * then the rules of §5, then the change; recorded upgrading (1), pending review (1), to submit (1).
 */
export async function createUpgrade(
  tx: Tx,
  userId: number,
  request: { appId: number; upgradeType: 1 | 2; nodes: NodeConfig[] },
  now: Date,
) {
  const { app, version } = await upgradableService(tx, userId, request.appId);
  // One request at a time per service: the service row is the lock the §5 checks read under.
  await tx.select({ id: apps.id }).from(apps).where(eq(apps.id, app.id)).for("update");
  if (await billing.api.hasBlockingBills(tx, userId, 1, now)) throw new ApiError(Msg.UNPAID_BILLS);
  const refusal = await refusalNow(tx, app, version, now);
  if (refusal) throw new ApiError(refusal);
  const priced = await priceRequest(tx, app, version, request, now);
  const [row] = await tx
    .insert(configUpgrades)
    .values({
      upgradeNo: billing.api.newBillNo(now, "CU"),
      appId: app.id,
      verId: version.id,
      userId,
      upgradeType: request.upgradeType,
      before: priced.before,
      after: priced.after,
      amountCents: priced.amountCents,
      paymentCycle: app.paymentCycle,
      cycleEnd: priced.cycle.end,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  await tell(tx, row, app.name, "upgradeRequested", now);
  return row;
}

export async function tell(
  tx: Tx,
  upgrade: UpgradeRecord,
  name: string,
  key: string,
  now: Date,
  extra: Record<string, string> = {},
) {
  await inbox.api.notify(tx, {
    userId: upgrade.userId,
    textKey: `messages.service.${key}`,
    params: { name, upgradeNo: upgrade.upgradeNo, ...extra },
    at: now,
  });
}

export const usd = (cents: number) => (cents / 100).toFixed(2);

export function upgradeRowOf(u: UpgradeRecord, serviceName: string, payState: number | null): UpgradeRow {
  return {
    upgradeId: u.id,
    upgradeNo: u.upgradeNo,
    appId: u.appId,
    serviceName,
    upgradeType: u.upgradeType,
    status: u.status,
    reviewState: u.reviewState,
    deployState: u.deployState,
    amountCents: u.amountCents,
    billId: u.billId,
    payState,
    createdAt: u.createdAt.toISOString(),
  };
}

function named(nodes: NodeConfigRow[], catalogue: Map<number, CatalogueNode>) {
  return nodes.map((n) => ({
    ...n,
    name: catalogue.get(n.cityNodeId)?.name ?? String(n.cityNodeId),
    nameZh: catalogue.get(n.cityNodeId)?.nameZh ?? String(n.cityNodeId),
  }));
}

/** The detail of upgrades (ConfigurationDetail, the operators' queue). */
export async function upgradeDetails(
  q: Q,
  rows: UpgradeRecord[],
  now: Date,
): Promise<(UpgradeDetail & { publisher: string })[]> {
  if (rows.length === 0) return [];
  const catalogue = await priceCatalogue(q);
  const appRows = await q
    .select({ id: apps.id, name: apps.name })
    .from(apps)
    .where(inArray(apps.id, [...new Set(rows.map((r) => r.appId))]));
  const billIds = rows.flatMap((r) => (r.billId ? [r.billId] : []));
  const billRows = billIds.length ? await q.select().from(bills).where(inArray(bills.id, billIds)) : [];
  const userRows = await q
    .select({ id: users.id, userName: users.userName })
    .from(users)
    .where(inArray(users.id, [...new Set(rows.map((r) => r.userId))]));
  return rows.map((u) => {
    const bill = billRows.find((b) => b.id === u.billId) ?? null;
    return {
      ...upgradeRowOf(u, appRows.find((a) => a.id === u.appId)?.name ?? "", bill?.payState ?? null),
      appVerId: u.verId,
      paymentCycle: u.paymentCycle,
      cycleEnd: u.cycleEnd.toISOString(),
      before: named(u.before, catalogue),
      after: named(u.after, catalogue),
      reviewComments: u.reviewComments,
      reviewedAt: iso(u.reviewedAt),
      billDeadline: iso(bill?.deadline),
      deployReport: readReport(u.deployReport),
      deployedAt: iso(u.deployedAt),
      payable: !!bill && u.status === UpgradeStatus.UPGRADING && billing.api.isPayable(bill, now),
      publisher: userRows.find((x) => x.id === u.userId)?.userName ?? "",
    };
  });
}

/** A service's upgrades, newest first, with their bills' payment status (list and the service's history). */
export async function upgradeRows(q: Q, where: ReturnType<typeof and>, limit: number, offset: number) {
  const rows = await q
    .select({ u: configUpgrades, name: apps.name, payState: bills.payState })
    .from(configUpgrades)
    .innerJoin(apps, eq(apps.id, configUpgrades.appId))
    .leftJoin(bills, eq(bills.id, configUpgrades.billId))
    .where(where)
    .orderBy(desc(configUpgrades.createdAt), desc(configUpgrades.id))
    .limit(limit)
    .offset(offset);
  return rows.map((r) => upgradeRowOf(r.u, r.name, r.payState ?? null));
}

/** Whom an upgrade's deployment concerns: the publisher, told when the job dies (docs/decisions/005). */
export async function upgradeOwner(payload: Record<string, unknown>, db: Db) {
  const upgradeId = Number(payload.upgradeId);
  if (!Number.isSafeInteger(upgradeId) || upgradeId <= 0) return null;
  const [row] = await db
    .select({ userId: configUpgrades.userId, upgradeNo: configUpgrades.upgradeNo })
    .from(configUpgrades)
    .where(eq(configUpgrades.id, upgradeId));
  return row ? { userId: row.userId, subject: row.upgradeNo } : null;
}
