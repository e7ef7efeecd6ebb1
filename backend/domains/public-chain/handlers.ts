import { and, count, desc, eq, gte, ilike, inArray, or, sql, sum } from "drizzle-orm";
import { bytesToHex, privateToAddress, toChecksumAddress } from "@ethereumjs/util";
import { randomBytes } from "node:crypto";
import { Wallet } from "ethers";
import { Msg } from "#contract/messages.ts";
import {
  GAS_RANGES,
  GasStatus,
  KeyType,
  PLAN_BILL_TYPE,
  PlanStatus,
  ProjectStatus,
  STATS_RANGES,
} from "#contract/public-chain-codes.ts";
import { toCents } from "#contract/rules.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { cityNodes } from "#backend/db/tables.ts";
import type { Deps } from "#backend/deps.ts";
import { ApiError, fieldError } from "#backend/http/errors.ts";
import type { Payload, SignedInContext } from "#backend/http/router.ts";
import billing from "#backend/domains/billing/index.ts";
import { bills } from "#backend/domains/billing/tables.ts";
import chain from "#backend/domains/chain/index.ts";
import { chainBlocks, chainTxs, chains } from "#backend/domains/chain/tables.ts";
import { paidBill } from "./bills.ts";
import { gasOf, startAssignment, transferAssignment } from "./gas.ts";
import { scheduleDeploy } from "./jobs.ts";
import { hashKey, newProjectKey, openCustodyKey, openProjectKey, sealCustodyKey } from "./keys.ts";
import { moveProject } from "./machine.ts";
import { addressOfPublicKey, checkedAddress, chinaDay, etherToWei, lastDays, planActive } from "./rules.ts";
import {
  pubChainAccounts,
  pubChainDailyUse,
  pubChainMeter,
  pubChainOrgs,
  pubChainPlans,
  pubChainProjectTransitions,
  pubChainProjects,
} from "./tables.ts";

/** The public chain's handlers (contract/public-chain.ts; docs/decisions/026). */

const DAY_MS = 86_400_000;
type Ctx = SignedInContext;
type ProjectRow = typeof pubChainProjects.$inferSelect;
type AccountRow = typeof pubChainAccounts.$inferSelect;

/* ------------------------------------------ organisation nodes ------------------------------------------ */

