import { serviceChainView } from "#backend/domains/services/chain.ts";
import { deploymentNodes } from "#backend/domains/services/deployment-view.ts";
import { and, asc, count, desc, eq, ilike, sql } from "drizzle-orm";
import type { z } from "zod";
import { Msg } from "#contract/messages.ts";
import type { pageRequestSchema } from "#contract/platform.ts";
import { PayState } from "#contract/billing-codes.ts";
import { RefundState, VerState } from "#contract/service-status.ts";
import { type ServiceDetail } from "#contract/services.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { users } from "#backend/db/tables.ts";
import { ApiError } from "#backend/http/errors.ts";
import type { SignedInContext } from "#backend/http/router.ts";
import { bills } from "#backend/domains/billing/tables.ts";
import billing from "#backend/domains/billing/index.ts";
import { invitationLink } from "#backend/domains/services/invite.ts";
import { payPublishBill } from "#backend/domains/services/payment.ts";
import { appComments, appTransitions, appVersions, apps, refundRequests } from "#backend/domains/services/tables.ts";
import { applyTransition } from "#backend/domains/services/machine.ts";
import { upgradeHistory } from "#backend/domains/services/config-handlers.ts";
import {
  type Payload,
  iso,
  me,
  REFUND_PENDING,
  NOT_RUNNING,
  ALREADY_REPLIED,
  type VersionRow,
  LISTED_APP,
  rowOf,
  ownVersion,
  requireAction,
  listedVersions,
  pendingRefunds,
  versionContents,
  refundOf,
  requireTypedName,
} from "./shared.ts";

/** SPEC §2 PublishedServices: the caller's services with a version past the draft, searchable by name. */
export async function publishedList(input: z.output<typeof pageRequestSchema>, ctx: SignedInContext) {
  const { pageSize, pageIndex, condition } = input.page;
  const name = typeof condition.name === "string" ? condition.name.trim().slice(0, 50) : "";
  const db = ctx.deps.db;
  const where = and(
    eq(apps.userId, me(ctx).id),
    sql`exists (select 1 from ${appVersions} v where v.app_id = ${apps.id} and v.ver_state <> ${VerState.PENDING_SUBMIT})`,
    name ? ilike(apps.name, `%${name.replace(/[\\%_]/g, (c) => `\\${c}`)}%`) : undefined,
  );
  const [[{ total }], list] = await Promise.all([
    db.select({ total: count() }).from(apps).where(where),
    db
      .select(LISTED_APP)
      .from(apps)
      .where(where)
      .orderBy(desc(apps.updatedAt), desc(apps.id))
      .limit(pageSize)
      .offset((pageIndex - 1) * pageSize),
  ]);
  const versions = await listedVersions(
    db,
    list.map((a) => a.id),
  );
  const pending = await pendingRefunds(
    db,
    [...versions.values()].map((v) => v.id),
  );
  const rows = list.flatMap((a) => {
    const v = versions.get(a.id);
    return v ? [rowOf(a, v, pending.has(v.id))] : [];
  });
  return { page: { rows, total, pageIndex, pageSize } };
}

