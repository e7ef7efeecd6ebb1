import { and, count, desc, eq, ne } from "drizzle-orm";
import {
  PRN_BASE_PRICE_PER_MONTH_CENTS,
  PRN_CYCLES,
  PRN_DATA_CAPACITIES,
  PRN_FRAMEWORKS,
  PRN_HOST_CONFIGS,
  PRN_PEERS_MAX,
  PRN_PEERS_MIN,
  PRN_UPDATE_TYPES,
  PRN_YEAR_MONTHS,
  PrnStatus,
  PrnUpdateType,
  PrnUpgradeStatus,
  consensusOf,
  prnCycleDays,
  type PrnUpdateTypeValue,
} from "#contract/dedicated-nodes-codes.ts";
import { Msg } from "#contract/messages.ts";
import { sameServiceName } from "#contract/services.ts";
import { cityNodes } from "#backend/db/tables.ts";
import { ApiError, fieldError } from "#backend/http/errors.ts";
import type { Payload, SignedInContext } from "#backend/http/router.ts";
import { schedule } from "#backend/jobs/runner.ts";
import billing from "#backend/domains/billing/index.ts";
import { JOB_DEPLOY, JOB_PURGE, JOB_UPGRADE, stopNetwork } from "./jobs.ts";
import { prnProjectMachine } from "./machine.ts";
import {
  HOLDING,
  freeResources,
  insertPaidBill,
  nameTaken,
  networkOf,
  networks,
  ownProject,
  projectsOut,
  sealPassword,
  upgradesOut,
  usedBytesOf,
  type ProjectRow,
} from "./projects.ts";
import {
  applyUpgrade,
  periodCents,
  periodEndOf,
  remainingDays,
  upgradeDiffCents,
  upgradeValues,
  valueOf,
  type Configuration,
} from "./rules.ts";
import { prnProjects, prnUpgrades } from "./tables.ts";

/** The handlers of dedicated nodes (contract/dedicated-nodes.ts; docs/decisions/047). Every project is looked up with its owner. */

type Ctx = SignedInContext;
const V = (key: string) => `dedicatedNodeRules:validation.${key}`;
const isUniqueViolation = (error: unknown) => {
  const e = error as { code?: string; cause?: { code?: string } } | null;
  return e?.code === "23505" || e?.cause?.code === "23505";
};
const configOf = (p: ProjectRow): Configuration => ({
  nodeCount: p.nodeCount,
  hostConfig: p.hostConfig,
  dataCapacityGb: p.dataCapacityGb,
});

/** Frameworks, clouds and regions with their free peers, host configurations, data capacities and prices. */
export async function options(_input: Payload<"/sys/prn/options">, ctx: Ctx) {
  const db = ctx.services.db;
  const nodes = await db.select().from(cityNodes).orderBy(cityNodes.id);
  const clouds: {
    cloud: string;
    cloudZh: string | null;
    regions: {
      nodeId: number;
      code: string;
      name: string;
      nameZh: string;
      address: string;
      addressZh: string | null;
      freePeers: number;
    }[];
  }[] = [];
  for (const node of nodes) {
    const free = await freeResources(db, node.id);
    let cloud = clouds.find((c) => c.cloud === node.cloudProvider);
    if (!cloud) clouds.push((cloud = { cloud: node.cloudProvider, cloudZh: node.cloudProviderZh, regions: [] }));
    cloud.regions.push({
      nodeId: node.id,
      code: node.code,
      name: node.name,
      nameZh: node.nameZh,
      address: node.address,
      addressZh: node.addressZh,
      freePeers: free?.freePeers ?? 0,
    });
  }
  return {
    frameworks: PRN_FRAMEWORKS.map((f) => ({ framework: f.framework, label: f.label, consensus: [...f.consensus] })),
    clouds,
    hostConfigs: PRN_HOST_CONFIGS.map((h) => ({ ...h })),
    dataCapacities: PRN_DATA_CAPACITIES.map((d) => ({ ...d })),
    peersMin: PRN_PEERS_MIN,
    peersMax: PRN_PEERS_MAX,
    basePricePerMonthCents: PRN_BASE_PRICE_PER_MONTH_CENTS,
    yearMonths: PRN_YEAR_MONTHS,
    cycles: [...PRN_CYCLES],
  };
}

