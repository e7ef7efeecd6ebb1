import { and, count, desc, eq, gte, ilike } from "drizzle-orm";
import { Msg } from "#contract/messages.ts";
import { ProjectStatus, STATS_RANGES } from "#contract/public-chain-codes.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { cityNodes } from "#backend/db/tables.ts";
import type { Deps } from "#backend/deps.ts";
import { ApiError, fieldError } from "#backend/http/errors.ts";
import type { Payload } from "#backend/http/router.ts";
import chain from "#backend/domains/chain/index.ts";
import { chains } from "#backend/domains/chain/tables.ts";
import { scheduleDeploy } from "#backend/domains/public-chain/jobs.ts";
import { newProjectKey, openProjectKey } from "#backend/domains/public-chain/keys.ts";
import { moveProject } from "#backend/domains/public-chain/machine.ts";
import { chinaDay, lastDays, planActive } from "#backend/domains/public-chain/rules.ts";
import {
  pubChainMeter,
  pubChainOrgs,
  pubChainPlans,
  pubChainProjectTransitions,
  pubChainProjects,
} from "#backend/domains/public-chain/tables.ts";
import { flushRequests, requestsOn, type ProjectRow } from "#backend/domains/public-chain/meter.ts";
import { escapeLike, type Ctx } from "./shared.ts";

/* ----------------------------------------------- projects ----------------------------------------------- */

async function projectOut(db: Db | Tx, deps: Deps, p: ProjectRow) {
  const [row] = await db
    .select({ node: cityNodes })
    .from(pubChainPlans)
    .innerJoin(pubChainOrgs, eq(pubChainOrgs.id, pubChainPlans.orgId))
    .innerJoin(cityNodes, eq(cityNodes.id, pubChainOrgs.cityNodeId))
    .where(eq(pubChainPlans.id, p.planId));
  const today = await requestsOn(deps.db, p.id, chinaDay(deps.now()));
  const [chainRow] = await db.select({ chainId: chains.chainId }).from(chains).where(eq(chains.name, p.chain));
  return {
    projectId: p.id,
    planId: p.planId,
    orgName: row?.node.name ?? "",
    orgNameZh: row?.node.nameZh ?? "",
    name: p.name,
    framework: p.framework,
    chain: p.chain,
    chainId: chainRow?.chainId ?? null,
    dailyRequests: p.dailyRequests,
    status: p.status,
    failReason: p.failReason,
    keyProvisioned: !!p.keyHash,
    keyEnabled: p.keyEnabled,
    keyHint: p.keyHint,
    endpointPath: p.keyHash ? `/chain/rpc/…${p.keyHint}` : null,
    headerEndpointPath: "/chain/rpc",
    requestsToday: today,
    createdAt: p.createdAt.toISOString(),
  };
}

/** The caller's project, locked for the rest of `tx` when asked; another user's is not found. */
export async function ownProject(db: Db | Tx, userId: number, projectId: number, lock = false) {
  const q = db
    .select()
    .from(pubChainProjects)
    .where(and(eq(pubChainProjects.id, projectId), eq(pubChainProjects.userId, userId)));
  const [row] = lock ? await q.for("update") : await q;
  if (!row) throw new ApiError(Msg.NOT_FOUND);
  return row;
}

/** §5 Public-chain project: name unique per user, framework, daily requests in the plan's range, project maximum, plan active. */
export async function createProject(input: Payload<"/sys/opc/project/create">, ctx: Ctx) {
  const me = ctx.user.id;
  const now = ctx.deps.now();
  const created = await ctx.deps.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ plan: pubChainPlans, org: pubChainOrgs })
      .from(pubChainPlans)
      .innerJoin(pubChainOrgs, eq(pubChainOrgs.id, pubChainPlans.orgId))
      .where(and(eq(pubChainPlans.id, input.planId), eq(pubChainPlans.userId, me)))
      .for("update", { of: pubChainPlans });
    if (!row) throw new ApiError(Msg.NOT_FOUND);
    if (!planActive(row.plan, now)) throw new ApiError(Msg.PLAN_DEACTIVATED);
    if (!row.org.frameworks.includes(input.framework))
      throw fieldError("framework", "publicChain:validation.framework");
    const daily = Number(input.dailyRequests);
    if (daily < row.org.dayReqMin || daily > row.org.dayReqMax) {
      throw new ApiError(Msg.DAILY_REQUESTS_OUT_OF_RANGE, {
        fieldErrors: { dailyRequests: [Msg.DAILY_REQUESTS_OUT_OF_RANGE] },
        min: row.org.dayReqMin,
        max: row.org.dayReqMax,
      });
    }
    const [taken] = await tx
      .select({ id: pubChainProjects.id })
      .from(pubChainProjects)
      .where(and(eq(pubChainProjects.userId, me), eq(pubChainProjects.name, input.name)));
    if (taken) throw new ApiError(Msg.PROJECT_NAME_TAKEN, { fieldErrors: { name: [Msg.PROJECT_NAME_TAKEN] } });
    const [{ n }] = await tx
      .select({ n: count() })
      .from(pubChainProjects)
      .where(eq(pubChainProjects.planId, row.plan.id));
    if (n >= row.org.projectMax) throw new ApiError(Msg.PROJECT_LIMIT_REACHED, { max: row.org.projectMax });
    const [project] = await tx
      .insert(pubChainProjects)
      .values({
        userId: me,
        planId: row.plan.id,
        name: input.name,
        framework: input.framework,
        chain: chain.api.OPEN_ALLIANCE,
        dailyRequests: daily,
        status: ProjectStatus.PENDING_DEPLOYMENT,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    await scheduleDeploy(tx, project.id, 0, now);
    return project;
  });
  return projectOut(ctx.deps.db, ctx.deps, created);
}

