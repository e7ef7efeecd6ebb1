import { and, count, desc, eq, ne } from "drizzle-orm";
import {
  PRN_CYCLES,
  PRN_FRAMEWORKS,
  PRN_PEERS_MAX,
  PRN_PEERS_MIN,
  PRN_YEAR_MONTHS,
  PrnStatus,
  consensusOf,
  prnCycleDays,
} from "#contract/dedicated-nodes-codes.ts";
import { Msg } from "#contract/messages.ts";
import { sameServiceName } from "#contract/services.ts";
import { cityNodes } from "#backend/db/tables.ts";
import { ApiError, fieldError } from "#backend/http/errors.ts";
import type { Payload } from "#backend/http/router.ts";
import { schedule } from "#backend/jobs/runner.ts";
import billing from "#backend/domains/billing/index.ts";
import { JOB_DEPLOY, JOB_PURGE, stopNetwork } from "#backend/domains/dedicated-nodes/job-kinds.ts";
import { prnProjectMachine } from "#backend/domains/dedicated-nodes/machine.ts";
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
} from "#backend/domains/dedicated-nodes/projects.ts";
import { periodCents, periodEndOf } from "#backend/domains/dedicated-nodes/rules.ts";
import { priceBook } from "#backend/domains/dedicated-nodes/prices.ts";
import { prnProjects } from "#backend/domains/dedicated-nodes/tables.ts";
import { isUniqueViolation } from "#backend/db/errors.ts";
import type { Ctx } from "./shared.ts";

/** Frameworks, clouds and regions with their free peers, host configurations, data capacities and prices. */
export async function options(_input: Payload<"/sys/prn/options">, ctx: Ctx) {
  const db = ctx.deps.db;
  const book = await priceBook(db);
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
    hostConfigs: book.hosts.map((h) => ({ ...h })),
    dataCapacities: book.capacities.map((d) => ({ ...d })),
    peersMin: PRN_PEERS_MIN,
    peersMax: PRN_PEERS_MAX,
    basePricePerMonthCents: book.basePricePerMonthCents,
    yearMonths: PRN_YEAR_MONTHS,
    cycles: [...PRN_CYCLES],
  };
}

export async function quote(input: Payload<"/sys/prn/quote">, ctx: Ctx) {
  const config = { nodeCount: input.nodeCount, hostConfig: input.hostConfig, dataCapacityGb: input.dataCapacityGb };
  const book = await priceBook(ctx.deps.db);
  const month = periodCents(config, 2, book);
  const year = periodCents(config, 1, book);
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
  const db = ctx.deps.db;
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
  const now = ctx.deps.now();
  const config = { nodeCount: input.nodeCount, hostConfig: input.hostConfig, dataCapacityGb: input.dataCapacityGb };
  if (periodCents(config, input.cycle, await priceBook(ctx.deps.db)) === null) throw new ApiError(Msg.INVALID_PARAMS);
  if (!consensusOf(input.framework).includes(input.consensus))
    throw fieldError("consensus", Msg.PRN_CONSENSUS_INVALID, Msg.PRN_CONSENSUS_INVALID);
  const sealed = sealPassword(ctx.deps, input.password);
  const result = await ctx.deps.db.transaction(async (tx) => {
    await billing.api.lockWallet(tx, me, now);
    // The price charged is read in the charge's transaction (docs/decisions/073).
    const price = periodCents(config, input.cycle, await priceBook(tx))!;
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
  const [out] = await projectsOut(ctx.deps.db, [result.row]);
  return { ...out, replayed: result.replayed };
}

/** The project with its network as the provisioner reports it now. */
export async function detail(input: Payload<"/sys/prn/detail">, ctx: Ctx) {
  const project = await ownProject(ctx.deps.db, ctx.user.id, input.prnProjectId);
  const [out] = await projectsOut(ctx.deps.db, [project]);
  const status =
    project.purgedAt || project.status === PrnStatus.NOT_DEPLOYED
      ? null
      : await networks.status(ctx.deps, networkOf(project)).catch(() => null);
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

/* ------------------------------------------ password, stop, try it ------------------------------------------ */

/** The gateway's authorized password: the network takes it at once (running projects only). */
export async function changePassword(input: Payload<"/sys/prn/password">, ctx: Ctx) {
  const project = await ownProject(ctx.deps.db, ctx.user.id, input.prnProjectId);
  if (input.password !== input.confirmPassword)
    throw fieldError("confirmPassword", Msg.PRN_PASSWORD_MISMATCH, Msg.PRN_PASSWORD_MISMATCH);
  if (project.status !== PrnStatus.RUNNING) throw new ApiError(Msg.PRN_NOT_ALLOWED_IN_STATUS);
  try {
    await networks.setCredentials(ctx.deps, networkOf(project), {
      user: project.authUser,
      password: input.password,
    });
  } catch (error) {
    console.warn(
      `[dedicated-nodes] credentials of ${networkOf(project)} not changed: ${error instanceof Error ? error.message : String(error)}`,
    );
    throw new ApiError(Msg.PRN_NETWORK_FAILED);
  }
  await ctx.deps.db.update(prnProjects).set({ updatedAt: ctx.deps.now() }).where(eq(prnProjects.id, project.id));
  return { prnProjectId: project.id };
}

/** Unsubscribe (3 → 6) or delete (4, 6 → 5): the nodes stop now, the data goes at the period's end (a failed deployment's at once). */
async function endProject(ctx: Ctx, projectId: number, event: "unsubscribe" | "delete", confirmName?: string) {
  const now = ctx.deps.now();
  const project = await ctx.deps.db.transaction(async (tx) => {
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
  if (!project.purgedAt) await stopNetwork(ctx.deps, project);
  return { prnProjectId: project.id, status: project.status, purgeAt: project.purgeAt?.toISOString() ?? null };
}

export const unsubscribe = (input: Payload<"/sys/prn/unsubscribe">, ctx: Ctx) =>
  endProject(ctx, input.prnProjectId, "unsubscribe", input.confirmName);

export const remove = (input: Payload<"/sys/prn/delete">, ctx: Ctx) => endProject(ctx, input.prnProjectId, "delete");

/** "Try it": one JSON-RPC call through the project's gateway, answered as the gateway answered (401, 503 …). */
export async function tryIt(input: Payload<"/sys/prn/tryIt">, ctx: Ctx) {
  const project = await ownProject(ctx.deps.db, ctx.user.id, input.prnProjectId);
  if (!HOLDING.includes(project.status) && project.status !== PrnStatus.UNSUBSCRIBED)
    throw new ApiError(Msg.PRN_NOT_ALLOWED_IN_STATUS);
  const params = input.params ? (JSON.parse(input.params) as unknown[]) : [];
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: input.method, params });
  const answer = await networks
    .gateway(ctx.deps, networkOf(project), { user: project.authUser, password: input.password }, body)
    .catch((error: unknown) => {
      console.warn(
        `[dedicated-nodes] gateway of ${networkOf(project)}: ${error instanceof Error ? error.message : String(error)}`,
      );
      throw new ApiError(Msg.PRN_NETWORK_FAILED);
    });
  return { status: answer.status, body: answer.body ?? null };
}