export async function quote(input: Payload<"/sys/prn/quote">, _ctx: Ctx) {
  const config = { nodeCount: input.nodeCount, hostConfig: input.hostConfig, dataCapacityGb: input.dataCapacityGb };
  const month = periodCents(config, 2);
  const year = periodCents(config, 1);
  if (month === null || year === null) throw new ApiError(Msg.INVALID_PARAMS);
  return {
    monthCents: month,
    yearCents: year,
    cycle: input.cycle,
    priceCents: input.cycle === 1 ? year : month,
    periodDays: prnCycleDays(input.cycle),
  };
}

export async function list(input: Payload<"/sys/prn/list">, ctx: Ctx) {
  const db = ctx.services.db;
  const where = and(
    eq(prnProjects.userId, ctx.user.id),
    input.status === undefined ? ne(prnProjects.status, PrnStatus.DELETED) : eq(prnProjects.status, input.status),
  );
  const [{ total }] = await db.select({ total: count() }).from(prnProjects).where(where);
  const rows = await db
    .select()
    .from(prnProjects)
    .where(where)
    .orderBy(desc(prnProjects.id))
    .limit(input.pageSize)
    .offset((input.pageIndex - 1) * input.pageSize);
  return { page: { rows: await projectsOut(db, rows), total, pageIndex: input.pageIndex, pageSize: input.pageSize } };
}

/**
 * A new project: §5 rules re-checked here (name unique among live networks, region of the catalogue and of the
 * cloud, its free peers and capacity: "Insufficient resources"), the payType 2 bill guard, the first period paid
 * from the balance (a paid dedicated-node bill), then the deploy job. The same idempotency key answers the first.
 */
export async function create(input: Payload<"/sys/prn/create">, ctx: Ctx) {
  const me = ctx.user.id;
  const now = ctx.services.now();
  const config = { nodeCount: input.nodeCount, hostConfig: input.hostConfig, dataCapacityGb: input.dataCapacityGb };
  const price = periodCents(config, input.cycle);
  if (price === null) throw new ApiError(Msg.INVALID_PARAMS);
  if (!consensusOf(input.framework).includes(input.consensus))
    throw fieldError("consensus", Msg.PRN_CONSENSUS_INVALID, Msg.PRN_CONSENSUS_INVALID);
  const sealed = sealPassword(ctx.services, input.password);
  const result = await ctx.services.db.transaction(async (tx) => {
    await billing.api.lockWallet(tx, me, now);
    const [replay] = await tx
      .select()
      .from(prnProjects)
      .where(and(eq(prnProjects.userId, me), eq(prnProjects.idempotencyKey, input.idempotencyKey)));
    if (replay) {
      if (replay.name !== input.name || replay.nodeCount !== input.nodeCount)
        throw new ApiError(Msg.IDEMPOTENCY_KEY_REUSED);
      return { row: replay, replayed: true };
    }
    if (await billing.api.hasBlockingBills(tx, me, 2, now)) throw new ApiError(Msg.UNPAID_BILLS);
    const [node] = await tx.select().from(cityNodes).where(eq(cityNodes.id, input.nodeId)).for("update");
    if (!node || node.cloudProvider !== input.cloud)
      throw fieldError("nodeId", Msg.PRN_REGION_UNKNOWN, Msg.PRN_REGION_UNKNOWN);
    if (await nameTaken(tx, input.name)) throw fieldError("name", Msg.PRN_NAME_TAKEN, Msg.PRN_NAME_TAKEN);
    const free = await freeResources(tx, node.id);
    if (!free || free.freePeers < input.nodeCount || free.freeGb < input.nodeCount * input.dataCapacityGb) {
      throw fieldError("nodeCount", Msg.INSUFFICIENT_RESOURCES, Msg.INSUFFICIENT_RESOURCES);
    }
    const periodEnd = periodEndOf(now, input.cycle);
    const bill = await insertPaidBill(tx, {
      userId: me,
      serviceName: `${input.name} · ${input.nodeCount} × ${input.hostConfig}`,
      cents: price,
      cycle: input.cycle,
      periodStart: now,
      periodEnd,
      detail: {
        nodeCount: input.nodeCount,
        hostConfiguration: input.hostConfig,
        dataCapacityGb: input.dataCapacityGb,
        cloudPlatform: input.cloud,
        region: node.code,
      },
      dedupeKey: `prn-create:${me}:${input.idempotencyKey}`,
      now,
    });
    const [row] = await tx
      .insert(prnProjects)
      .values({
        userId: me,
        name: input.name,
        framework: input.framework,
        consensus: input.consensus,
        cloud: input.cloud,
        cityNodeId: node.id,
        ...config,
        cycle: input.cycle,
        authUser: input.authUser,
        passwordSealed: sealed,
        status: PrnStatus.NOT_DEPLOYED,
        priceCents: price,
        periodStart: now,
        periodEnd,
        billId: bill.id,
        idempotencyKey: input.idempotencyKey,
        createdAt: now,
        updatedAt: now,
      })
      .returning()
      .catch((error: unknown) => {
        // Another project took the name since the check (the partial unique index on live names).
        if (isUniqueViolation(error)) throw fieldError("name", Msg.PRN_NAME_TAKEN, Msg.PRN_NAME_TAKEN);
        throw error;
      });
    await schedule(tx, JOB_DEPLOY, { projectId: row.id }, { runAt: now, dedupeKey: `${JOB_DEPLOY}:${row.id}` });
    return { row, replayed: false };
  });
  const [out] = await projectsOut(ctx.services.db, [result.row]);
  return { ...out, replayed: result.replayed };
}

