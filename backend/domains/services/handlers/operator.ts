import billing from "#backend/domains/billing/index.ts";
import { and, asc, count, desc, eq, ilike, inArray, isNotNull, sql } from "drizzle-orm";
import { randomBytes } from "node:crypto";
import { Msg } from "#contract/messages.ts";
import { RefundState, VerState } from "#contract/service-status.ts";
import { type ServiceOpsDecision } from "#contract/services.ts";
import { users } from "#backend/db/tables.ts";
import { ApiError } from "#backend/http/errors.ts";
import type { SignedInContext } from "#backend/http/router.ts";
import { bills } from "#backend/domains/billing/tables.ts";
import { escapeLike } from "#backend/kit/sql.ts";
import { scheduleDeploy, scheduleTest } from "#backend/domains/services/jobs.ts";
import type { LifecycleEvent } from "#backend/domains/services/machine.ts";
import { createPublishBill } from "#backend/domains/services/payment.ts";
import { appNodes, appTransitions, appVersions, apps, refundRequests } from "#backend/domains/services/tables.ts";
import { applyTransition, refundMachine } from "#backend/domains/services/machine.ts";
import { type Payload, iso, me, rowOf, versionContents, refundOf, requireTypedName, NO_REQUEST } from "./shared.ts";
import inbox from "#backend/domains/inbox/index.ts";

/* ------------------------------------------------------------------------------------------------
 * Operations (operators only; the contract's auth "operator" answers code 4 to anyone else).
 * ---------------------------------------------------------------------------------------------- */

/**
 * The initial-review queue (5) or the final-review queue (15), oldest submission first; `name` narrows it to
 * the services whose name contains it.
 */
export async function reviewList(input: Payload<"/sys/ops/serviceReviews/list">, ctx: SignedInContext) {
  const db = ctx.deps.db;
  const state = input.queue === "initial" ? VerState.PENDING_INITIAL_REVIEW : VerState.PENDING_REVIEW;
  const name = input.name?.trim() ?? "";
  const where = and(eq(appVersions.verState, state), name ? ilike(apps.name, `%${escapeLike(name)}%`) : undefined);
  const [{ total }] = await db
    .select({ total: count() })
    .from(appVersions)
    .innerJoin(apps, eq(apps.id, appVersions.appId))
    .where(where);
  const list = await db
    .select({ v: appVersions, a: apps, publisher: users.userName })
    .from(appVersions)
    .innerJoin(apps, eq(apps.id, appVersions.appId))
    .innerJoin(users, eq(users.id, apps.userId))
    .where(where)
    .orderBy(asc(appVersions.updatedAt), asc(appVersions.id))
    .limit(input.pageSize)
    .offset((input.pageIndex - 1) * input.pageSize);
  const rows = [];
  for (const { v, a, publisher } of list) {
    rows.push({
      ...rowOf(a, v, false),
      publisher,
      submittedAt: iso(v.submittedAt),
      contents: await versionContents(db, v),
    });
  }
  return { page: { rows, total, pageIndex: input.pageIndex, pageSize: input.pageSize } };
}

/**
 * Approve or reject (comments required) at the initial review (5) or the final review (15). Initial
 * approval schedules the test job; final approval makes the publish bill, or for a free service goes to
 * 24 and schedules the deploy job.
 */
export async function reviewDecide(input: Payload<"/sys/ops/serviceReviews/decide">, ctx: SignedInContext) {
  const now = ctx.deps.now();
  const operator = me(ctx);
  return ctx.deps.db.transaction(async (tx) => {
    const [version] = await tx.select().from(appVersions).where(eq(appVersions.id, input.appVerId)).for("update");
    if (!version) throw new ApiError(Msg.NOT_FOUND);
    const initial = version.verState === VerState.PENDING_INITIAL_REVIEW;
    if (!initial && version.verState !== VerState.PENDING_REVIEW) throw new ApiError(Msg.ALREADY_REVIEWED);
    const approve = input.decision === "approve";
    const event = initial ? (approve ? "initialApprove" : "initialReject") : approve ? "finalApprove" : "finalReject";
    const result = await applyTransition(tx, {
      verId: version.id,
      event,
      actor: "operator",
      actorId: operator.id,
      comments: input.comments ?? null,
      now,
    });
    if (event === "initialApprove") await scheduleTest(tx, version.id, now);
    if (event === "finalApprove") {
      if (result.to === VerState.PENDING_PUBLISH) {
        await tx.update(appVersions).set({ approvedAt: now }).where(eq(appVersions.id, version.id));
        await scheduleDeploy(tx, version.id, now);
      } else {
        await createPublishBill(tx, version.id, now);
      }
    }
    return { verState: result.to };
  });
}

