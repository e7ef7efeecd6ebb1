import billing from "#backend/domains/billing/index.ts";
import services from "#backend/domains/services/index.ts";
import { type KeyObject } from "node:crypto";
import { and, asc, desc, eq, inArray } from "drizzle-orm";
import { Msg } from "#contract/messages.ts";
import { accessAllowed, AuditState, listStatusOf, orderExpired } from "#contract/participation.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { appFunctions, appRoleFunctions, appRoles, apps } from "#backend/domains/services/tables.ts";
import { appJoins, certificates } from "#backend/domains/participation/tables.ts";
import { bills } from "#backend/domains/billing/tables.ts";
import { cityNodes, users } from "#backend/db/tables.ts";
import { ApiError, fieldError } from "#backend/http/errors.ts";
import type { SignedInContext, Payload } from "#backend/http/router.ts";
import {
  accessNodeCents,
  applyJoinEvent,
  orderOf,
  payOrder,
  releasedNodeIds,
} from "#backend/domains/participation/audit.ts";
import {
  encryptKeyWithPassword,
  newKeyPair,
  sealWithServer,
  verifyUploadedKey,
} from "#backend/domains/participation/certs.ts";
import { cityNodeCatalogue } from "#backend/kit/constant-data.ts";
import {
  type AppRow,
  type JoinRow,
  type VersionRow,
  me,
  RUNNING,
  appById,
  currentVersion,
  openJoin,
  ownJoin,
  joinNodes,
  transitionsOf,
} from "./shared.ts";
import { issueTicket, ticketValid } from "#backend/domains/participation/tickets.ts";
import { insertJoin } from "#backend/domains/participation/insert-join.ts";

/**
 * Who may see a service's join page, roles and city nodes: its publisher, anybody with a participation in
 * it, anybody holding a valid apply ticket, and anybody when it is public and running.
 */
async function mayView(ctx: SignedInContext, app: AppRow, version: VersionRow | undefined, ticket?: string) {
  const user = me(ctx);
  if (app.userId === user.id) return true;
  if (app.isPublic && version?.verState === RUNNING) return true;
  if (ticketValid(ctx.deps.env, ticket, user.id, app.id, ctx.deps.now())) return true;
  const [any] = await ctx.deps.db
    .select({ id: appJoins.id })
    .from(appJoins)
    .where(and(eq(appJoins.userId, user.id), eq(appJoins.appId, app.id)))
    .limit(1);
  return !!any;
}
async function viewable(ctx: SignedInContext, appId: number, ticket?: string) {
  const app = await appById(ctx.deps.db, appId);
  if (!app) throw new ApiError(Msg.NOT_FOUND);
  const version = await currentVersion(ctx.deps.db, app);
  if (!(await mayView(ctx, app, version, ticket))) throw new ApiError(Msg.NOT_FOUND);
  return { app, version };
}

async function rolesOf(db: Db | Tx, roleIds: number[]) {
  if (roleIds.length === 0) return [];
  const roles = await db.select().from(appRoles).where(inArray(appRoles.id, roleIds)).orderBy(asc(appRoles.id));
  const grants = await db
    .select({ roleId: appRoleFunctions.roleId, name: appFunctions.name })
    .from(appRoleFunctions)
    .innerJoin(appFunctions, eq(appFunctions.id, appRoleFunctions.functionId))
    .where(inArray(appRoleFunctions.roleId, roleIds))
    .orderBy(asc(appFunctions.id));
  return roles.map((r) => ({
    roleId: r.id,
    name: r.name,
    description: r.description,
    functions: grants.filter((g) => g.roleId === r.id).map((g) => g.name),
  }));
}

const pageArgs = (page: { pageSize: number; pageIndex: number }) => ({
  limit: page.pageSize,
  offset: (page.pageIndex - 1) * page.pageSize,
});

/**
 * §7 applyJoinApp {appId, token}: the token is the invitation's c (checked with its d and e, docs/decisions/
 * 012), or the appCode of a public running service. Answers whether the caller already participates
 * (participatedYn, appJoinAuditId, auditState) and, when not, an apply ticket.
 */