/** The project with its network as the provisioner reports it now. */
export async function detail(input: Payload<"/sys/prn/detail">, ctx: Ctx) {
  const project = await ownProject(ctx.services.db, ctx.user.id, input.prnProjectId);
  const [out] = await projectsOut(ctx.services.db, [project]);
  const status =
    project.purgedAt || project.status === PrnStatus.NOT_DEPLOYED
      ? null
      : await networks.status(ctx.services, networkOf(project)).catch(() => null);
  return {
    ...out,
    network: status
      ? {
          chainId: status.chainId,
          state: status.state,
          consensus: status.consensus,
          peers: status.peers,
          nodes: status.nodes,
          caCertificatePem: status.caCertificatePem,
        }
      : null,
  };
}

/* ------------------------------------------------ upgrades ------------------------------------------------ */

export async function upgradeList(input: Payload<"/sys/prn/upgrade/list">, ctx: Ctx) {
  const db = ctx.services.db;
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
  const [row] = await ctx.services.db
    .select()
    .from(prnUpgrades)
    .where(and(eq(prnUpgrades.id, input.prnProjectUpdateId), eq(prnUpgrades.userId, ctx.user.id)));
  if (!row) throw new ApiError(Msg.NOT_FOUND);
  const [out] = await upgradesOut(ctx.services.db, [row]);
  return out;
}

