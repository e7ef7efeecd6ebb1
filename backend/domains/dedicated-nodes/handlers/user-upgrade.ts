import { and, count, desc, eq } from "drizzle-orm";
import {
  PRN_UPDATE_TYPES,
  PrnStatus,
  PrnUpdateType,
  PrnUpgradeStatus,
  prnCycleDays,
  type PrnUpdateTypeValue,
} from "#contract/dedicated-nodes-codes.ts";
import { Msg } from "#contract/messages.ts";
import { ApiError, fieldError } from "#backend/http/errors.ts";
import type { Payload } from "#backend/http/router.ts";
import { schedule } from "#backend/jobs/runner.ts";
import billing from "#backend/domains/billing/index.ts";
import { JOB_UPGRADE } from "#backend/domains/dedicated-nodes/job-kinds.ts";
import {
  freeResources,
  insertPaidBill,
  ownProject,
  upgradesOut,
  usedBytesOf,
  type ProjectRow,
} from "#backend/domains/dedicated-nodes/projects.ts";
import {
  applyUpgrade,
  remainingDays,
  upgradeDiffCents,
  upgradeValues,
  valueOf,
} from "#backend/domains/dedicated-nodes/rules.ts";
import { priceBook } from "#backend/domains/dedicated-nodes/prices.ts";
import { prnProjects, prnUpgrades } from "#backend/domains/dedicated-nodes/tables.ts";
import { V, configOf, type Ctx } from "./shared.ts";

/* ------------------------------------------------ upgrades ------------------------------------------------ */

export async function upgradeList(input: Payload<"/sys/prn/upgrade/list">, ctx: Ctx) {
  const db = ctx.deps.db;
  const project = await ownProject(db, ctx.user.id, input.prnProjectId);
  const where = eq(prnUpgrades.projectId, project.id);
  const [{ total }] = await db.select({ total: count() }).from(prnUpgrades).where(where);
  const rows = await db
    .select()
    .from(prnUpgrades)
    .where(where)
    .orderBy(desc(prnUpgrades.id))
    .limit(input.pageSize)
    .offset((input.pageIndex - 1) * input.pageSize);
  return { page: { rows: await upgradesOut(db, rows), total, pageIndex: input.pageIndex, pageSize: input.pageSize } };
}

export async function upgradeDetail(input: Payload<"/sys/prn/upgrade/detail">, ctx: Ctx) {
  const [row] = await ctx.deps.db
    .select()
    .from(prnUpgrades)
    .where(and(eq(prnUpgrades.id, input.prnProjectUpdateId), eq(prnUpgrades.userId, ctx.user.id)));
  if (!row) throw new ApiError(Msg.NOT_FOUND);
  const [out] = await upgradesOut(ctx.deps.db, [row]);
  return out;
}

export async function upgradeOptions(input: Payload<"/sys/prn/upgrade/options">, ctx: Ctx) {
  const db = ctx.deps.db;
  const now = ctx.deps.now();
  const project = await ownProject(db, ctx.user.id, input.prnProjectId);
  const usedBytes = await usedBytesOf(ctx.deps, project);
  const [open] = await db
    .select({ id: prnUpgrades.id })
    .from(prnUpgrades)
    .where(and(eq(prnUpgrades.projectId, project.id), eq(prnUpgrades.status, PrnUpgradeStatus.UPGRADING)));
  const config = configOf(project);
  const book = await priceBook(db);
  const choices = (type: PrnUpdateTypeValue) =>
    upgradeValues(config, type, usedBytes, book).map((value) => {
      const to = applyUpgrade(config, type, value, book)!;
      const diff = upgradeDiffCents(config, to, project.cycle, project.periodEnd, now, book)!;
      return { value, priceDiffCents: diff.priceDiffCents, fullPeriodDiffCents: diff.fullPeriodDiffCents };
    });
  return {
    prnProjectId: project.id,
    name: project.name,
    status: project.status,
    ...config,
    usedBytes,
    cycle: project.cycle,
    periodEnd: project.periodEnd.toISOString(),
    remainingDays: remainingDays(project.periodEnd, now),
    periodDays: prnCycleDays(project.cycle),
    openUpgradeId: open?.id ?? null,
    nodeCounts: choices(PrnUpdateType.NODE_COUNT),
    hostConfigs: choices(PrnUpdateType.HOST_CONFIG),
    dataCapacities: choices(PrnUpdateType.DATA_CAPACITY),
  };
}

/** The §5/§8 checks of an upgrade of `project` to `toValue`; the new configuration and its price difference. */
async function checkUpgrade(
  ctx: Ctx,
  db: Parameters<typeof freeResources>[0],
  project: ProjectRow,
  type: PrnUpdateTypeValue,
  toValue: string,
  usedBytes: number,
) {
  const now = ctx.deps.now();
  if (project.status !== PrnStatus.RUNNING || project.suspended) throw new ApiError(Msg.PRN_NOT_ALLOWED_IN_STATUS);
  if (project.periodEnd.getTime() <= now.getTime()) throw new ApiError(Msg.PRN_PERIOD_ENDED);
  const from = configOf(project);
  // The operators' prices, read in the charge's transaction when there is one (docs/decisions/073).
  const book = await priceBook(db);
  const to = applyUpgrade(from, type, toValue.trim(), book);
  if (!to) throw fieldError("toValue", V("toValue"));
  if (valueOf(from, type) === valueOf(to, type))
    throw fieldError("toValue", Msg.PRN_UPGRADE_NO_CHANGE, Msg.PRN_UPGRADE_NO_CHANGE);
  if (type === PrnUpdateType.NODE_COUNT && to.nodeCount < from.nodeCount)
    throw fieldError("toValue", Msg.PRN_PEERS_DECREASE, Msg.PRN_PEERS_DECREASE);
  if (type === PrnUpdateType.DATA_CAPACITY && to.dataCapacityGb * 1024 ** 3 < usedBytes)
    throw fieldError("toValue", Msg.PRN_CAPACITY_BELOW_USED, Msg.PRN_CAPACITY_BELOW_USED);
  if (type !== PrnUpdateType.HOST_CONFIG) {
    const free = await freeResources(db, project.cityNodeId, project.id);
    if (!free || free.freePeers < to.nodeCount || free.freeGb < to.nodeCount * to.dataCapacityGb)
      throw fieldError("toValue", Msg.INSUFFICIENT_RESOURCES, Msg.INSUFFICIENT_RESOURCES);
  }
  const diff = upgradeDiffCents(from, to, project.cycle, project.periodEnd, now, book)!;
  return { from, to, diff };
}

