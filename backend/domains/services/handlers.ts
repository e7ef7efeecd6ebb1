import { serviceChainView } from "./chain.ts";
import billing from "#backend/domains/billing/index.ts";
import { and, asc, count, desc, eq, ilike, inArray, isNotNull, ne, sql } from "drizzle-orm";
import { randomBytes } from "node:crypto";
import type { z } from "zod";
import { Msg } from "#contract/messages.ts";
import type { pageRequestSchema } from "#contract/platform.ts";
import { VerState, serviceActions, type ServiceAction } from "#contract/service-status.ts";
import {
  sameServiceName,
  type ServiceDetail,
  type ServiceOpsDecision,
  type ServiceRow,
  type servicePaths,
} from "#contract/services.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { cityNodes, messages, users } from "#backend/db/tables.ts";
import { ApiError, fieldError } from "#backend/http/errors.ts";
import type { SignedInContext } from "#backend/http/router.ts";
import { bills } from "#backend/domains/billing/tables.ts";
import { escapeLike } from "#backend/kit/sql.ts";
import { readReport } from "./inspect.ts";
import { invitationLink } from "./invite.ts";
import { scheduleDeploy, scheduleTest } from "./jobs.ts";
import type { LifecycleEvent } from "./machine.ts";
import { createPublishBill, payPublishBill } from "./payment.ts";
import {
  appComments,
  appFunctions,
  appNodes,
  appRoleFunctions,
  appRoles,
  appTransitions,
  appVersions,
  apps,
  chaincodePackages,
  refundRequests,
} from "./tables.ts";
import { applyTransition, refundMachine } from "./machine.ts";
import { upgradeHistory } from "./config-handlers.ts";

type Payload<P extends keyof typeof servicePaths> = z.output<(typeof servicePaths)[P]["payload"]>;

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

const me = (ctx: SignedInContext) => ctx.user;

/** The message of a refusal that applies to the service's status (docs/decisions/010). */
export const NOT_AVAILABLE = Msg.SERVICE_ACTION_NOT_AVAILABLE;

/** An unsubscription of this version is already waiting for review (§4 Refund review). */
export const REFUND_PENDING = Msg.REFUND_PENDING;

/** The service is not running (§8 "service not running"). */
export const NOT_RUNNING = Msg.SERVICE_NOT_RUNNING;

/** The comment was already replied to. */
export const ALREADY_REPLIED = Msg.COMMENT_ALREADY_REPLIED;

type VersionRow = typeof appVersions.$inferSelect;

type AppRow = typeof apps.$inferSelect;

/** What a row of a service list reads of a version and of its service (lists select only these columns). */
const LISTED_VERSION = {
  id: appVersions.id,
  appId: appVersions.appId,
  version: appVersions.version,
  verState: appVersions.verState,
  billState: appVersions.billState,
  billId: appVersions.billId,
  verUpable: appVersions.verUpable,
  costCents: appVersions.costCents,
  createdAt: appVersions.createdAt,
  publishedAt: appVersions.publishedAt,
  enableRequestedAt: appVersions.enableRequestedAt,
};
const LISTED_APP = {
  id: apps.id,
  appCode: apps.appCode,
  name: apps.name,
  crossStatus: apps.crossStatus,
  freeYN: apps.freeYN,
  renewalBillId: apps.renewalBillId,
};
type ListedVersion = Pick<VersionRow, keyof typeof LISTED_VERSION>;
type ListedApp = Pick<AppRow, keyof typeof LISTED_APP>;

export function rowOf(app: ListedApp, v: ListedVersion, refundPending: boolean): ServiceRow {
  return {
    appId: app.id,
    appVerId: v.id,
    appCode: app.appCode,
    name: app.name,
    version: v.version,
    verState: v.verState,
    billState: v.billState,
    billId: v.billId,
    verUpable: v.verUpable,
    crossStatus: app.crossStatus,
    freeYN: app.freeYN,
    costCents: v.costCents,
    createdAt: v.createdAt.toISOString(),
    publishedAt: iso(v.publishedAt),
    refundPending,
    enableRequestedAt: iso(v.enableRequestedAt),
    unpaidBillId: app.renewalBillId,
  };
}