export async function applyJoinApp(input: Payload<"/sys/chainAppInfo/applyJoinApp">, ctx: SignedInContext) {
  const { db, env } = ctx.deps;
  const now = ctx.deps.now();
  const user = me(ctx);
  const app = await appById(db, input.appId);
  if (!app) throw new ApiError(Msg.TOKENS_INVALID);
  const version = await currentVersion(db, app);
  let valid: boolean;
  if (input.token === app.appCode) {
    valid = app.isPublic;
  } else {
    const query = new URLSearchParams({
      a: String(app.id),
      b: app.appCode,
      c: input.token,
      d: input.expiry ?? "",
      e: input.language ?? "",
    });
    valid = services.api.verifyInvitation(env, query, now)?.appId === app.id;
  }
  if (!valid) throw new ApiError(Msg.TOKENS_INVALID);
  if (app.userId === user.id) throw new ApiError(Msg.OWN_SERVICE);
  const existing = await openJoin(db, user.id, app.id);
  if (existing)
    return {
      participatedYn: 1 as const,
      appJoinAuditId: existing.id,
      auditState: existing.auditState,
      appCode: app.appCode,
      ticket: null,
    };
  if (version?.verState !== RUNNING) throw new ApiError(Msg.SERVICE_NOT_RUNNING);
  return {
    participatedYn: 0 as const,
    appJoinAuditId: null,
    auditState: null,
    appCode: app.appCode,
    ticket: issueTicket(env, user.id, app.id, now),
  };
}

/** §7 queryRolesForAppList: the roles of the running version to apply under (page size 999, §9). */
export async function queryRoles(input: Payload<"/sys/chainAppInfo/queryRolesForAppList">, ctx: SignedInContext) {
  const { version } = await viewable(ctx, input.page.condition.appId, input.page.condition.ticket);
  const all = version
    ? await ctx.deps.db
        .select({ id: appRoles.id })
        .from(appRoles)
        .where(eq(appRoles.verId, version.id))
        .orderBy(asc(appRoles.id))
    : [];
  const { limit, offset } = pageArgs(input.page);
  const rows = await rolesOf(
    ctx.deps.db,
    all.slice(offset, offset + limit).map((r) => r.id),
  );
  return { page: { rows, total: all.length, pageIndex: input.page.pageIndex, pageSize: input.page.pageSize } };
}

/** §7 queryReleaseRolesForAppList: the role a participation was granted. */
export async function queryReleaseRoles(
  input: Payload<"/sys/chainAppInfo/queryReleaseRolesForAppList">,
  ctx: SignedInContext,
) {
  const join = await ownJoin(ctx.deps.db, me(ctx).id, input.page.condition.joinAuditId);
  if (join.appId !== input.page.condition.appId) throw new ApiError(Msg.NOT_FOUND);
  const rows = await rolesOf(ctx.deps.db, [join.roleId]);
  return { page: { rows, total: rows.length, pageIndex: 1, pageSize: input.page.pageSize } };
}

/** §7 queryReleaseCitysForAppList: the city nodes to choose from, which the service runs on, and the chosen ones. */
export async function queryReleaseCitys(
  input: Payload<"/sys/chainAppInfo/queryReleaseCitysForAppList">,
  ctx: SignedInContext,
) {
  const db = ctx.deps.db;
  const { app, version } = await viewable(ctx, input.page.condition.appId, input.page.condition.ticket);
  const released = version ? await releasedNodeIds(db, version.id) : new Set<number>();
  let selected = new Set<number>();
  if (input.page.condition.joinAuditId) {
    const join = await ownJoin(db, me(ctx).id, input.page.condition.joinAuditId);
    if (join.appId !== app.id) throw new ApiError(Msg.NOT_FOUND);
    selected = new Set((await joinNodes(db, join.id)).map((n) => n.cityNodeId));
  }
  // The catalogue is kept per process until it is written (backend/kit/constant-data.ts).
  const catalogue = await cityNodeCatalogue(ctx.deps);
  const total = catalogue.length;
  const { limit, offset } = pageArgs(input.page);
  const nodes = catalogue.slice(offset, offset + limit);
  const rows = nodes.map((n) => ({
    cityNodeId: n.id,
    code: n.code,
    name: n.name,
    nameZh: n.nameZh,
    operator: n.operator,
    cloudProvider: n.cloudProvider,
    operatorZh: n.operatorZh,
    cloudProviderZh: n.cloudProviderZh,
    released: released.has(n.id),
    orderCents: released.has(n.id) ? 0 : accessNodeCents(n),
    selected: selected.has(n.id),
  }));
  return { page: { rows, total, pageIndex: input.page.pageIndex, pageSize: input.page.pageSize } };
}