export async function refundList(input: Payload<"/sys/ops/refunds/list">, ctx: SignedInContext) {
  const db = ctx.deps.db;
  const [{ total }] = await db
    .select({ total: count() })
    .from(refundRequests)
    .where(eq(refundRequests.state, input.state));
  const list = await db
    .select({ r: refundRequests, a: apps, v: appVersions, publisher: users.userName })
    .from(refundRequests)
    .innerJoin(apps, eq(apps.id, refundRequests.appId))
    .innerJoin(appVersions, eq(appVersions.id, refundRequests.verId))
    .innerJoin(users, eq(users.id, refundRequests.userId))
    .where(eq(refundRequests.state, input.state))
    .orderBy(
      input.state === RefundState.PENDING ? asc(refundRequests.createdAt) : desc(refundRequests.reviewedAt),
      asc(refundRequests.id),
    )
    .limit(input.pageSize)
    .offset((input.pageIndex - 1) * input.pageSize);
  const rows = list.map(({ r, a, v, publisher }) => ({
    ...refundOf(r),
    appId: a.id,
    appVerId: v.id,
    name: a.name,
    version: v.version,
    verState: v.verState,
    publisher,
  }));
  return { page: { rows, total, pageIndex: input.pageIndex, pageSize: input.pageSize } };
}

/**
 * §4 Refund review: approve → the version is uninstalled (35), its node bookings are released and the
 * unused part of the publish bill goes back to the balance through the ledger; reject needs comments.
 */
export async function refundDecide(input: Payload<"/sys/ops/refunds/decide">, ctx: SignedInContext) {
  const now = ctx.deps.now();
  const operator = me(ctx);
  return ctx.deps.db.transaction(async (tx) => {
    const [refund] = await tx.select().from(refundRequests).where(eq(refundRequests.id, input.refundId)).for("update");
    if (!refund) throw new ApiError(Msg.NOT_FOUND);
    const comments = input.comments?.trim() || null;
    const decided = refundMachine.transition(refund.state, input.decision, "operator", { comments });
    if (!decided.ok) throw new ApiError(decided.messageKey);
    if (input.decision === "reject") {
      await tx
        .update(refundRequests)
        .set({ state: decided.to, reviewedBy: operator.id, reviewedAt: now, reviewComments: comments })
        .where(eq(refundRequests.id, refund.id));
      const [app] = await tx.select().from(apps).where(eq(apps.id, refund.appId));
      await inbox.api.notify(tx, {
        userId: refund.userId,
        textKey: "messages.service.refundRejected",
        params: { name: app.name, comments: comments ?? "" },
        ref: { kind: "service", id: app.id },
        at: now,
      });
      return { state: decided.to };
    }
    const { version } = await applyTransition(tx, {
      verId: refund.verId,
      event: "uninstall",
      actor: "operator",
      actorId: operator.id,
      comments,
      now,
    });
    await tx
      .update(appNodes)
      .set({ bookedAt: null })
      .where(and(eq(appNodes.verId, refund.verId), isNotNull(appNodes.bookedAt)));
    if (refund.amountCents > 0 && version.billId) {
      const [bill] = await tx.select().from(bills).where(eq(bills.id, version.billId)).for("update");
      const amount = Math.min(refund.amountCents, bill.payCents - bill.refundCents);
      if (amount > 0) {
        await billing.api.post(
          tx,
          {
            userId: refund.userId,
            kind: "refund",
            amountCents: amount,
            refType: "bill",
            refId: bill.id,
            idempotencyKey: `service-refund:${refund.id}`,
          },
          now,
        );
        const refunded = bill.refundCents + amount;
        await billing.api.recordBillRefund(tx, bill.id, {
          refundCents: refunded,
          refundNo: `RF${now.getTime().toString(36).toUpperCase()}${randomBytes(2).toString("hex").toUpperCase()}`,
          payState: refunded >= bill.payCents ? 20 : 25,
        });
        await tx
          .update(appVersions)
          .set({ billState: refunded >= bill.payCents ? 20 : 25 })
          .where(eq(appVersions.id, version.id));
      }
    }
    await tx
      .update(refundRequests)
      .set({ state: decided.to, reviewedBy: operator.id, reviewedAt: now, reviewComments: comments })
      .where(eq(refundRequests.id, refund.id));
    return { state: decided.to };
  });
}

