import { and, count, desc, eq, inArray, isNull, ne, sql, sum } from "drizzle-orm";
import {
  PRN_BILL_TYPE,
  PrnStatus,
  PrnUpgradeStatus,
  prnGatewayPath,
  prnNetworkName,
} from "#contract/dedicated-nodes-codes.ts";
import { Msg } from "#contract/messages.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { cityNodes } from "#backend/db/tables.ts";
import type { Deps } from "#backend/deps.ts";
import { ApiError } from "#backend/http/errors.ts";
import { sealWith, openWith, type SealPurpose } from "#backend/kit/sealed.ts";
import billing from "#backend/domains/billing/index.ts";
import chain from "#backend/domains/chain/index.ts";
import { bills } from "#backend/domains/billing/tables.ts";
import { prnProjects, prnUpgrades } from "./tables.ts";

/** What the handlers and jobs of dedicated nodes share: lookups, the output shape, resources, the network. */

export type ProjectRow = typeof prnProjects.$inferSelect;
export type UpgradeRow = typeof prnUpgrades.$inferSelect;

/** The authorized password is kept sealed only until the deploy job has given it to the network. */
const PASSWORD_SEAL: SealPurpose = { label: "dedicated-node-password", fallbackFile: "dedicated-node-password.key" };
export const sealPassword = (deps: Deps, password: string) => sealWith(deps.env, PASSWORD_SEAL, password);
export const openPassword = (deps: Deps, sealed: string) => openWith(deps.env, PASSWORD_SEAL, sealed);

export const networkOf = (p: { name: string }) => prnNetworkName(p.name);
export const networks = chain.api.networks;

/** The statuses whose peers hold the city node's resources. */
export const HOLDING: number[] = [PrnStatus.NOT_DEPLOYED, PrnStatus.DEPLOYING, PrnStatus.RUNNING];

/** The caller's project (locked for the rest of `tx` when asked); another user's, or a deleted one, is not found. */
export async function ownProject(db: Db | Tx, userId: number, projectId: number, lock = false): Promise<ProjectRow> {
  const q = db
    .select()
    .from(prnProjects)
    .where(and(eq(prnProjects.id, projectId), eq(prnProjects.userId, userId)));
  const [row] = lock ? await q.for("update") : await q;
  if (!row) throw new ApiError(Msg.NOT_FOUND);
  return row;
}

/** Peers and GB a city node still has for dedicated nodes: its catalogue figures minus what holding projects use. */
export async function freeResources(db: Db | Tx, cityNodeId: number, exceptProjectId?: number) {
  const [node] = await db.select().from(cityNodes).where(eq(cityNodes.id, cityNodeId));
  if (!node) return null;
  const where = and(
    eq(prnProjects.cityNodeId, cityNodeId),
    inArray(prnProjects.status, HOLDING),
    exceptProjectId ? ne(prnProjects.id, exceptProjectId) : undefined,
  );
  const [used] = await db
    .select({
      peers: sum(prnProjects.nodeCount),
      gb: sql<string>`coalesce(sum(${prnProjects.nodeCount} * ${prnProjects.dataCapacityGb}), 0)`,
    })
    .from(prnProjects)
    .where(where);
  return {
    node,
    freePeers: Math.max(0, node.peers - Number(used.peers ?? 0)),
    freeGb: Math.max(0, node.capacityGb - Number(used.gb ?? 0)),
  };
}

/** A name is taken while a project of that name still has a network (not purged). */
export async function nameTaken(db: Db | Tx, name: string): Promise<boolean> {
  const [{ n }] = await db
    .select({ n: count() })
    .from(prnProjects)
    .where(and(eq(prnProjects.name, name), isNull(prnProjects.purgedAt)));
  return n > 0;
}

export async function projectsOut(db: Db | Tx, rows: ProjectRow[]) {
  const ids = rows.map((r) => r.id);
  const nodeIds = [...new Set(rows.map((r) => r.cityNodeId))];
  const nodes = nodeIds.length ? await db.select().from(cityNodes).where(inArray(cityNodes.id, nodeIds)) : [];
  const billIds = rows.map((r) => r.billId).filter((b): b is number => b !== null);
  const billRows = billIds.length
    ? await db.select({ id: bills.id, billNo: bills.billNo }).from(bills).where(inArray(bills.id, billIds))
    : [];
  const open = ids.length
    ? await db
        .select({ id: prnUpgrades.id, projectId: prnUpgrades.projectId })
        .from(prnUpgrades)
        .where(and(inArray(prnUpgrades.projectId, ids), eq(prnUpgrades.status, PrnUpgradeStatus.UPGRADING)))
    : [];
  return rows.map((p) => {
    const node = nodes.find((n) => n.id === p.cityNodeId);
    return {
      prnProjectId: p.id,
      name: p.name,
      framework: p.framework,
      consensus: p.consensus,
      cloud: p.cloud,
      nodeId: p.cityNodeId,
      regionCode: node?.code ?? "",
      regionName: node?.name ?? "",
      regionNameZh: node?.nameZh ?? "",
      nodeCount: p.nodeCount,
      hostConfig: p.hostConfig,
      dataCapacityGb: p.dataCapacityGb,
      cycle: p.cycle,
      authUser: p.authUser,
      status: p.status,
      failReason: p.failReason,
      priceCents: p.priceCents,
      periodStart: p.periodStart.toISOString(),
      periodEnd: p.periodEnd.toISOString(),
      suspended: p.suspended,
      purgeAt: p.purgeAt?.toISOString() ?? null,
      purgedAt: p.purgedAt?.toISOString() ?? null,
      billId: p.billId,
      billNo: billRows.find((b) => b.id === p.billId)?.billNo ?? null,
      gatewayPath: prnGatewayPath(p.name),
      openUpgradeId: open.find((u) => u.projectId === p.id)?.id ?? null,
      createdAt: p.createdAt.toISOString(),
    };
  });
}