async function participationOf(ctx: SignedInContext, join: JoinRow, version: VersionRow | undefined) {
  const db = ctx.deps.db;
  const [role] = await db.select().from(appRoles).where(eq(appRoles.id, join.roleId));
  const nodes = await joinNodes(db, join.id);
  const [bill] = join.orderBillId ? await db.select().from(bills).where(eq(bills.id, join.orderBillId)) : [];
  const [cert] = await db
    .select({ id: certificates.id })
    .from(certificates)
    .where(eq(certificates.joinId, join.id))
    .orderBy(desc(certificates.id))
    .limit(1);
  const flags = { auditState: join.auditState, verState: version?.verState ?? 0, disabled: !!join.disabledAt };
  return {
    appJoinAuditId: join.id,
    auditState: join.auditState,
    listStatus: listStatusOf(flags),
    roleId: join.roleId,
    roleName: role?.name ?? "",
    certificateMode: join.certificateMode,
    disabled: !!join.disabledAt,
    createdAt: join.createdAt.toISOString(),
    cityNodes: nodes.map((n) => ({ cityNodeId: n.cityNodeId, name: n.name, nameZh: n.nameZh })),
    transitions: await transitionsOf(db, join.id),
    order: bill ? await orderSummary(ctx, join, bill) : null,
    accessAllowed: accessAllowed(flags),
    certificateId: cert?.id ?? null,
  };
}

/** The node order as the participant sees it; an expired one with what re-issuing it costs now. */
async function orderSummary(ctx: SignedInContext, join: JoinRow, bill: typeof bills.$inferSelect) {
  const expired = join.auditState === AuditState.TO_ORDER && orderExpired(bill, ctx.deps.now());
  const reissueCents = expired ? (await orderOf(ctx.deps.db, join)).totalCents : null;
  return {
    billId: bill.id,
    billNo: bill.billNo,
    payState: bill.payState,
    totalCents: bill.totalCents,
    deadline: bill.deadline.toISOString(),
    expired,
    reissueCents,
  };
}

/** §7 view {appId, appJoinAuditId}: the service as a (future) participant sees it, with their participation. */
export async function view(input: Payload<"/sys/chainAppInfo/view">, ctx: SignedInContext) {
  const db = ctx.deps.db;
  const user = me(ctx);
  const { app, version } = await viewable(ctx, input.appId, input.ticket);
  let join: JoinRow | undefined;
  if (input.appJoinAuditId) {
    join = await ownJoin(db, user.id, input.appJoinAuditId);
    if (join.appId !== app.id) throw new ApiError(Msg.NOT_FOUND);
  } else {
    join = await openJoin(db, user.id, app.id);
  }
  const open = await openJoin(db, user.id, app.id);
  const [publisher] = await db
    .select({ userName: users.userName, companyName: users.companyName })
    .from(users)
    .where(eq(users.id, app.userId));
  const ticketOk = app.isPublic || ticketValid(ctx.deps.env, input.ticket, user.id, app.id, ctx.deps.now());
  return {
    appId: app.id,
    appCode: app.appCode,
    name: app.name,
    publisher: publisher?.companyName || publisher?.userName || "",
    industry: app.industry,
    description: app.description,
    introduction: app.introduction,
    version: version?.version ?? "",
    verState: version?.verState ?? 0,
    certificateMode: version?.certificateMode ?? 1,
    isPublic: app.isPublic,
    ifJoIn: (join ? 1 : 0) as 0 | 1,
    canApply: !open && app.userId !== user.id && version?.verState === RUNNING && ticketOk,
    participation: join ? await participationOf(ctx, join, version) : null,
  };
}

/**
 * Applies to join (SPEC §1, §5): a role of the running version, one or more city nodes, and the identity
 * certificate in the service's mode, issued at once by the service CA (revoked if the request is rejected).
 */