const actionsOf = (app: AppRow, v: VersionRow) =>
  serviceActions({
    verState: v.verState,
    billState: v.billState,
    verUpable: v.verUpable,
    crossStatus: app.crossStatus,
    freeYN: app.freeYN,
    unpaidBill: app.renewalBillId !== null,
  });

/**
 * The version of one of the caller's services (another user's is "not found": a publisher never sees
 * another's service), locked when `lock`.
 */
export async function ownVersion(db: Db | Tx, userId: number, verId: number, lock = false) {
  const q = db.select().from(appVersions).where(eq(appVersions.id, verId));
  const [version] = lock ? await q.for("update") : await q;
  if (!version) throw new ApiError(Msg.NOT_FOUND);
  const [app] = await db.select().from(apps).where(eq(apps.id, version.appId));
  if (!app || app.userId !== userId) throw new ApiError(Msg.NOT_FOUND);
  return { app, version };
}

export function requireAction(app: AppRow, version: VersionRow, action: ServiceAction) {
  if (!actionsOf(app, version).has(action)) throw new ApiError(NOT_AVAILABLE);
}

/** Each service's version the list shows: the latest one that is past the draft (a draft lives in the wizard). */
async function listedVersions(db: Db, appIds: number[]) {
  if (appIds.length === 0) return new Map<number, ListedVersion>();
  // The latest version past the draft of each service, and only the columns a row shows (a version's reports
  // and texts stay in the table).
  const rows = await db
    .selectDistinctOn([appVersions.appId], LISTED_VERSION)
    .from(appVersions)
    .where(and(inArray(appVersions.appId, appIds), ne(appVersions.verState, VerState.PENDING_SUBMIT)))
    .orderBy(appVersions.appId, desc(appVersions.id));
  return new Map(rows.map((r) => [r.appId, r]));
}

async function pendingRefunds(db: Db | Tx, verIds: number[]) {
  if (verIds.length === 0) return new Set<number>();
  const rows = await db
    .select({ verId: refundRequests.verId })
    .from(refundRequests)
    .where(and(inArray(refundRequests.verId, verIds), eq(refundRequests.state, 1)));
  return new Set(rows.map((r) => r.verId));
}

/** SPEC §2 PublishedServices: the caller's services with a version past the draft, searchable by name. */
export async function publishedList(input: z.output<typeof pageRequestSchema>, ctx: SignedInContext) {
  const { pageSize, pageIndex, condition } = input.page;
  const name = typeof condition.name === "string" ? condition.name.trim().slice(0, 50) : "";
  const db = ctx.services.db;
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

/** Packages, functions, roles, nodes, cost and reports of a version (detail and review queues). */
export async function versionContents(db: Db | Tx, v: VersionRow) {
  const packages = await db
    .select()
    .from(chaincodePackages)
    .where(eq(chaincodePackages.verId, v.id))
    .orderBy(asc(chaincodePackages.id));
  const functions = await db
    .select()
    .from(appFunctions)
    .where(eq(appFunctions.verId, v.id))
    .orderBy(asc(appFunctions.id));
  const roles = await db.select().from(appRoles).where(eq(appRoles.verId, v.id)).orderBy(asc(appRoles.id));
  const grants = roles.length
    ? await db
        .select()
        .from(appRoleFunctions)
        .where(
          inArray(
            appRoleFunctions.roleId,
            roles.map((r) => r.id),
          ),
        )
    : [];
  const nodes = await db
    .select({ n: appNodes, c: cityNodes })
    .from(appNodes)
    .innerJoin(cityNodes, eq(cityNodes.id, appNodes.cityNodeId))
    .where(eq(appNodes.verId, v.id))
    .orderBy(asc(cityNodes.id));
  const pkgName = new Map(packages.map((p) => [p.id, p.name]));
  const fnName = new Map(functions.map((f) => [f.id, f.name]));
  return {
    packages: packages.map((p) => ({
      packageId: p.id,
      name: p.name,
      version: p.version,
      language: p.language,
      initParams: p.initParams,
      mainPath: p.mainPath,
      fileName: p.fileName,
      size: p.size,
    })),
    functions: functions.map((f) => ({
      functionId: f.id,
      name: f.name,
      packageName: pkgName.get(f.packageId) ?? "",
      funcType: f.funcType,
      func: f.func,
      parentName: f.parentId ? (fnName.get(f.parentId) ?? null) : null,
      crossChainAllowed: f.crossChainAllowed,
      inputFormat: f.inputFormat,
      outputFormat: f.outputFormat,
    })),
    roles: roles.map((r) => ({
      roleId: r.id,
      name: r.name,
      description: r.description,
      functions: grants.filter((g) => g.roleId === r.id).map((g) => fnName.get(g.functionId) ?? ""),
    })),
    nodes: nodes.map(({ n, c }) => ({
      cityNodeId: c.id,
      code: c.code,
      name: c.name,
      nameZh: c.nameZh,
      tps: n.tps,
      capacityGb: n.capacityGb,
      peers: n.peers,
      bookedAt: iso(n.bookedAt),
      contractAddress: n.contractAddress,
      chaincodeAddress: n.chaincodeAddress,
    })),
    costCents: v.costCents,
    testReport: readReport(v.testReport as never),
    deployReport: readReport(v.deployReport as never),
  };
}

/** SPEC §2 ServicesDetail: one of the caller's services at a version (default: the listed one). */
export async function publishedDetail(
  input: Payload<"/sys/chainAppInfo/publishedDetail">,
  ctx: SignedInContext,
): Promise<ServiceDetail> {
  const db = ctx.services.db;
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
      refunds.some((r) => r.state === 1),
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
    chain: await serviceChainView(db, ctx.services.env, app.id, v.id, app.userId, ctx.services.now()),
  };
}