export async function upgradeOptions(input: Payload<"/sys/prn/upgrade/options">, ctx: Ctx) {
  const db = ctx.services.db;
  const now = ctx.services.now();
  const project = await ownProject(db, ctx.user.id, input.prnProjectId);
  const usedBytes = await usedBytesOf(ctx.services, project);
  const [open] = await db
    .select({ id: prnUpgrades.id })
    .from(prnUpgrades)
    .where(and(eq(prnUpgrades.projectId, project.id), eq(prnUpgrades.status, PrnUpgradeStatus.UPGRADING)));
  const config = configOf(project);
  const choices = (type: PrnUpdateTypeValue) =>
    upgradeValues(config, type, usedBytes).map((value) => {
      const diff = upgradeDiffCents(config, applyUpgrade(config, type, value)!, project.cycle, project.periodEnd, now)!;
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
  const now = ctx.services.now();
  if (project.status !== PrnStatus.RUNNING || project.suspended) throw new ApiError(Msg.PRN_NOT_ALLOWED_IN_STATUS);
  if (project.periodEnd.getTime() <= now.getTime()) throw new ApiError(Msg.PRN_PERIOD_ENDED);
  const from = configOf(project);
  const to = applyUpgrade(from, type, toValue.trim());
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
  const diff = upgradeDiffCents(from, to, project.cycle, project.periodEnd, now)!;
  return { from, to, diff };
}

const asType = (n: number) => ((PRN_UPDATE_TYPES as readonly number[]).includes(n) ? (n as PrnUpdateTypeValue) : null);

export async function upgradeQuote(input: Payload<"/sys/prn/upgrade/quote">, ctx: Ctx) {
  const project = await ownProject(ctx.services.db, ctx.user.id, input.prnProjectId);
  const type = asType(input.updateType)!;
  const { from, to, diff } = await checkUpgrade(
    ctx,
    ctx.services.db,
    project,
    type,
    input.toValue,
    await usedBytesOf(ctx.services, project),
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
  const now = ctx.services.now();
  const type = asType(input.updateType)!;
  const first = await ownProject(ctx.services.db, me, input.prnProjectId);
  const usedBytes = type === PrnUpdateType.DATA_CAPACITY ? await usedBytesOf(ctx.services, first) : 0;
  const result = await ctx.services.db.transaction(async (tx) => {
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
  const [out] = await upgradesOut(ctx.services.db, [result.row]);
  return { ...out, replayed: result.replayed };
}

/* ------------------------------------------ password, stop, try it ------------------------------------------ */

/** The gateway's authorized password: the network takes it at once (running projects only). */
export async function changePassword(input: Payload<"/sys/prn/password">, ctx: Ctx) {
  const project = await ownProject(ctx.services.db, ctx.user.id, input.prnProjectId);
  if (input.password !== input.confirmPassword)
    throw fieldError("confirmPassword", Msg.PRN_PASSWORD_MISMATCH, Msg.PRN_PASSWORD_MISMATCH);
  if (project.status !== PrnStatus.RUNNING) throw new ApiError(Msg.PRN_NOT_ALLOWED_IN_STATUS);
  try {
    await networks.setCredentials(ctx.services, networkOf(project), {
      user: project.authUser,
      password: input.password,
    });
  } catch (error) {
    console.warn(
      `[dedicated-nodes] credentials of ${networkOf(project)} not changed: ${error instanceof Error ? error.message : String(error)}`,
    );
    throw new ApiError(Msg.PRN_NETWORK_FAILED);
  }
  await ctx.services.db
    .update(prnProjects)
    .set({ updatedAt: ctx.services.now() })
    .where(eq(prnProjects.id, project.id));
  return { prnProjectId: project.id };
}

/** Unsubscribe (3 → 6) or delete (4, 6 → 5): the nodes stop now, the data goes at the period's end (a failed deployment's at once). */
async function endProject(ctx: Ctx, projectId: number, event: "unsubscribe" | "delete", confirmName?: string) {
  const now = ctx.services.now();
  const project = await ctx.services.db.transaction(async (tx) => {
    const p = await ownProject(tx, ctx.user.id, projectId, true);
    if (confirmName !== undefined && !sameServiceName(confirmName, p.name))
      throw fieldError("confirmName", "validation.nameMismatch");
    const outcome = prnProjectMachine.transition(p.status, event, "user");
    if (!outcome.ok) throw new ApiError(outcome.messageKey);
    const purgeAt =
      p.purgeAt ?? (p.status === PrnStatus.FAILED || p.periodEnd.getTime() < now.getTime() ? now : p.periodEnd);
    const [row] = await tx
      .update(prnProjects)
      .set({ status: outcome.to, purgeAt, updatedAt: now })
      .where(eq(prnProjects.id, p.id))
      .returning();
    if (!p.purgedAt)
      await schedule(
        tx,
        JOB_PURGE,
        { projectId: p.id },
        { runAt: purgeAt, dedupeKey: `${JOB_PURGE}:${p.id}:${purgeAt.toISOString()}` },
      );
    return row;
  });
  if (!project.purgedAt) await stopNetwork(ctx.services, project);
  return { prnProjectId: project.id, status: project.status, purgeAt: project.purgeAt?.toISOString() ?? null };
}

export const unsubscribe = (input: Payload<"/sys/prn/unsubscribe">, ctx: Ctx) =>
  endProject(ctx, input.prnProjectId, "unsubscribe", input.confirmName);
export const remove = (input: Payload<"/sys/prn/delete">, ctx: Ctx) => endProject(ctx, input.prnProjectId, "delete");

/** "Try it": one JSON-RPC call through the project's gateway, answered as the gateway answered (401, 503 …). */
export async function tryIt(input: Payload<"/sys/prn/tryIt">, ctx: Ctx) {
  const project = await ownProject(ctx.services.db, ctx.user.id, input.prnProjectId);
  if (!HOLDING.includes(project.status) && project.status !== PrnStatus.UNSUBSCRIBED)
    throw new ApiError(Msg.PRN_NOT_ALLOWED_IN_STATUS);
  const params = input.params ? (JSON.parse(input.params) as unknown[]) : [];
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: input.method, params });
  const answer = await networks
    .gateway(ctx.services, networkOf(project), { user: project.authUser, password: input.password }, body)
    .catch((error: unknown) => {
      console.warn(
        `[dedicated-nodes] gateway of ${networkOf(project)}: ${error instanceof Error ? error.message : String(error)}`,
      );
      throw new ApiError(Msg.PRN_NETWORK_FAILED);
    });
  return { status: answer.status, body: answer.body ?? null };
}
