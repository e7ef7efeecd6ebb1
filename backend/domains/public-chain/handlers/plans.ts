import { and, count, desc, eq, ilike, inArray, or } from "drizzle-orm";
import { Msg } from "#contract/messages.ts";
import { PLAN_BILL_TYPE, PlanStatus } from "#contract/public-chain-codes.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { cityNodes } from "#backend/db/tables.ts";
import { ApiError } from "#backend/http/errors.ts";
import type { Payload } from "#backend/http/router.ts";
import billing from "#backend/domains/billing/index.ts";
import { bills } from "#backend/domains/billing/tables.ts";
import { paidBill } from "#backend/domains/public-chain/bills.ts";
import { planActive } from "#backend/domains/public-chain/rules.ts";
import { pubChainOrgs, pubChainPlans, pubChainProjects } from "#backend/domains/public-chain/tables.ts";
import { DAY_MS, escapeLike, type Ctx } from "./shared.ts";

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
    const db = ctx.deps.db;
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
  const now = ctx.deps.now();
  return ctx.deps.db.transaction(async (tx) => {
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
  const db = ctx.deps.db;
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
  const now = ctx.deps.now();
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
