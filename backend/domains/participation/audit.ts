import type { BillSettler } from "#backend/domains/billing/index.ts";
import billing from "#backend/domains/billing/index.ts";
import { randomBytes } from "node:crypto";
import { and, asc, eq, isNull } from "drizzle-orm";
import { PayState } from "#contract/billing-codes.ts";
import { Msg } from "#contract/messages.ts";
import { AuditState, orderExpired } from "#contract/participation-codes.ts";
import type { MessageRefKind } from "#contract/platform.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { appJoinNodes, appJoinTransitions, appJoins, certificates } from "./tables.ts";
import { appNodes, apps } from "#backend/domains/services/tables.ts";
import { bills } from "#backend/domains/billing/tables.ts";
import { cityNodes, users } from "#backend/db/tables.ts";
import { ApiError } from "#backend/http/errors.ts";
import { schedule } from "#backend/jobs/runner.ts";

import { joinTransition, type JoinActor, type JoinEvent } from "./machine.ts";
import inbox from "#backend/domains/inbox/index.ts";

const DAY = 24 * 60 * 60 * 1000;
/** §9 bill type used for participation node orders (docs/decisions/013). */
export const NODE_ORDER_BILL_TYPE = 10;
/** SPEC §9: node application payment valid 3 days. */
export const ORDER_PAYMENT_WINDOW_MS = 3 * DAY;
/** What one access node of a participant books on a city node where the service does not run yet. */
export const ACCESS_NODE = { tps: 10, capacityGb: 10, peers: 1 } as const;
export const JOB_WORK_ORDER = "participation.workOrder";

type CityNodeRow = typeof cityNodes.$inferSelect;
export const accessNodeCents = (n: Pick<CityNodeRow, "tpsPricePerMonthCents" | "capacityPricePerGbMonthCents">) =>
  ACCESS_NODE.tps * n.tpsPricePerMonthCents + ACCESS_NODE.capacityGb * n.capacityPricePerGbMonthCents;

/** The city nodes the service's version runs on (booked by its deployment): joining there orders nothing. */
export async function releasedNodeIds(db: Db | Tx, verId: number): Promise<Set<number>> {
  const rows = await db
    .select({ id: appNodes.cityNodeId, bookedAt: appNodes.bookedAt })
    .from(appNodes)
    .where(eq(appNodes.verId, verId));
  return new Set(rows.filter((r) => r.bookedAt).map((r) => r.id));
}

/** The order of a participation: one access node on each chosen node where the service does not run. */
export async function orderOf(db: Db | Tx, join: { id: number; verId: number }) {
  const released = await releasedNodeIds(db, join.verId);
  const chosen = await db
    .select({ c: cityNodes })
    .from(appJoinNodes)
    .innerJoin(cityNodes, eq(cityNodes.id, appJoinNodes.cityNodeId))
    .where(eq(appJoinNodes.joinId, join.id))
    .orderBy(asc(cityNodes.id));
  const lines = chosen
    .filter(({ c }) => !released.has(c.id))
    .map(({ c }) => ({ node: c, amountCents: accessNodeCents(c) }));
  return { lines, totalCents: lines.reduce((s, l) => s + l.amountCents, 0) };
}

/** Messages to users (messages.json `messages.participation.<key>`). */
async function notify(
  tx: Tx,
  userIds: number[],
  key: string,
  params: Record<string, string>,
  now: Date,
  ref?: (userId: number) => { kind: MessageRefKind; id: number },
) {
  const unique = [...new Set(userIds)];
  await inbox.api.notifyAll(
    tx,
    unique.map((userId) => ({ userId, textKey: `messages.participation.${key}`, params, ref: ref?.(userId), at: now })),
  );
}

async function operatorIds(tx: Tx) {
  const rows = await tx.select({ id: users.id }).from(users).where(eq(users.role, "operator")).limit(50);
  return rows.map((r) => r.id);
}

/**
 * Applies one audit event to a participation inside `tx` (backend/domains/participation/machine.ts decides): locks
 * the row, refuses with the rule's message key, moves auditState, records the transition (actor, time,
 * comments) and messages the people concerned. Returns the rows before the change and the new state.
 */