export async function queryPubOrgList(input: Payload<"/sys/pubChainOrg/queryPubOrgList">, ctx: Ctx) {
  const { pageIndex, pageSize, condition } = input.page;
  const me = ctx.user.id;
  try {
    const where = and(
      condition.orgId ? eq(pubChainOrgs.id, condition.orgId) : undefined,
      condition.appType ? eq(pubChainOrgs.appType, condition.appType) : undefined,
      condition.orgName
        ? or(
            ilike(cityNodes.name, `%${escapeLike(condition.orgName)}%`),
            ilike(cityNodes.nameZh, `%${escapeLike(condition.orgName)}%`),
          )
        : undefined,
    );
    const db = ctx.services.db;
    const [{ total }] = await db
      .select({ total: count() })
      .from(pubChainOrgs)
      .innerJoin(cityNodes, eq(cityNodes.id, pubChainOrgs.cityNodeId))
      .where(where);
    const rows = await db
      .select({ org: pubChainOrgs, node: cityNodes })
      .from(pubChainOrgs)
      .innerJoin(cityNodes, eq(cityNodes.id, pubChainOrgs.cityNodeId))
      .where(where)
      .orderBy(pubChainOrgs.id)
      .limit(pageSize)
      .offset((pageIndex - 1) * pageSize);
    const plans = await db.select().from(pubChainPlans).where(eq(pubChainPlans.userId, me));
    const counts = await projectCounts(
      db,
      plans.map((p) => p.id),
    );
    return {
      page: {
        rows: rows.map(({ org, node }) => {
          const plan = plans.find((p) => p.orgId === org.id);
          const projects = plan ? (counts.get(plan.id) ?? 0) : 0;
          return {
            orgId: org.id,
            orgCode: org.orgCode,
            orgName: node.name,
            orgNameZh: node.nameZh,
            opName: node.operator,
            opNameZh: node.operatorZh,
            planName: org.planName,
            planNameZh: org.planNameZh,
            appType: org.appType,
            priceCents: org.priceCents,
            periodDays: org.periodDays,
            userHaveOrg: !!plan,
            clientHaveOrgId: plan?.id ?? null,
            haveProjectMax: org.projectMax,
            haveProjectNum: projects,
            haveProject: projects > 0,
            haveDayMinReq: org.dayReqMin,
            haveDayMaxReq: org.dayReqMax,
            frameworks: org.frameworks,
          };
        }),
        total,
        pageIndex,
        pageSize,
      },
    };
  } catch (error) {
    console.error("[public-chain] organisation list failed:", error);
    throw new ApiError(Msg.PUBLIC_CHAIN_LIST_FAILED);
  }
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

async function projectCounts(db: Db | Tx, planIds: number[]) {
  if (!planIds.length) return new Map<number, number>();
  const rows = await db
    .select({ planId: pubChainProjects.planId, n: count() })
    .from(pubChainProjects)
    .where(inArray(pubChainProjects.planId, planIds))
    .groupBy(pubChainProjects.planId);
  return new Map(rows.map((r) => [r.planId, r.n]));
}

/* ------------------------------------------------ plans ------------------------------------------------ */

/**
 * Buys the plan of an organisation node from the balance: a paid bill (type 56), one `bill_payment` ledger
 * entry, the plan. One plan per node and user (§8); the same idempotency key answers the first purchase.
 */
export async function buyPlan(input: Payload<"/sys/opc/plan/buy">, ctx: Ctx) {
  const me = ctx.user.id;
  const now = ctx.services.now();
  return ctx.services.db.transaction(async (tx) => {
    await billing.api.lockWallet(tx, me, now);
    const [replay] = await tx
      .select()
      .from(pubChainPlans)
      .where(and(eq(pubChainPlans.userId, me), eq(pubChainPlans.idempotencyKey, input.idempotencyKey)));
    if (replay) {
      if (replay.orgId !== input.orgId) throw new ApiError(Msg.IDEMPOTENCY_KEY_REUSED);
      const [bill] = replay.billId ? await tx.select().from(bills).where(eq(bills.id, replay.billId)) : [];
      return { planId: replay.id, billId: bill.id, billNo: bill.billNo, replayed: true };
    }
    const [row] = await tx
      .select({ org: pubChainOrgs, node: cityNodes })
      .from(pubChainOrgs)
      .innerJoin(cityNodes, eq(cityNodes.id, pubChainOrgs.cityNodeId))
      .where(eq(pubChainOrgs.id, input.orgId));
    if (!row) throw new ApiError(Msg.NOT_FOUND);
    // SPEC §5 "Blocking by bills": unpaid usage bills block a new purchase, as they block a new service.
    if (await billing.api.hasBlockingBills(tx, me, 1, now)) throw new ApiError(Msg.UNPAID_BILLS);
    if (!row.org.selling) throw new ApiError(Msg.PLAN_NOT_FOR_SALE);
    const [held] = await tx
      .select({ id: pubChainPlans.id })
      .from(pubChainPlans)
      .where(and(eq(pubChainPlans.userId, me), eq(pubChainPlans.orgId, input.orgId)));
    if (held) throw new ApiError(Msg.PLAN_ALREADY_ON_NODE);
    const expiresAt = new Date(now.getTime() + row.org.periodDays * DAY_MS);
    const bill = await paidBill(tx, {
      userId: me,
      billType: PLAN_BILL_TYPE,
      serviceName: `${row.org.planName} · ${row.node.name}`,
      cents: row.org.priceCents,
      at: now,
      periodEnd: expiresAt,
      yearly: row.org.periodDays >= 365,
      prefix: "PC",
      dedupeKey: `pc-plan:${me}:${input.idempotencyKey}`,
    });
    if (bill.payCents > 0) {
      await billing.api.post(
        tx,
        {
          userId: me,
          kind: "bill_payment",
          amountCents: bill.payCents,
          refType: "bill",
          refId: bill.id,
          idempotencyKey: `pc-plan:${input.idempotencyKey}`,
        },
        now,
      );
    }
    const [plan] = await tx
      .insert(pubChainPlans)
      .values({
        userId: me,
        orgId: input.orgId,
        status: PlanStatus.ACTIVE,
        billId: bill.id,
        idempotencyKey: input.idempotencyKey,
        createdAt: now,
        expiresAt,
      })
      .returning();
    return { planId: plan.id, billId: bill.id, billNo: bill.billNo, replayed: false };
  });
}

export async function listPlans(_input: Payload<"/sys/opc/plan/list">, ctx: Ctx) {
  const db = ctx.services.db;
  const rows = await db
    .select({ plan: pubChainPlans, org: pubChainOrgs, node: cityNodes, billNo: bills.billNo })
    .from(pubChainPlans)
    .innerJoin(pubChainOrgs, eq(pubChainOrgs.id, pubChainPlans.orgId))
    .innerJoin(cityNodes, eq(cityNodes.id, pubChainOrgs.cityNodeId))
    .leftJoin(bills, eq(bills.id, pubChainPlans.billId))
    .where(eq(pubChainPlans.userId, ctx.user.id))
    .orderBy(desc(pubChainPlans.id));
  const counts = await projectCounts(
    db,
    rows.map((r) => r.plan.id),
  );
  const now = ctx.services.now();
  return rows.map(({ plan, org, node, billNo }) => ({
    planId: plan.id,
    orgId: org.id,
    orgName: node.name,
    orgNameZh: node.nameZh,
    planName: org.planName,
    planNameZh: org.planNameZh,
    status: planActive(plan, now) ? PlanStatus.ACTIVE : PlanStatus.DEACTIVATED,
    billId: plan.billId,
    billNo,
    createdAt: plan.createdAt.toISOString(),
    expiresAt: plan.expiresAt.toISOString(),
    projectMax: org.projectMax,
    projectNum: counts.get(plan.id) ?? 0,
  }));
}

/* ----------------------------------------------- projects ----------------------------------------------- */

async function projectOut(db: Db | Tx, deps: Deps, p: ProjectRow) {
  const [row] = await db
    .select({ node: cityNodes })
    .from(pubChainPlans)
    .innerJoin(pubChainOrgs, eq(pubChainOrgs.id, pubChainPlans.orgId))
    .innerJoin(cityNodes, eq(cityNodes.id, pubChainOrgs.cityNodeId))
    .where(eq(pubChainPlans.id, p.planId));
  const [today] = await db
    .select({ n: pubChainDailyUse.requests })
    .from(pubChainDailyUse)
    .where(and(eq(pubChainDailyUse.projectId, p.id), eq(pubChainDailyUse.day, chinaDay(deps.now()))));
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
    requestsToday: today?.n ?? 0,
    createdAt: p.createdAt.toISOString(),
  };
}