/** SPEC §2 ServicesDetail: one of the caller's services at a version (default: the listed one). */
export async function publishedDetail(
  input: Payload<"/sys/chainAppInfo/publishedDetail">,
  ctx: SignedInContext,
): Promise<ServiceDetail> {
  const db = ctx.deps.db;
  const [app] = await db.select().from(apps).where(eq(apps.id, input.appId));
  if (!app || app.userId !== me(ctx).id) throw new ApiError(Msg.NOT_FOUND);
  let version: VersionRow | undefined;
  if (input.appVerId) {
    [version] = await db
      .select()
      .from(appVersions)
      .where(and(eq(appVersions.id, input.appVerId), eq(appVersions.appId, app.id)));
  } else {
    const listed = (await listedVersions(db, [app.id])).get(app.id);
    if (listed) [version] = await db.select().from(appVersions).where(eq(appVersions.id, listed.id));
  }
  if (!version) throw new ApiError(Msg.NOT_FOUND);
  const v = version;
  const chain = await serviceChainView(db, ctx.deps.env, app.id, v.id, app.userId, ctx.deps.now());
  const transitions = await db
    .select({ t: appTransitions, actorName: users.userName })
    .from(appTransitions)
    .leftJoin(users, eq(users.id, appTransitions.actorId))
    .where(eq(appTransitions.verId, v.id))
    .orderBy(asc(appTransitions.createdAt), asc(appTransitions.id));
  const comments = await db
    .select({ c: appComments, userName: users.userName })
    .from(appComments)
    .innerJoin(users, eq(users.id, appComments.userId))
    .where(eq(appComments.appId, app.id))
    .orderBy(desc(appComments.createdAt), desc(appComments.id))
    .limit(200);
  const history = await db
    .select()
    .from(appVersions)
    .where(eq(appVersions.appId, app.id))
    .orderBy(desc(appVersions.id));
  const [bill] = v.billId ? await db.select().from(bills).where(eq(bills.id, v.billId)) : [];
  const refunds = await db
    .select()
    .from(refundRequests)
    .where(eq(refundRequests.verId, v.id))
    .orderBy(desc(refundRequests.id));
  return {
    ...rowOf(
      app,
      v,
      refunds.some((r) => r.state === RefundState.PENDING),
    ),
    industry: app.industry,
    description: app.description,
    introduction: app.introduction,
    framework: app.framework,
    paymentCycle: app.paymentCycle,
    crossChain: app.crossChain,
    crossProtocol: app.crossProtocol,
    certificateMode: v.certificateMode,
    submittedAt: iso(v.submittedAt),
    approvedAt: iso(v.approvedAt),
    contents: await versionContents(db, v),
    // Operators are shown as "operations", not by their account name.
    transitions: transitions.map(({ t, actorName }) => ({
      event: t.event,
      fromState: t.fromState,
      toState: t.toState,
      actorKind: t.actorKind,
      actorName: t.actorKind === "publisher" ? actorName : null,
      comments: t.comments,
      createdAt: t.createdAt.toISOString(),
    })),
    comments: comments.map(({ c, userName }) => ({
      commentId: c.id,
      userName,
      text: c.text,
      reply: c.reply,
      repliedAt: iso(c.repliedAt),
      usefulCount: c.usefulCount,
      createdAt: c.createdAt.toISOString(),
    })),
    history: history.map((h) => ({
      appVerId: h.id,
      version: h.version,
      verState: h.verState,
      createdAt: h.createdAt.toISOString(),
      publishedAt: iso(h.publishedAt),
    })),
    bill: bill
      ? {
          billId: bill.id,
          billNo: bill.billNo,
          payState: bill.payState,
          totalCents: bill.totalCents,
          deadline: bill.deadline.toISOString(),
          paidAt: iso(bill.paidAt),
        }
      : null,
    refunds: refunds.map(refundOf),
    enableRequestNote: v.enableRequestedAt ? v.enableRequestNote : null,
    currentVerId: app.currentVerId,
    cycleEnd: iso(app.cycleEnd),
    upgrades: await upgradeHistory(db, app.id),
    chain,
    deployment: await deploymentNodes(ctx.deps, app, v, chain?.key ?? null),
    traffic: await billing.api.serviceTraffic(ctx.deps, app.id),
  };
}

/**
 * Pay the publish bill (payment.ts `payPublishBill`), in one transaction; above a developer's spending limit
 * the bill waits for finance instead (SENT_TO_FINANCE, docs/decisions/080).
 */
export async function payBill(input: Payload<"/sys/chainAppInfo/payPublishBill">, ctx: SignedInContext) {
  const now = ctx.deps.now();
  return ctx.deps.db
    .transaction((tx) =>
      payPublishBill(tx, { userId: me(ctx).id, verId: input.appVerId, idempotencyKey: input.idempotencyKey, now }),
    )
    .catch((error: unknown) => billing.api.sendToFinanceOr(ctx.deps.db, me(ctx).id, error, now));
}

/** Cross-chain activated, pending activation or pending deactivation (SPEC §4). */
const CROSS_ENABLED: readonly number[] = [1, 3, 4];

/** A publisher's lifecycle event on their own version, re-checking serviceActions() (§4). */
function publisherEvent(action: "deactivate" | "enable") {
  return async (input: Payload<"/sys/chainAppInfo/deactivate">, ctx: SignedInContext) => {
    const now = ctx.deps.now();
    await ctx.deps.db.transaction(async (tx) => {
      const { app, version } = await ownVersion(tx, me(ctx).id, input.appVerId, true);
      requireAction(app, version, action);
      // §5 cross-chain "Cannot be stopped while enabled": deactivate cross-chain first (docs/decisions/048).
      if (action === "deactivate" && CROSS_ENABLED.includes(app.crossStatus))
        throw new ApiError(Msg.XC_STOP_WHILE_ENABLED);
      requireTypedName(input.confirmName, app.name);
      await applyTransition(tx, { verId: version.id, event: action, actor: "publisher", actorId: me(ctx).id, now });
    });
    return null;
  };
}