const STATES_OF = {
  running: [VerState.RUNNING],
  suspended: [VerState.DEACTIVATED_BY_OPERATOR],
  requested: [VerState.DEACTIVATED_BY_OPERATOR],
  all: [VerState.RUNNING, VerState.DEACTIVATED_BY_OPERATOR],
} as const;

/**
 * The running-services queue: versions at 25 and 40 by filter and name; pending requests first (oldest
 * first), then by service name.
 */
export async function opsServiceList(input: Payload<"/sys/ops/services/list">, ctx: SignedInContext) {
  const db = ctx.deps.db;
  const name = input.name?.trim() ?? "";
  const where = and(
    inArray(appVersions.verState, [...STATES_OF[input.filter]]),
    input.filter === "requested" ? isNotNull(appVersions.enableRequestedAt) : undefined,
    name ? ilike(apps.name, `%${escapeLike(name)}%`) : undefined,
  );
  const [{ total }] = await db
    .select({ total: count() })
    .from(appVersions)
    .innerJoin(apps, eq(apps.id, appVersions.appId))
    .where(where);
  // When the version entered its current status: its last transition that changed the status.
  const since =
    sql`(select max(t.created_at) from ${appTransitions} t where t.ver_id = ${appVersions.id} and t.to_state = ${appVersions.verState} and t.from_state <> t.to_state)`.mapWith(
      appTransitions.createdAt,
    );
  const list = await db
    .select({ v: appVersions, a: apps, publisher: users.userName, since })
    .from(appVersions)
    .innerJoin(apps, eq(apps.id, appVersions.appId))
    .innerJoin(users, eq(users.id, apps.userId))
    .where(where)
    .orderBy(sql`${appVersions.enableRequestedAt} asc nulls last`, asc(apps.name), asc(appVersions.id))
    .limit(input.pageSize)
    .offset((input.pageIndex - 1) * input.pageSize);
  const suspended = list.filter(({ v }) => v.verState === VerState.DEACTIVATED_BY_OPERATOR).map(({ v }) => v.id);
  const suspensions = suspended.length
    ? await db
        .select({ verId: appTransitions.verId, comments: appTransitions.comments })
        .from(appTransitions)
        .where(and(inArray(appTransitions.verId, suspended), eq(appTransitions.event, "suspend")))
        .orderBy(desc(appTransitions.createdAt), desc(appTransitions.id))
    : [];
  const lastComments = new Map<number, string | null>();
  for (const s of suspensions) if (!lastComments.has(s.verId)) lastComments.set(s.verId, s.comments);
  const rows = list.map(({ v, a, publisher, since: at }) => ({
    ...rowOf(a, v, false),
    publisher,
    since: (at ?? v.updatedAt).toISOString(),
    suspendComments: lastComments.get(v.id) ?? null,
    enableRequestNote: v.enableRequestedAt ? v.enableRequestNote : null,
  }));
  return { page: { rows, total, pageIndex: input.pageIndex, pageSize: input.pageSize } };
}

const EVENT_OF: Record<ServiceOpsDecision, LifecycleEvent> = {
  suspend: "suspend",
  enable: "enable",
  decline: "declineEnable",
};

/** Suspend (comments required), enable, or decline the pending request (comments required). */
export async function opsServiceDecide(input: Payload<"/sys/ops/services/decide">, ctx: SignedInContext) {
  const now = ctx.deps.now();
  return ctx.deps.db.transaction(async (tx) => {
    if (input.decision === "suspend") {
      const [service] = await tx
        .select({ name: apps.name })
        .from(appVersions)
        .innerJoin(apps, eq(apps.id, appVersions.appId))
        .where(eq(appVersions.id, input.appVerId));
      if (service) requireTypedName(input.confirmName, service.name);
    }
    const result = await applyTransition(tx, {
      verId: input.appVerId,
      event: EVENT_OF[input.decision],
      actor: "operator",
      actorId: me(ctx).id,
      comments: input.comments ?? null,
      now,
      set: NO_REQUEST,
    });
    return { verState: result.to };
  });
}