/** The caller's project, locked for the rest of `tx` when asked; another user's is not found. */
async function ownProject(db: Db | Tx, userId: number, projectId: number, lock = false) {
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
  const now = ctx.services.now();
  const created = await ctx.services.db.transaction(async (tx) => {
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
  return projectOut(ctx.services.db, ctx.services, created);
}

export async function listProjects(input: Payload<"/sys/opc/project/list">, ctx: Ctx) {
  const db = ctx.services.db;
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
  for (const p of rows) out.push(await projectOut(db, ctx.services, p));
  return { page: { rows: out, total, pageIndex: input.pageIndex, pageSize: input.pageSize } };
}

export async function projectDetail(input: Payload<"/sys/opc/project/detail">, ctx: Ctx) {
  return projectOut(ctx.services.db, ctx.services, await ownProject(ctx.services.db, ctx.user.id, input.projectId));
}

function userMove(event: "enable" | "deactivate") {
  return async (input: { projectId: number }, ctx: Ctx) => {
    const now = ctx.services.now();
    const row = await ctx.services.db.transaction(async (tx) =>
      moveProject(tx, await ownProject(tx, ctx.user.id, input.projectId, true), event, "user", now),
    );
    return projectOut(ctx.services.db, ctx.services, row);
  };
}
export const enableProject = userMove("enable");
export const deactivateProject = userMove("deactivate");

/** A failed deployment queued again (5 → 1): a new job, with its own dedupe key per attempt. */
export async function redeployProject(input: Payload<"/sys/opc/project/redeploy">, ctx: Ctx) {
  const now = ctx.services.now();
  const row = await ctx.services.db.transaction(async (tx) => {
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
  return projectOut(ctx.services.db, ctx.services, row);
}

/** The project key: show (the key itself), regenerate (a new one; the old one stops at once), enable, disable. */
export async function projectKey(input: Payload<"/sys/opc/project/key">, ctx: Ctx) {
  const env = ctx.services.env;
  return ctx.services.db.transaction(async (tx) => {
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
          keyCreatedAt: ctx.services.now(),
          updatedAt: ctx.services.now(),
        })
        .where(eq(pubChainProjects.id, p.id))
        .returning();
    } else {
      [row] = await tx
        .update(pubChainProjects)
        .set({ keyEnabled: input.action === "enable", updatedAt: ctx.services.now() })
        .where(eq(pubChainProjects.id, p.id))
        .returning();
    }
    return { projectId: row.id, keyEnabled: row.keyEnabled, keyHint: row.keyHint, apiKey };
  });
}

/** §9 plan statistics: requests per day and method from the meter, over 7 days, 1 month or 3 months. */
export async function projectStats(input: Payload<"/sys/opc/project/stats">, ctx: Ctx) {
  const p = await ownProject(ctx.services.db, ctx.user.id, input.projectId);
  const days = lastDays(ctx.services.now(), STATS_RANGES[input.range]);
  const rows = await ctx.services.db
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

/* -------------------------------------------- chain accounts -------------------------------------------- */

async function accountOut(deps: Deps, a: AccountRow, project: { name: string; chain: string }) {
  const gas = await gasOf(deps, project.chain, a.address);
  return {
    accountId: a.id,
    projectId: a.projectId,
    projectName: project.name,
    name: a.name,
    address: a.address,
    keyType: a.keyType,
    gasWei: gas === null ? null : gas.toString(),
    gasWarningWei: a.gasWarningWei,
    gasLow: gas !== null && gas < BigInt(a.gasWarningWei),
    createdAt: a.createdAt.toISOString(),
  };
}

async function ownAccount(db: Db | Tx, userId: number, accountId: number) {
  const [row] = await db
    .select({ account: pubChainAccounts, project: pubChainProjects })
    .from(pubChainAccounts)
    .innerJoin(pubChainProjects, eq(pubChainProjects.id, pubChainAccounts.projectId))
    .where(and(eq(pubChainAccounts.id, accountId), eq(pubChainAccounts.userId, userId)));
  if (!row) throw new ApiError(Msg.NOT_FOUND);
  return row;
}

/** §5 Chain account: name unique per user, address required, valid and unique per user, gas warning value. */
export async function createAccount(input: Payload<"/sys/opc/account/create">, ctx: Ctx) {
  const me = ctx.user.id;
  const now = ctx.services.now();
  const keyType = Number(input.keyType);
  let address: string | null;
  let keySealed: string | null = null;
  if (keyType === KeyType.CUSTODY) {
    const privateKey = randomBytes(32);
    address = toChecksumAddress(bytesToHex(privateToAddress(privateKey)));
    keySealed = sealCustodyKey(ctx.services.env, bytesToHex(privateKey));
  } else if (keyType === KeyType.PUBLIC_KEY) {
    address = addressOfPublicKey(input.publicKey ?? "");
    if (!address) throw new ApiError(Msg.BAD_CHAIN_ADDRESS, { fieldErrors: { publicKey: [Msg.BAD_CHAIN_ADDRESS] } });
  } else {
    address = checkedAddress(input.address ?? "");
    if (!address) throw new ApiError(Msg.BAD_CHAIN_ADDRESS, { fieldErrors: { address: [Msg.BAD_CHAIN_ADDRESS] } });
  }
  const account = await ctx.services.db.transaction(async (tx) => {
    const project = await ownProject(tx, me, input.projectId, true);
    const [sameName] = await tx
      .select({ id: pubChainAccounts.id })
      .from(pubChainAccounts)
      .where(and(eq(pubChainAccounts.userId, me), eq(pubChainAccounts.name, input.name)));
    if (sameName)
      throw new ApiError(Msg.CHAIN_ACCOUNT_NAME_TAKEN, { fieldErrors: { name: [Msg.CHAIN_ACCOUNT_NAME_TAKEN] } });
    const [sameAddress] = await tx
      .select({ id: pubChainAccounts.id })
      .from(pubChainAccounts)
      .where(and(eq(pubChainAccounts.userId, me), eq(pubChainAccounts.address, address)));
    if (sameAddress)
      throw new ApiError(Msg.CHAIN_ACCOUNT_ADDRESS_TAKEN, {
        fieldErrors: { address: [Msg.CHAIN_ACCOUNT_ADDRESS_TAKEN] },
      });
    const [row] = await tx
      .insert(pubChainAccounts)
      .values({
        userId: me,
        projectId: project.id,
        name: input.name,
        address,
        keyType,
        publicKey: keyType === KeyType.PUBLIC_KEY ? input.publicKey! : null,
        keySealed,
        gasWarningWei: etherToWei(input.gasWarning).toString(),
        createdAt: now,
      })
      .returning();
    return { row, project };
  });
  return accountOut(ctx.services, account.row, account.project);
}

export async function listAccounts(input: Payload<"/sys/opc/account/list">, ctx: Ctx) {
  const db = ctx.services.db;
  if (input.projectId) await ownProject(db, ctx.user.id, input.projectId);
  const where = and(
    eq(pubChainAccounts.userId, ctx.user.id),
    input.projectId ? eq(pubChainAccounts.projectId, input.projectId) : undefined,
  );
  const [{ total }] = await db.select({ total: count() }).from(pubChainAccounts).where(where);
  const rows = await db
    .select({ account: pubChainAccounts, project: pubChainProjects })
    .from(pubChainAccounts)
    .innerJoin(pubChainProjects, eq(pubChainProjects.id, pubChainAccounts.projectId))
    .where(where)
    .orderBy(desc(pubChainAccounts.id))
    .limit(input.pageSize)
    .offset((input.pageIndex - 1) * input.pageSize);
  const out = [];
  for (const r of rows) out.push(await accountOut(ctx.services, r.account, r.project));
  return { page: { rows: out, total, pageIndex: input.pageIndex, pageSize: input.pageSize } };
}

/** The account with its gas balance, and the gas its own transactions spent per day (receipts of the chain's log). */
export async function accountDetail(input: Payload<"/sys/opc/account/detail">, ctx: Ctx) {
  const db = ctx.services.db;
  const { account, project } = await ownAccount(db, ctx.user.id, input.accountId);
  const days = lastDays(ctx.services.now(), GAS_RANGES[input.gasRange]);
  const since = Math.floor(Date.parse(`${days[0]}T00:00:00+08:00`) / 1000);
  const [chainRow] = await db.select({ chainId: chains.chainId }).from(chains).where(eq(chains.name, project.chain));
  const txs = chainRow
    ? await db
        .select({ gasUsed: chainTxs.gasUsed, price: chainTxs.effectiveGasPrice, timestamp: chainBlocks.timestamp })
        .from(chainTxs)
        .innerJoin(
          chainBlocks,
          and(eq(chainBlocks.chainId, chainTxs.chainId), eq(chainBlocks.number, chainTxs.blockNumber)),
        )
        .where(
          and(
            eq(chainTxs.chainId, chainRow.chainId),
            sql`lower(${chainTxs.fromAddress}) = ${account.address.toLowerCase()}`,
            gte(chainBlocks.timestamp, since),
          ),
        )
    : [];
  const byDay = new Map(days.map((d) => [d, { day: d, wei: 0n, transactions: 0 }]));
  for (const t of txs) {
    const entry = byDay.get(chinaDay(new Date(t.timestamp * 1000)));
    if (!entry) continue;
    entry.wei += BigInt(t.gasUsed) * BigInt(t.price);
    entry.transactions += 1;
  }
  return {
    ...(await accountOut(ctx.services, account, project)),
    gasUsed: [...byDay.values()].map((d) => ({ ...d, wei: d.wei.toString() })),
  };
}

/** A custody account's key as a Web3 Secret Storage (v3, scrypt) keystore under the user's password. */
export async function accountKeystore(input: Payload<"/sys/opc/account/keystore">, ctx: Ctx) {
  const { account } = await ownAccount(ctx.services.db, ctx.user.id, input.accountId);
  if (account.keyType !== KeyType.CUSTODY || !account.keySealed) throw new ApiError(Msg.NOT_CUSTODY_ACCOUNT);
  const wallet = new Wallet(openCustodyKey(ctx.services.env, account.keySealed));
  const keystore = await wallet.encrypt(input.password);
  return {
    fileName: `UTC--${new Date().toISOString().replace(/:/g, "-")}--${account.address.slice(2).toLowerCase()}.json`,
    keystore,
  };
}

/**
 * Assigns gas from the balance (§9 bill type 50): a paid bill and one `bill_payment` ledger entry with the
 * assignment in one transaction, then a real transfer from the chain's treasury (gas.ts; a crash between the
 * two is finished or refunded by the recovery job). A failed transfer refunds the bill (one `refund` entry).
 * The same idempotency key answers the first assignment.
 */
export async function assignGas(input: Payload<"/sys/opc/account/assignGas">, ctx: Ctx) {
  const deps = ctx.services;
  const { account, project } = await ownAccount(deps.db, ctx.user.id, input.accountId);
  const started = await startAssignment(deps, {
    userId: ctx.user.id,
    account,
    project,
    amountCents: toCents(input.amount),
    idempotencyKey: input.idempotencyKey,
    now: deps.now(),
  });
  const row = started.replayed
    ? started.row
    : await transferAssignment(deps, started.row, project.chain, account.address);
  const [bill] = await deps.db.select().from(bills).where(eq(bills.id, row.billId));
  if (row.status === GasStatus.REFUNDED && !started.replayed)
    throw new ApiError(Msg.GAS_TRANSFER_FAILED, { billNo: bill.billNo });
  return {
    assignmentId: row.id,
    accountId: row.accountId,
    billId: bill.id,
    billNo: bill.billNo,
    amountCents: row.amountCents,
    wei: row.wei,
    status: row.status,
    txHash: row.txHash,
    failReason: row.failReason,
    replayed: started.replayed,
  };
}

/* ---------------------------------------------- the meter ---------------------------------------------- */

/** The enabled project a key opens (key enabled, project 16), or why not. */
export async function projectOfKey(
  db: Db,
  key: string,
): Promise<{ project: ProjectRow } | { refused: "unknown" | "key disabled" | "project not enabled" }> {
  const [project] = await db
    .select()
    .from(pubChainProjects)
    .where(eq(pubChainProjects.keyHash, hashKey(key)));
  if (!project) return { refused: "unknown" };
  if (!project.keyEnabled) return { refused: "key disabled" };
  if (project.status !== ProjectStatus.ENABLED) return { refused: "project not enabled" };
  return { project };
}

/**
 * Takes `units` of the project's daily limit for today (UTC+8) and meters the request per method, in one
 * transaction: false (and nothing metered) when it would go over the limit.
 */
export async function takeRequests(
  db: Db,
  project: ProjectRow,
  rows: { method: string; requests: number; calls: number }[],
  bytes: number,
  now: Date,
): Promise<boolean> {
  const units = rows.reduce((n, r) => n + r.requests, 0);
  const day = chinaDay(now);
  return db.transaction(async (tx) => {
    await tx.insert(pubChainDailyUse).values({ projectId: project.id, day, requests: 0 }).onConflictDoNothing();
    const taken = await tx
      .update(pubChainDailyUse)
      .set({ requests: sql`${pubChainDailyUse.requests} + ${units}` })
      .where(
        and(
          eq(pubChainDailyUse.projectId, project.id),
          eq(pubChainDailyUse.day, day),
          sql`${pubChainDailyUse.requests} + ${units} <= ${project.dailyRequests}`,
        ),
      )
      .returning({ requests: pubChainDailyUse.requests });
    if (!taken.length) return false;
    for (const [i, r] of rows.entries()) {
      const b = i === 0 ? bytes : 0;
      await tx
        .insert(pubChainMeter)
        .values({ projectId: project.id, day, method: r.method, requests: r.requests, calls: r.calls, bytes: b })
        .onConflictDoUpdate({
          target: [pubChainMeter.projectId, pubChainMeter.day, pubChainMeter.method],
          set: {
            requests: sql`${pubChainMeter.requests} + ${r.requests}`,
            calls: sql`${pubChainMeter.calls} + ${r.calls}`,
            bytes: sql`${pubChainMeter.bytes} + ${b}`,
          },
        });
    }
    return true;
  });
}

/** Requests counted today for a project (the meter's sum), for tests and the detail. */
export async function requestsOn(db: Db, projectId: number, day: string): Promise<number> {
  const [row] = await db
    .select({ n: sum(pubChainMeter.requests) })
    .from(pubChainMeter)
    .where(and(eq(pubChainMeter.projectId, projectId), eq(pubChainMeter.day, day)));
  return Number(row?.n ?? 0);
}