export async function joinApp(input: Payload<"/sys/chainAppInfo/joinApp">, ctx: SignedInContext) {
  const { env } = ctx.deps;
  const now = ctx.deps.now();
  const user = me(ctx);
  return ctx.deps.db.transaction(async (tx) => {
    // Locking the service serialises applications to it, so one user never gets two open ones.
    const [app] = await tx.select().from(apps).where(eq(apps.id, input.appId)).for("update");
    if (!app) throw new ApiError(Msg.NOT_FOUND);
    if (app.userId === user.id) throw new ApiError(Msg.OWN_SERVICE);
    if (!app.isPublic && !ticketValid(env, input.ticket, user.id, app.id, now)) throw new ApiError(Msg.TOKENS_INVALID);
    const version = await currentVersion(tx, app);
    if (version?.verState !== RUNNING) throw new ApiError(Msg.SERVICE_NOT_RUNNING);
    if (await openJoin(tx, user.id, app.id)) throw new ApiError(Msg.ALREADY_JOINED);
    const mode = version.certificateMode ?? 1;
    if (input.certificateMode !== mode) throw fieldError("certificateMode", "validation.invalid");
    const [role] = await tx
      .select()
      .from(appRoles)
      .where(and(eq(appRoles.id, input.roleId), eq(appRoles.verId, version.id)));
    if (!role) throw fieldError("roleId", "participation:validation.role");
    const nodeIds = [...new Set(input.cityNodeIds)];
    const nodes = await tx.select({ id: cityNodes.id }).from(cityNodes).where(inArray(cityNodes.id, nodeIds));
    if (nodes.length !== nodeIds.length) throw fieldError("cityNodeIds", "participation:validation.nodes");

    // The identity certificate's key (§5): checked before anything is written.
    let publicKey: KeyObject;
    let storedKey: string | null = null;
    if (mode === 3) {
      publicKey = verifyUploadedKey({
        publicKey: input.publicKey ?? "",
        testData: input.testData ?? "",
        signature: input.signature ?? "",
      });
    } else {
      const pair = newKeyPair();
      publicKey = pair.publicKey;
      if (mode === 2) {
        if (!input.password || !/^[A-Za-z0-9]{6,20}$/.test(input.password) || input.password !== input.confirmPassword)
          throw new ApiError(Msg.CERT_PASSWORD_ERROR);
        storedKey = encryptKeyWithPassword(pair.privateKey, input.password);
      } else {
        // Participant certificate: the key is kept sealed with the server secret until it is downloaded once.
        storedKey = sealWithServer(env, pair.privateKey.export({ type: "pkcs8", format: "pem" }) as string);
      }
    }

    const { join, certificateId } = await insertJoin(tx, env, {
      app,
      version,
      user,
      role,
      nodeIds,
      mode,
      publicKey,
      storedKey,
      now,
    });
    return { appJoinAuditId: join.id, auditState: join.auditState, certificateId };
  });
}

/** Pays the node order; above a developer's spending limit its bill waits for finance (docs/decisions/080). */
export async function payJoinOrder(input: Payload<"/sys/chainAppInfo/payJoinOrder">, ctx: SignedInContext) {
  const now = ctx.deps.now();
  return ctx.deps.db
    .transaction((tx) =>
      payOrder(tx, { userId: me(ctx).id, joinId: input.appJoinAuditId, idempotencyKey: input.idempotencyKey, now }),
    )
    .catch((error: unknown) => billing.api.sendToFinanceOr(ctx.deps.db, me(ctx).id, error, now));
}

/** The participant confirms the work order (13 → 15 participated). */
export async function confirmJoin(input: Payload<"/sys/chainAppInfo/confirmJoin">, ctx: SignedInContext) {
  const user = me(ctx);
  await ctx.deps.db.transaction(async (tx) => {
    await ownJoin(tx, user.id, input.appJoinAuditId);
    await applyJoinEvent(tx, {
      joinId: input.appJoinAuditId,
      event: "confirm",
      actor: "participant",
      actorId: user.id,
      now: ctx.deps.now(),
    });
  });
  return null;
}