const asType = (n: number) => ((PRN_UPDATE_TYPES as readonly number[]).includes(n) ? (n as PrnUpdateTypeValue) : null);

export async function upgradeQuote(input: Payload<"/sys/prn/upgrade/quote">, ctx: Ctx) {
  const project = await ownProject(ctx.deps.db, ctx.user.id, input.prnProjectId);
  const type = asType(input.updateType)!;
  const { from, to, diff } = await checkUpgrade(
    ctx,
    ctx.deps.db,
    project,
    type,
    input.toValue,
    await usedBytesOf(ctx.deps, project),
  );
  return {
    updateType: type,
    fromValue: valueOf(from, type),
    toValue: valueOf(to, type),
    priceDiffCents: diff.priceDiffCents,
    fullPeriodDiffCents: diff.fullPeriodDiffCents,
    remainingDays: diff.remainingDays,
  };
}

/**
 * An upgrade: the payType 2 guard, one open upgrade at a time, the difference for the rest of the period paid
 * from the balance (a paid dedicated-node bill), then the upgrade job applies it.
 */
export async function upgradeCreate(input: Payload<"/sys/prn/upgrade/create">, ctx: Ctx) {
  const me = ctx.user.id;
  const now = ctx.deps.now();
  const type = asType(input.updateType)!;
  const first = await ownProject(ctx.deps.db, me, input.prnProjectId);
  const usedBytes = type === PrnUpdateType.DATA_CAPACITY ? await usedBytesOf(ctx.deps, first) : 0;
  const result = await ctx.deps.db.transaction(async (tx) => {
    await billing.api.lockWallet(tx, me, now);
    const [replay] = await tx
      .select()
      .from(prnUpgrades)
      .where(and(eq(prnUpgrades.userId, me), eq(prnUpgrades.idempotencyKey, input.idempotencyKey)));
    if (replay) {
      if (replay.projectId !== first.id || replay.updateType !== type) throw new ApiError(Msg.IDEMPOTENCY_KEY_REUSED);
      return { row: replay, replayed: true };
    }
    const project = await ownProject(tx, me, input.prnProjectId, true);
    if (await billing.api.hasBlockingBills(tx, me, 2, now)) throw new ApiError(Msg.UNPAID_BILLS);
    const [open] = await tx
      .select({ id: prnUpgrades.id })
      .from(prnUpgrades)
      .where(and(eq(prnUpgrades.projectId, project.id), eq(prnUpgrades.status, PrnUpgradeStatus.UPGRADING)));
    if (open) throw new ApiError(Msg.PRN_UPGRADE_OPEN);
    const { from, to, diff } = await checkUpgrade(ctx, tx, project, type, input.toValue, usedBytes);
    const bill =
      diff.priceDiffCents > 0
        ? await insertPaidBill(tx, {
            userId: me,
            serviceName: `${project.name} · ${valueOf(from, type)} → ${valueOf(to, type)}`,
            cents: diff.priceDiffCents,
            cycle: project.cycle,
            periodStart: now,
            periodEnd: project.periodEnd,
            detail: {
              nodeCount: to.nodeCount,
              hostConfiguration: to.hostConfig,
              dataCapacityGb: to.dataCapacityGb,
              cloudPlatform: project.cloud,
            },
            dedupeKey: `prn-upgrade:${me}:${input.idempotencyKey}`,
            now,
          })
        : null;
    const [row] = await tx
      .insert(prnUpgrades)
      .values({
        projectId: project.id,
        userId: me,
        updateType: type,
        fromValue: valueOf(from, type),
        toValue: valueOf(to, type),
        priceDiffCents: diff.priceDiffCents,
        status: PrnUpgradeStatus.UPGRADING,
        billId: bill?.id ?? null,
        idempotencyKey: input.idempotencyKey,
        createdAt: now,
      })
      .returning();
    // The new peers hold the city node's resources from now on (the job adds them to the network).
    if (type === PrnUpdateType.NODE_COUNT)
      await tx
        .update(prnProjects)
        .set({ nodeCount: to.nodeCount, updatedAt: now })
        .where(eq(prnProjects.id, project.id));
    if (type === PrnUpdateType.DATA_CAPACITY)
      await tx
        .update(prnProjects)
        .set({ dataCapacityGb: to.dataCapacityGb, updatedAt: now })
        .where(eq(prnProjects.id, project.id));
    await schedule(tx, JOB_UPGRADE, { upgradeId: row.id }, { runAt: now, dedupeKey: `${JOB_UPGRADE}:${row.id}` });
    return { row, replayed: false };
  });
  const [out] = await upgradesOut(ctx.deps.db, [result.row]);
  return { ...out, replayed: result.replayed };
}