export async function listProjects(input: Payload<"/sys/opc/project/list">, ctx: Ctx) {
  const db = ctx.deps.db;
  if (input.planId) {
    const [plan] = await db
      .select({ id: pubChainPlans.id })
      .from(pubChainPlans)
      .where(and(eq(pubChainPlans.id, input.planId), eq(pubChainPlans.userId, ctx.user.id)));
    if (!plan) throw new ApiError(Msg.NOT_FOUND);
  }
  const where = and(
    eq(pubChainProjects.userId, ctx.user.id),
    input.planId ? eq(pubChainProjects.planId, input.planId) : undefined,
    input.name ? ilike(pubChainProjects.name, `%${escapeLike(input.name)}%`) : undefined,
  );
  const [{ total }] = await db.select({ total: count() }).from(pubChainProjects).where(where);
  const rows = await db
    .select()
    .from(pubChainProjects)
    .where(where)
    .orderBy(desc(pubChainProjects.id))
    .limit(input.pageSize)
    .offset((input.pageIndex - 1) * input.pageSize);
  const out = [];
  for (const p of rows) out.push(await projectOut(db, ctx.deps, p));
  return { page: { rows: out, total, pageIndex: input.pageIndex, pageSize: input.pageSize } };
}

export async function projectDetail(input: Payload<"/sys/opc/project/detail">, ctx: Ctx) {
  return projectOut(ctx.deps.db, ctx.deps, await ownProject(ctx.deps.db, ctx.user.id, input.projectId));
}

function userMove(event: "enable" | "deactivate") {
  return async (input: { projectId: number }, ctx: Ctx) => {
    const now = ctx.deps.now();
    const row = await ctx.deps.db.transaction(async (tx) =>
      moveProject(tx, await ownProject(tx, ctx.user.id, input.projectId, true), event, "user", now),
    );
    return projectOut(ctx.deps.db, ctx.deps, row);
  };
}

export const enableProject = userMove("enable");

export const deactivateProject = userMove("deactivate");

/** A failed deployment queued again (5 → 1): a new job, with its own dedupe key per attempt. */
export async function redeployProject(input: Payload<"/sys/opc/project/redeploy">, ctx: Ctx) {
  const now = ctx.deps.now();
  const row = await ctx.deps.db.transaction(async (tx) => {
    const moved = await moveProject(
      tx,
      await ownProject(tx, ctx.user.id, input.projectId, true),
      "redeploy",
      "user",
      now,
    );
    const [{ n }] = await tx
      .select({ n: count() })
      .from(pubChainProjectTransitions)
      .where(and(eq(pubChainProjectTransitions.projectId, moved.id), eq(pubChainProjectTransitions.event, "redeploy")));
    await scheduleDeploy(tx, moved.id, n, now);
    return moved;
  });
  return projectOut(ctx.deps.db, ctx.deps, row);
}

/** The project key: show (the key itself), regenerate (a new one; the old one stops at once), enable, disable. */
export async function projectKey(input: Payload<"/sys/opc/project/key">, ctx: Ctx) {
  const env = ctx.deps.env;
  return ctx.deps.db.transaction(async (tx) => {
    const p = await ownProject(tx, ctx.user.id, input.projectId, true);
    if (!p.keyHash || !p.keySealed) throw new ApiError(Msg.PROJECT_KEY_NOT_READY);
    let row = p;
    let apiKey: string | null = null;
    if (input.action === "show") apiKey = openProjectKey(env, p.keySealed);
    else if (input.action === "regenerate") {
      const fresh = newProjectKey(env);
      apiKey = fresh.key;
      [row] = await tx
        .update(pubChainProjects)
        .set({
          keyHash: fresh.keyHash,
          keySealed: fresh.keySealed,
          keyHint: fresh.keyHint,
          keyCreatedAt: ctx.deps.now(),
          updatedAt: ctx.deps.now(),
        })
        .where(eq(pubChainProjects.id, p.id))
        .returning();
    } else {
      [row] = await tx
        .update(pubChainProjects)
        .set({ keyEnabled: input.action === "enable", updatedAt: ctx.deps.now() })
        .where(eq(pubChainProjects.id, p.id))
        .returning();
    }
    return { projectId: row.id, keyEnabled: row.keyEnabled, keyHint: row.keyHint, apiKey };
  });
}

/** §9 plan statistics: requests per day and method from the meter, over 7 days, 1 month or 3 months. */
export async function projectStats(input: Payload<"/sys/opc/project/stats">, ctx: Ctx) {
  const p = await ownProject(ctx.deps.db, ctx.user.id, input.projectId);
  const days = lastDays(ctx.deps.now(), STATS_RANGES[input.range]);
  await flushRequests(ctx.deps.db);
  const rows = await ctx.deps.db
    .select({
      day: pubChainMeter.day,
      method: pubChainMeter.method,
      requests: pubChainMeter.requests,
      calls: pubChainMeter.calls,
    })
    .from(pubChainMeter)
    .where(and(eq(pubChainMeter.projectId, p.id), gte(pubChainMeter.day, days[0])))
    .orderBy(pubChainMeter.day, pubChainMeter.method);
  return { range: input.range, days, rows, total: rows.reduce((n, r) => n + r.requests, 0) };
}