function refundOf(r: typeof refundRequests.$inferSelect) {
  return {
    refundId: r.id,
    state: r.state,
    amountCents: r.amountCents,
    reason: r.reason,
    createdAt: r.createdAt.toISOString(),
    reviewedAt: iso(r.reviewedAt),
    reviewComments: r.reviewComments,
  };
}

/** Pay the publish bill (payment.ts `payPublishBill`), in one transaction. */
export async function payBill(input: Payload<"/sys/chainAppInfo/payPublishBill">, ctx: SignedInContext) {
  const now = ctx.services.now();
  return ctx.services.db.transaction((tx) =>
    payPublishBill(tx, { userId: me(ctx).id, verId: input.appVerId, idempotencyKey: input.idempotencyKey, now }),
  );
}

/**
 * A destructive action confirmed by typing the service's name (docs/decisions/029): a typed name that does
 * not match is refused with a field error, before anything changes.
 */
function requireTypedName(typed: string | undefined, name: string) {
  if (typed !== undefined && !sameServiceName(typed, name)) throw fieldError("confirmName", "validation.nameMismatch");
}

/** Cross-chain activated, pending activation or pending deactivation (SPEC §4). */
const CROSS_ENABLED: readonly number[] = [1, 3, 4];

/** A publisher's lifecycle event on their own version, re-checking serviceActions() (§4). */
function publisherEvent(action: "deactivate" | "enable") {
  return async (input: Payload<"/sys/chainAppInfo/deactivate">, ctx: SignedInContext) => {
    const now = ctx.services.now();
    await ctx.services.db.transaction(async (tx) => {
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
  if (!bill || bill.payState !== 15 || bill.payCents <= 0) return 0;
  const span = bill.periodEnd.getTime() - bill.periodStart.getTime();
  const left = Math.max(0, bill.periodEnd.getTime() - now.getTime());
  return span > 0 ? Math.floor((bill.payCents * Math.min(left, span)) / span) : 0;
}

/** §4: unsubscribing creates a refund request (state 1 pending) that an operator reviews. */
export async function unsubscribe(input: Payload<"/sys/chainAppInfo/unsubscribe">, ctx: SignedInContext) {
  const now = ctx.services.now();
  return ctx.services.db.transaction(async (tx) => {
    const { app, version } = await ownVersion(tx, me(ctx).id, input.appVerId, true);
    requireAction(app, version, "unsubscribe");
    requireTypedName(input.confirmName, app.name);
    const [pending] = await tx
      .select({ id: refundRequests.id })
      .from(refundRequests)
      .where(and(eq(refundRequests.verId, version.id), eq(refundRequests.state, 1)));
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
  const { app, version } = await ownVersion(ctx.services.db, me(ctx).id, input.appVerId);
  if (version.verState !== VerState.RUNNING) throw new ApiError(NOT_RUNNING);
  requireAction(app, version, "invite");
  const link = invitationLink(ctx.services.env, {
    appId: app.id,
    appCode: app.appCode,
    language: input.language,
    now: ctx.services.now(),
  });
  return { path: link.path, expiresAt: link.expiresAt.toISOString() };
}

/** §5: the publisher replies to a comment on their service (reply required, 150 characters). */
export async function replyComment(input: Payload<"/sys/chainAppInfo/replyComment">, ctx: SignedInContext) {
  const db = ctx.services.db;
  const [app] = await db.select().from(apps).where(eq(apps.id, input.appId));
  if (!app || app.userId !== me(ctx).id) throw new ApiError(Msg.NOT_FOUND);
  const updated = await db
    .update(appComments)
    .set({ reply: input.reply, repliedAt: ctx.services.now() })
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

/* ------------------------------------------------------------------------------------------------
 * Operations (operators only; the contract's auth "operator" answers code 4 to anyone else).
 * ---------------------------------------------------------------------------------------------- */

/** The initial-review queue (5) or the final-review queue (15), oldest submission first. */
export async function reviewList(input: Payload<"/sys/ops/serviceReviews/list">, ctx: SignedInContext) {
  const db = ctx.services.db;
  const state = input.queue === "initial" ? VerState.PENDING_INITIAL_REVIEW : VerState.PENDING_REVIEW;
  const [{ total }] = await db.select({ total: count() }).from(appVersions).where(eq(appVersions.verState, state));
  const list = await db
    .select({ v: appVersions, a: apps, publisher: users.userName })
    .from(appVersions)
    .innerJoin(apps, eq(apps.id, appVersions.appId))
    .innerJoin(users, eq(users.id, apps.userId))
    .where(eq(appVersions.verState, state))
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
  const now = ctx.services.now();
  const operator = me(ctx);
  return ctx.services.db.transaction(async (tx) => {
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
  const db = ctx.services.db;
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
      input.state === 1 ? asc(refundRequests.createdAt) : desc(refundRequests.reviewedAt),
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
  const now = ctx.services.now();
  const operator = me(ctx);
  return ctx.services.db.transaction(async (tx) => {
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
      await tx.insert(messages).values({
        userId: refund.userId,
        textKey: "messages.service.refundRejected",
        params: { name: app.name, comments: comments ?? "" },
        refKind: "service",
        refId: app.id,
        createdAt: now,
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
        await tx
          .update(bills)
          .set({
            refundCents: refunded,
            refundNo: `RF${now.getTime().toString(36).toUpperCase()}${randomBytes(2).toString("hex").toUpperCase()}`,
            payState: refunded >= bill.payCents ? 20 : 25,
          })
          .where(eq(bills.id, bill.id));
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

/**
 * Operator suspension (docs/decisions/015): operators suspend running services (25 → 40) and lift the
 * suspension (40 → 25); at 40 the publisher's "Enable" is a request to operations, which an operator
 * grants by enabling or declines with comments. Every decision is a lifecycle event (machine.ts) applied
 * by applyTransition, so it is recorded for the approval records and the publisher gets a message.
 */

/** Clears the pending request: an operator's enable and decline both close it. */
const NO_REQUEST = { enableRequestedAt: null, enableRequestNote: null };

/** The publisher asks operations to lift the suspension of their own version (at most one request pending). */
export async function requestEnable(input: Payload<"/sys/chainAppInfo/requestEnable">, ctx: SignedInContext) {
  const now = ctx.services.now();
  const note = input.note?.trim() || null;
  await ctx.services.db.transaction(async (tx) => {
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
  const db = ctx.services.db;
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
  const now = ctx.services.now();
  return ctx.services.db.transaction(async (tx) => {
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