export const deactivate = publisherEvent("deactivate");

export const enable = publisherEvent("enable");

/** The part of the paid publish bill not yet used, refunded when the unsubscription is approved. */
async function refundableCents(db: Db | Tx, version: VersionRow, now: Date) {
  if (!version.billId) return 0;
  const [bill] = await db.select().from(bills).where(eq(bills.id, version.billId));
  if (!bill || bill.payState !== PayState.PAID || bill.payCents <= 0) return 0;
  const span = bill.periodEnd.getTime() - bill.periodStart.getTime();
  const left = Math.max(0, bill.periodEnd.getTime() - now.getTime());
  return span > 0 ? Math.floor((bill.payCents * Math.min(left, span)) / span) : 0;
}

/** §4: unsubscribing creates a refund request (state 1 pending) that an operator reviews. */
export async function unsubscribe(input: Payload<"/sys/chainAppInfo/unsubscribe">, ctx: SignedInContext) {
  const now = ctx.deps.now();
  return ctx.deps.db.transaction(async (tx) => {
    const { app, version } = await ownVersion(tx, me(ctx).id, input.appVerId, true);
    requireAction(app, version, "unsubscribe");
    requireTypedName(input.confirmName, app.name);
    const [pending] = await tx
      .select({ id: refundRequests.id })
      .from(refundRequests)
      .where(and(eq(refundRequests.verId, version.id), eq(refundRequests.state, RefundState.PENDING)));
    if (pending) throw new ApiError(REFUND_PENDING);
    const [row] = await tx
      .insert(refundRequests)
      .values({
        appId: app.id,
        verId: version.id,
        userId: app.userId,
        state: 1,
        amountCents: await refundableCents(tx, version, now),
        reason: input.reason ?? null,
        createdAt: now,
      })
      .returning({ id: refundRequests.id });
    return { refundId: row.id };
  });
}

/** §2 invitation link to JOIN (keys a to e, invite.ts), when §4 allows inviting. */
export async function invite(input: Payload<"/sys/chainAppInfo/invite">, ctx: SignedInContext) {
  const { app, version } = await ownVersion(ctx.deps.db, me(ctx).id, input.appVerId);
  if (version.verState !== VerState.RUNNING) throw new ApiError(NOT_RUNNING);
  requireAction(app, version, "invite");
  const link = invitationLink(ctx.deps.env, {
    appId: app.id,
    appCode: app.appCode,
    language: input.language,
    now: ctx.deps.now(),
  });
  return { path: link.path, expiresAt: link.expiresAt.toISOString() };
}

/** §5: the publisher replies to a comment on their service (reply required, 150 characters). */
export async function replyComment(input: Payload<"/sys/chainAppInfo/replyComment">, ctx: SignedInContext) {
  const db = ctx.deps.db;
  const [app] = await db.select().from(apps).where(eq(apps.id, input.appId));
  if (!app || app.userId !== me(ctx).id) throw new ApiError(Msg.NOT_FOUND);
  const updated = await db
    .update(appComments)
    .set({ reply: input.reply, repliedAt: ctx.deps.now() })
    .where(and(eq(appComments.id, input.commentId), eq(appComments.appId, app.id), sql`${appComments.reply} is null`))
    .returning({ id: appComments.id });
  if (updated.length === 0) {
    const [exists] = await db
      .select({ id: appComments.id })
      .from(appComments)
      .where(and(eq(appComments.id, input.commentId), eq(appComments.appId, app.id)));
    throw new ApiError(exists ? ALREADY_REPLIED : Msg.NOT_FOUND);
  }
  return null;
}

/** The publisher asks operations to lift the suspension of their own version (at most one request pending). */
export async function requestEnable(input: Payload<"/sys/chainAppInfo/requestEnable">, ctx: SignedInContext) {
  const now = ctx.deps.now();
  const note = input.note?.trim() || null;
  await ctx.deps.db.transaction(async (tx) => {
    const { app, version } = await ownVersion(tx, me(ctx).id, input.appVerId, true);
    requireAction(app, version, "enable");
    await applyTransition(tx, {
      verId: version.id,
      event: "requestEnable",
      actor: "publisher",
      actorId: me(ctx).id,
      comments: note,
      now,
      set: { enableRequestedAt: now, enableRequestNote: note },
    });
  });
  return null;
}