export async function upgradesOut(db: Db | Tx, rows: UpgradeRow[]) {
  const projectIds = [...new Set(rows.map((r) => r.projectId))];
  const projects = projectIds.length
    ? await db
        .select({ id: prnProjects.id, name: prnProjects.name })
        .from(prnProjects)
        .where(inArray(prnProjects.id, projectIds))
    : [];
  const billIds = rows.map((r) => r.billId).filter((b): b is number => b !== null);
  const billRows = billIds.length
    ? await db.select({ id: bills.id, billNo: bills.billNo }).from(bills).where(inArray(bills.id, billIds))
    : [];
  return rows.map((u) => ({
    prnProjectUpdateId: u.id,
    prnProjectId: u.projectId,
    projectName: projects.find((p) => p.id === u.projectId)?.name ?? "",
    updateType: u.updateType,
    fromValue: u.fromValue,
    toValue: u.toValue,
    priceDiffCents: u.priceDiffCents,
    status: u.status,
    failReason: u.failReason,
    billId: u.billId,
    billNo: billRows.find((b) => b.id === u.billId)?.billNo ?? null,
    createdAt: u.createdAt.toISOString(),
    finishedAt: u.finishedAt?.toISOString() ?? null,
  }));
}

/** The newest first page of a query's rows. */
export const newestFirst = [desc(prnProjects.id)];

/** Bytes the largest node of a network uses (data capacity is per node); 0 when it does not run. */
export async function usedBytesOf(deps: Deps, project: ProjectRow): Promise<number> {
  if (project.purgedAt || project.status === PrnStatus.NOT_DEPLOYED) return 0;
  const status = await networks.status(deps, networkOf(project)).catch(() => null);
  return status ? Math.max(0, ...status.nodes.map((n) => n.bytesUsed)) : 0;
}

/** A paid dedicated-node bill (SPEC §9 category) for `cents`, with the ledger entry; MSG_30001 when the balance is short. */
export async function insertPaidBill(
  tx: Tx,
  input: {
    userId: number;
    serviceName: string;
    cents: number;
    cycle: number;
    periodStart: Date;
    periodEnd: Date;
    detail: Record<string, unknown>;
    dedupeKey: string;
    now: Date;
  },
) {
  const bill = await billing.api.issueBill(tx, {
    billNo: billing.api.newBillNo(input.now, "DN"),
    userId: input.userId,
    serviceName: input.serviceName,
    billType: PRN_BILL_TYPE,
    payState: 15,
    payMode: 1,
    payType: "BALANCE",
    cycle: input.cycle,
    periodStart: input.periodStart,
    periodEnd: input.periodEnd,
    createdAt: input.now,
    deadline: input.now,
    paidAt: input.now,
    totalCents: input.cents,
    payCents: input.cents,
    detail: input.detail,
    dedupeKey: input.dedupeKey,
  });
  if (bill.payCents > 0)
    await billing.api.post(
      tx,
      {
        userId: input.userId,
        kind: "bill_payment",
        amountCents: bill.payCents,
        refType: "bill",
        refId: bill.id,
        idempotencyKey: input.dedupeKey,
      },
      input.now,
    );
  return bill;
}

/** Refunds what is left of a paid bill to the balance through the ledger (a failed deployment or upgrade). */
export async function refundBill(tx: Tx, billId: number, key: string, now: Date) {
  const [bill] = await tx.select().from(bills).where(eq(bills.id, billId)).for("update");
  if (!bill) return 0;
  const amount = bill.payCents - bill.refundCents;
  if (amount <= 0) return 0;
  await billing.api.post(
    tx,
    { userId: bill.userId, kind: "refund", amountCents: amount, refType: "bill", refId: bill.id, idempotencyKey: key },
    now,
  );
  await billing.api.recordBillRefund(tx, bill.id, {
    refundCents: bill.refundCents + amount,
    refundNo: `RF${now.getTime().toString(36).toUpperCase()}${bill.id}`,
    payState: 20,
  });
  return amount;
}