export async function applyJoinEvent(
  tx: Tx,
  input: {
    joinId: number;
    event: JoinEvent;
    actor: JoinActor;
    actorId: number | null;
    comments?: string | null;
    now: Date;
    orderCents?: number;
    orderExpired?: boolean;
    set?: Partial<typeof appJoins.$inferInsert>;
  },
) {
  const [join] = await tx.select().from(appJoins).where(eq(appJoins.id, input.joinId)).for("update");
  if (!join) throw new ApiError(Msg.NOT_FOUND);
  const [app] = await tx.select().from(apps).where(eq(apps.id, join.appId));
  const result = joinTransition(join.auditState, input.event, input.actor, {
    comments: input.comments,
    orderCents: input.orderCents,
    orderExpired: input.orderExpired,
    disabled: !!join.disabledAt,
  });
  if (!result.ok) throw new ApiError(result.messageKey);
  const comments = input.comments?.trim() || null;
  await tx
    .update(appJoins)
    .set({ ...input.set, auditState: result.to, updatedAt: input.now })
    .where(eq(appJoins.id, join.id));
  await tx.insert(appJoinTransitions).values({
    joinId: join.id,
    event: input.event,
    fromState: join.auditState,
    toState: result.to,
    actorId: input.actorId,
    actorKind: input.actor,
    comments,
    createdAt: input.now,
  });
  const [applicant] = await tx.select({ userName: users.userName }).from(users).where(eq(users.id, join.userId));
  const params: Record<string, string> = {
    name: app.name,
    applicant: applicant?.userName ?? "",
    ...(comments ? { comments } : {}),
  };
  // Who hears of each step: the participant always; the publisher when the participant acts or the
  // operator decides; the operators when a request reaches their queue.
  const audience: number[] = [join.userId];
  if (input.event === "operatorApprove" || input.event === "operatorReject" || input.event === "confirm")
    audience.push(app.userId);
  // The participant's message links to the service they asked to join, the publisher's to the request.
  await notify(tx, audience, input.event, params, input.now, (userId) =>
    userId === join.userId ? { kind: "participation", id: app.id } : { kind: "joinRequest", id: join.id },
  );
  if (input.event === "publisherApprove") await notify(tx, await operatorIds(tx), "toOperators", params, input.now);
  if (result.to === 2 || result.to === 4) {
    await tx
      .update(certificates)
      .set({ revokedAt: input.now })
      .where(and(eq(certificates.joinId, join.id), isNull(certificates.revokedAt)));
  }
  return { join, app, from: join.auditState, to: result.to };
}

type JoinRow = typeof appJoins.$inferSelect;
type BillRow = typeof bills.$inferSelect;

/**
 * Bills a participation's node order to the participant (bill type 10, monthly, pay within 3 days) at the
 * catalogue prices of `now`. The dedupe key makes issuing the same bill twice return the first one.
 */
async function issueOrderBill(
  tx: Tx,
  join: JoinRow,
  order: Awaited<ReturnType<typeof orderOf>>,
  now: Date,
  dedupeKey: string,
): Promise<BillRow> {
  const [app] = await tx.select().from(apps).where(eq(apps.id, join.appId));
  const created = await billing.api.issueBillOnce(tx, {
    billNo: `NO${now.getTime().toString(36).toUpperCase()}${randomBytes(3).toString("hex").toUpperCase()}`,
    userId: join.userId,
    appId: app.id,
    serviceName: app.name,
    billType: NODE_ORDER_BILL_TYPE,
    payState: 1,
    payMode: 1,
    cycle: 2,
    periodStart: now,
    periodEnd: new Date(now.getTime() + 30 * DAY),
    createdAt: now,
    deadline: new Date(now.getTime() + ORDER_PAYMENT_WINDOW_MS),
    totalCents: order.totalCents,
    payCents: order.totalCents,
    detail: {
      nodeCount: order.lines.length,
      resources: order.lines.map((l) => ({
        nodeCode: l.node.code,
        tps: ACCESS_NODE.tps,
        capacityGb: ACCESS_NODE.capacityGb,
        peers: ACCESS_NODE.peers,
        monthlyPriceCents: l.amountCents,
        yearlyPriceCents:
          ACCESS_NODE.tps * l.node.tpsPricePerYearCents +
          ACCESS_NODE.capacityGb * l.node.capacityPricePerGbMonthCents * 12,
        amountCents: l.amountCents,
      })),
    },
    dedupeKey,
  });
  return created ?? (await tx.select().from(bills).where(eq(bills.dedupeKey, dedupeKey)))[0];
}

/**
 * After the operator's approval (3): the chosen nodes that need resources make an order billed to the
 * participant (3 → 5, bill type 10, pay within 3 days); when nothing must be ordered the work order starts
 * at once (3 → 10).
 */
export async function startOrder(tx: Tx, joinId: number, now: Date) {
  const [join] = await tx.select().from(appJoins).where(eq(appJoins.id, joinId));
  const order = await orderOf(tx, join);
  if (order.totalCents === 0) {
    await applyJoinEvent(tx, { joinId, event: "skipOrder", actor: "system", actorId: null, now, orderCents: 0 });
    await scheduleWorkOrder(tx, joinId, now);
    return null;
  }
  const bill = await issueOrderBill(tx, join, order, now, `join-order:${joinId}`);
  await applyJoinEvent(tx, {
    joinId,
    event: "order",
    actor: "system",
    actorId: null,
    now,
    orderCents: order.totalCents,
    set: { orderBillId: bill.id },
  });
  return bill;
}

