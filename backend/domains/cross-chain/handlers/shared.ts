import { and, count, eq, inArray } from "drizzle-orm";
import { parseAbi } from "viem";
import { BillType, PayState } from "#contract/billing-codes.ts";
import { CrossCallStatus, type CrossCall, type CrossService } from "#contract/cross-chain.ts";
import { UpgradeStatus } from "#contract/config-upgrade-codes.ts";
import { Msg } from "#contract/messages.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { cityNodes } from "#backend/db/tables.ts";
import { ApiError } from "#backend/http/errors.ts";
import type { SignedInContext } from "#backend/http/router.ts";
import { bills } from "#backend/domains/billing/tables.ts";
import { appNodes, appVersions, apps, configUpgrades, serviceChains } from "#backend/domains/services/tables.ts";
import { crossChainMachine, type CrossEvent } from "#backend/domains/cross-chain/machine.ts";
import { protocolsOfNodes, serviceUpgradeUnderWay, type OpenFacts } from "#backend/domains/cross-chain/rules.ts";
import { crossChainCalls } from "#backend/domains/cross-chain/tables.ts";

/** The handlers of cross-chain services (contract/cross-chain.ts; docs/decisions/048). Every service is looked up with its owner. */

export type Ctx = SignedInContext;

export type AppRow = typeof apps.$inferSelect;

type CallRow = typeof crossChainCalls.$inferSelect;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export const RECENT_CALLS = 10;

export const SAMPLE_ABI = parseAbi([
  "function receiveMessage(string text)",
  "function mint() returns (uint256)",
  "function lockAndSend(uint256 tokenId, string appCode, string targetChain, address targetNft) returns (uint64)",
  "function depositAndSend(bytes32 digest, string note, string appCode, string targetChain, address targetDeposit) returns (uint64)",
  "event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)",
]);

/** The caller's own service (another user's, or none, is "not found"). */
export async function ownApp(db: Db | Tx, userId: number, appId: number, lock = false): Promise<AppRow> {
  const q = db.select().from(apps).where(eq(apps.id, appId));
  const [app] = lock ? await q.for("update") : await q;
  if (!app || app.userId !== userId) throw new ApiError(Msg.NOT_FOUND);
  return app;
}

export async function chainOf(db: Db | Tx, appId: number) {
  const [row] = await db
    .select({ chainName: serviceChains.chainName, chainId: serviceChains.chainId })
    .from(serviceChains)
    .where(eq(serviceChains.appId, appId));
  return row ?? null;
}

/** §5: a service upgrade (a newer version under way) or a configuration upgrade in progress. */
export async function upgradingNow(db: Db | Tx, app: Pick<AppRow, "id" | "currentVerId">): Promise<boolean> {
  const versions = await db
    .select({ id: appVersions.id, verState: appVersions.verState })
    .from(appVersions)
    .where(eq(appVersions.appId, app.id));
  if (serviceUpgradeUnderWay(app.currentVerId, versions)) return true;
  const [config] = await db
    .select({ id: configUpgrades.id })
    .from(configUpgrades)
    .where(and(eq(configUpgrades.appId, app.id), eq(configUpgrades.status, UpgradeStatus.UPGRADING)))
    .limit(1);
  return config !== undefined;
}

/** The facts of §5/§8 the open rule reads, now. */
export async function openFacts(db: Db | Tx, app: AppRow): Promise<OpenFacts> {
  const [version] = app.currentVerId
    ? await db.select({ verState: appVersions.verState }).from(appVersions).where(eq(appVersions.id, app.currentVerId))
    : [];
  const nodes = app.currentVerId
    ? await db
        .select({ interchainProtocols: cityNodes.interchainProtocols })
        .from(appNodes)
        .innerJoin(cityNodes, eq(cityNodes.id, appNodes.cityNodeId))
        .where(eq(appNodes.verId, app.currentVerId))
    : [];
  const [unpaid] = await db
    .select({ id: bills.id })
    .from(bills)
    .where(
      and(
        eq(bills.userId, app.userId),
        eq(bills.billType, BillType.CROSS_CHAIN),
        inArray(bills.payState, [PayState.UNPAID, PayState.FAILED]),
      ),
    )
    .limit(1);
  return {
    verState: version?.verState ?? 0,
    hasChain: (await chainOf(db, app.id)) !== null,
    upgrading: await upgradingNow(db, app),
    unpaidCrossChainBill: unpaid !== undefined,
    protocols: protocolsOfNodes(nodes),
  };
}

async function countsOf(db: Db | Tx, appIds: number[]) {
  const out = new Map<number, { total: number; success: number; failure: number; pending: number }>();
  for (const id of appIds) out.set(id, { total: 0, success: 0, failure: 0, pending: 0 });
  if (!appIds.length) return out;
  const rows = await db
    .select({ appId: crossChainCalls.appId, status: crossChainCalls.status, n: count() })
    .from(crossChainCalls)
    .where(inArray(crossChainCalls.appId, appIds))
    .groupBy(crossChainCalls.appId, crossChainCalls.status);
  for (const r of rows) {
    const c = out.get(r.appId)!;
    c.total += r.n;
    if (r.status === CrossCallStatus.SUCCESS) c.success += r.n;
    else if (r.status === CrossCallStatus.FAILURE) c.failure += r.n;
    else c.pending += r.n;
  }
  return out;
}

export async function serviceRows(db: Db | Tx, rows: AppRow[]): Promise<CrossService[]> {
  const ids = rows.map((r) => r.id);
  const counts = await countsOf(db, ids);
  const chains = ids.length ? await db.select().from(serviceChains).where(inArray(serviceChains.appId, ids)) : [];
  return rows.map((app) => {
    const c = chains.find((x) => x.appId === app.id);
    return {
      appId: app.id,
      appCode: app.appCode,
      name: app.name,
      framework: app.framework,
      crossStatus: app.crossStatus,
      protocol: app.crossProtocol,
      crossAppCode: app.crossAppCode,
      chainName: c?.chainName ?? null,
      chainId: c?.chainId ?? null,
      counts: counts.get(app.id)!,
      updatedAt: app.updatedAt.toISOString(),
    };
  });
}

export function callView(r: CallRow): CrossCall {
  return {
    callId: r.id,
    appId: r.appId,
    sequence: r.sequence,
    protocol: r.protocol,
    kind: r.kind as CrossCall["kind"],
    sourceChain: r.sourceChain,
    sourceChainId: r.sourceChainId,
    targetChain: r.targetChain,
    targetChainId: r.targetChainId,
    targetAddress: r.targetAddress,
    status: r.status,
    sourceTxHash: r.sourceTxHash,
    targetTxHash: r.status === CrossCallStatus.SUCCESS ? r.targetTxHash : null,
    attempts: r.attempts,
    reason: r.reason,
    feeCents: r.feeCents,
    createdAt: r.createdAt.toISOString(),
    deliveredAt: iso(r.deliveredAt),
  };
}

/** A status move of the machine, or its refusal as an error. */
export function move(
  app: AppRow,
  event: CrossEvent,
  actor: "publisher" | "operator",
  ctx: Parameters<typeof crossChainMachine.transition>[3] = {},
) {
  const outcome = crossChainMachine.transition(app.crossStatus, event, actor, ctx);
  if (!outcome.ok) throw new ApiError(outcome.messageKey);
  return outcome.to;
}