/**
 * An order whose bill expired unpaid (docs/decisions/013 "Expired orders"): the old bill stays expired (it
 * is marked so here when its deadline passed before the expiry job came round), and a fresh bill for the
 * same participation is issued at the current catalogue prices with a new 3-day deadline; the
 * participation stays at 5, points to the new bill and records the step "reorder".
 */
async function reissueOrder(tx: Tx, join: JoinRow, expired: BillRow, actorId: number, now: Date): Promise<BillRow> {
  if (expired.payState !== PayState.EXPIRED) {
    await billing.api.expireBill(tx, expired.id, expired.releaseTime ?? now);
  }
  const order = await orderOf(tx, join);
  const bill = await issueOrderBill(tx, join, order, now, `join-order:${join.id}:after:${expired.id}`);
  await applyJoinEvent(tx, {
    joinId: join.id,
    event: "reorder",
    actor: "participant",
    actorId,
    now,
    orderCents: order.totalCents,
    orderExpired: true,
    set: { orderBillId: bill.id },
  });
  return bill;
}

/**
 * The participant pays the node order from the balance (ledger bill_payment; insufficient balance →
 * MSG_30001), 5 → 10, and the work order is scheduled. An expired order is re-issued first and the new bill
 * paid, in the same transaction (so an insufficient balance re-issues nothing). Paying twice pays once
 * (the bill is already paid, or the same idempotency key).
 */
export async function payOrder(tx: Tx, input: { userId: number; joinId: number; idempotencyKey: string; now: Date }) {
  const [join] = await tx.select().from(appJoins).where(eq(appJoins.id, input.joinId)).for("update");
  if (!join || join.userId !== input.userId) throw new ApiError(Msg.NOT_FOUND);
  if (!join.orderBillId) throw new ApiError(Msg.BILL_NOT_PAYABLE);
  let [bill] = await tx.select().from(bills).where(eq(bills.id, join.orderBillId)).for("update");
  if (!bill || bill.userId !== input.userId) throw new ApiError(Msg.NOT_FOUND);
  if (bill.payState === PayState.PAID) return { billId: bill.id, replayed: true, reissued: false };
  if (join.auditState !== AuditState.TO_ORDER) throw new ApiError(Msg.BILL_NOT_PAYABLE);
  const reissued = orderExpired(bill, input.now);
  if (reissued) bill = await reissueOrder(tx, join, bill, input.userId, input.now);
  if (bill.payState !== PayState.UNPAID && bill.payState !== PayState.FAILED) throw new ApiError(Msg.BILL_NOT_PAYABLE);
  await billing.api.post(
    tx,
    {
      userId: input.userId,
      kind: "bill_payment",
      amountCents: bill.payCents,
      refType: "bill",
      refId: bill.id,
      idempotencyKey: input.idempotencyKey,
    },
    input.now,
  );
  await billing.api.markBillPaid(tx, bill.id, input.now);
  await applyJoinEvent(tx, {
    joinId: join.id,
    event: "pay",
    actor: "participant",
    actorId: input.userId,
    now: input.now,
  });
  await scheduleWorkOrder(tx, join.id, input.now);
  return { billId: bill.id, replayed: false, reissued };
}

export async function scheduleWorkOrder(tx: Tx, joinId: number, now: Date) {
  await schedule(tx, JOB_WORK_ORDER, { joinId }, { runAt: now, dedupeKey: `${JOB_WORK_ORDER}:${joinId}` });
}

/**
 * Billing's settler for node orders (billing api `settleBillsWith`): a payable bill that is a participation's
 * node order is paid here, which also moves the participation on (5 → 10) and schedules the work order.
 */
export const settleOrderBill: BillSettler = async (tx, { userId, billId, idempotencyKey, now }) => {
  const [order] = await tx.select({ joinId: appJoins.id }).from(appJoins).where(eq(appJoins.orderBillId, billId));
  if (!order) return null;
  const [orderBill] = await tx
    .select()
    .from(bills)
    .where(and(eq(bills.id, billId), eq(bills.userId, userId)));
  if (!orderBill || !billing.api.isPayable(orderBill, now)) return null;
  const paid = await payOrder(tx, { userId, joinId: order.joinId, idempotencyKey, now });
  return {
    billId: orderBill.id,
    billNo: orderBill.billNo,
    payState: PayState.PAID as number,
    paidCents: orderBill.payCents,
    replayed: paid.replayed,
  };
};
