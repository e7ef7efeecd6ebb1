import { escapeLike } from "#backend/kit/sql.ts";
import services from "#backend/domains/services/index.ts";
import type { KeyObject } from "node:crypto";
import { and, asc, count, desc, eq, ilike, inArray, isNull, notInArray, sql, type SQL } from "drizzle-orm";
import * as x509 from "@peculiar/x509";
import type { z } from "zod";
import { Msg } from "#contract/messages.ts";
import { accessAllowed, EXPIRY_WARNING_DAYS, listStatusOf, orderExpired } from "#contract/participation.ts";
import type { pageRequestSchema } from "#contract/platform.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { appFunctions, appRoleFunctions, appRoles, appVersions, apps } from "#backend/domains/services/tables.ts";
import { appJoinNodes, appJoinTransitions, appJoins, certificates } from "./tables.ts";
import { bills } from "#backend/domains/billing/tables.ts";
import { cityNodes, messages, users } from "#backend/db/tables.ts";
import type { BackendEnv } from "#backend/env.ts";
import { ApiError, fieldError } from "#backend/http/errors.ts";
import type { SignedInContext, Payload } from "#backend/http/router.ts";
import { accessNodeCents, applyJoinEvent, orderOf, payOrder, releasedNodeIds, startOrder } from "./audit.ts";
import {
  encryptKeyWithPassword,
  issueCertificate,
  newKeyPair,
  openWithServer,
  sealWithServer,
  serviceCa,
  verifyUploadedKey,
} from "./certs.ts";
import { cityNodeCatalogue } from "#backend/kit/constant-data.ts";
import { signLink, verifyLink, type LinkPurpose } from "#backend/kit/signed-link.ts";

type AppRow = typeof apps.$inferSelect;
type JoinRow = typeof appJoins.$inferSelect;
type VersionRow = typeof appVersions.$inferSelect;

const me = (ctx: SignedInContext) => ctx.user;
const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
const RUNNING = 25;
const REJECTED = [2, 4];
export { EXPIRY_WARNING_DAYS };

/* ------------------------------------------- tickets ------------------------------------------- */

/**
 * An apply ticket (docs/decisions/013): applyJoinApp checked the link's token, so it hands the caller a
 * ticket for this service, valid 24 hours and bound to the caller: a signed link (docs/decisions/050).
 */
const TICKET_TTL_MS = 24 * 60 * 60 * 1000;
const TICKET: LinkPurpose = "participation-apply-ticket";
export function issueTicket(env: BackendEnv, userId: number, appId: number, now: Date) {
  return signLink(env, TICKET, `${userId}.${appId}`, new Date(now.getTime() + TICKET_TTL_MS));
}
export function ticketValid(env: BackendEnv, ticket: string | undefined, userId: number, appId: number, now: Date) {
  return verifyLink(env, TICKET, ticket, now) === `${userId}.${appId}`;
}

/* ------------------------------------------- helpers ------------------------------------------- */

async function appById(db: Db | Tx, appId: number) {
  const [app] = await db.select().from(apps).where(eq(apps.id, appId));
  return app;
}
async function currentVersion(db: Db | Tx, app: AppRow): Promise<VersionRow | undefined> {
  if (!app.currentVerId) return undefined;
  const [v] = await db.select().from(appVersions).where(eq(appVersions.id, app.currentVerId));
  return v;
}
/** The caller's latest participation in the app that is not rejected (an open or accepted one). */
async function openJoin(db: Db | Tx, userId: number, appId: number) {
  const [row] = await db
    .select()
    .from(appJoins)
    .where(and(eq(appJoins.userId, userId), eq(appJoins.appId, appId), notInArray(appJoins.auditState, REJECTED)))
    .orderBy(desc(appJoins.id))
    .limit(1);
  return row;
}
/** One of the caller's participations (another user's is "not found"). */
async function ownJoin(db: Db | Tx, userId: number, joinId: number) {
  const [join] = await db.select().from(appJoins).where(eq(appJoins.id, joinId));
  if (!join || join.userId !== userId) throw new ApiError(Msg.NOT_FOUND);
  return join;
}
/** A participation in one of the caller's services (the publisher's side). */
async function publishersJoin(db: Db | Tx, userId: number, joinId: number) {
  const [row] = await db
    .select({ join: appJoins, app: apps })
    .from(appJoins)
    .innerJoin(apps, eq(apps.id, appJoins.appId))
    .where(eq(appJoins.id, joinId));
  if (!row || row.app.userId !== userId) throw new ApiError(Msg.NOT_FOUND);
  return row;
}

/**
 * Who may see a service's join page, roles and city nodes: its publisher, anybody with a participation in
 * it, anybody holding a valid apply ticket, and anybody when it is public and running.
 */
async function mayView(ctx: SignedInContext, app: AppRow, version: VersionRow | undefined, ticket?: string) {
  const user = me(ctx);
  if (app.userId === user.id) return true;
  if (app.isPublic && version?.verState === RUNNING) return true;
  if (ticketValid(ctx.services.env, ticket, user.id, app.id, ctx.services.now())) return true;
  const [any] = await ctx.services.db
    .select({ id: appJoins.id })
    .from(appJoins)
    .where(and(eq(appJoins.userId, user.id), eq(appJoins.appId, app.id)))
    .limit(1);
  return !!any;
}
async function viewable(ctx: SignedInContext, appId: number, ticket?: string) {
  const app = await appById(ctx.services.db, appId);
  if (!app) throw new ApiError(Msg.NOT_FOUND);
  const version = await currentVersion(ctx.services.db, app);
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

async function joinNodes(db: Db | Tx, joinId: number) {
  return db
    .select({
      cityNodeId: cityNodes.id,
      name: cityNodes.name,
      nameZh: cityNodes.nameZh,
      code: cityNodes.code,
      gatewayUrl: appJoinNodes.gatewayUrl,
    })
    .from(appJoinNodes)
    .innerJoin(cityNodes, eq(cityNodes.id, appJoinNodes.cityNodeId))
    .where(eq(appJoinNodes.joinId, joinId))
    .orderBy(asc(cityNodes.id));
}

async function transitionsOf(db: Db | Tx, joinId: number) {
  const rows = await db
    .select()
    .from(appJoinTransitions)
    .where(eq(appJoinTransitions.joinId, joinId))
    .orderBy(asc(appJoinTransitions.createdAt), asc(appJoinTransitions.id));
  return rows.map((t) => ({
    event: t.event,
    fromState: t.fromState,
    toState: t.toState,
    actorKind: t.actorKind,
    comments: t.comments,
    createdAt: t.createdAt.toISOString(),
  }));
}

const pageArgs = (page: { pageSize: number; pageIndex: number }) => ({
  limit: page.pageSize,
  offset: (page.pageIndex - 1) * page.pageSize,
});

/* ------------------------------------------- joining ------------------------------------------- */

/**
 * §7 applyJoinApp {appId, token}: the token is the invitation's c (checked with its d and e, docs/decisions/
 * 012), or the appCode of a public running service. Answers whether the caller already participates
 * (participatedYn, appJoinAuditId, auditState) and, when not, an apply ticket.
 */
export async function applyJoinApp(input: Payload<"/sys/chainAppInfo/applyJoinApp">, ctx: SignedInContext) {
  const { db, env } = ctx.services;
  const now = ctx.services.now();
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
    ? await ctx.services.db
        .select({ id: appRoles.id })
        .from(appRoles)
        .where(eq(appRoles.verId, version.id))
        .orderBy(asc(appRoles.id))
    : [];
  const { limit, offset } = pageArgs(input.page);
  const rows = await rolesOf(
    ctx.services.db,
    all.slice(offset, offset + limit).map((r) => r.id),
  );
  return { page: { rows, total: all.length, pageIndex: input.page.pageIndex, pageSize: input.page.pageSize } };
}

/** §7 queryReleaseRolesForAppList: the role a participation was granted. */
export async function queryReleaseRoles(
  input: Payload<"/sys/chainAppInfo/queryReleaseRolesForAppList">,
  ctx: SignedInContext,
) {
  const join = await ownJoin(ctx.services.db, me(ctx).id, input.page.condition.joinAuditId);
  if (join.appId !== input.page.condition.appId) throw new ApiError(Msg.NOT_FOUND);
  const rows = await rolesOf(ctx.services.db, [join.roleId]);
  return { page: { rows, total: rows.length, pageIndex: 1, pageSize: input.page.pageSize } };
}

/** §7 queryReleaseCitysForAppList: the city nodes to choose from, which the service runs on, and the chosen ones. */
export async function queryReleaseCitys(
  input: Payload<"/sys/chainAppInfo/queryReleaseCitysForAppList">,
  ctx: SignedInContext,
) {
  const db = ctx.services.db;
  const { app, version } = await viewable(ctx, input.page.condition.appId, input.page.condition.ticket);
  const released = version ? await releasedNodeIds(db, version.id) : new Set<number>();
  let selected = new Set<number>();
  if (input.page.condition.joinAuditId) {
    const join = await ownJoin(db, me(ctx).id, input.page.condition.joinAuditId);
    if (join.appId !== app.id) throw new ApiError(Msg.NOT_FOUND);
    selected = new Set((await joinNodes(db, join.id)).map((n) => n.cityNodeId));
  }
  // The catalogue is kept per process until it is written (backend/kit/constant-data.ts).
  const catalogue = await cityNodeCatalogue(ctx.services);
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
  const db = ctx.services.db;
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
  const expired = join.auditState === 5 && orderExpired(bill, ctx.services.now());
  const reissueCents = expired ? (await orderOf(ctx.services.db, join)).totalCents : null;
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
  const db = ctx.services.db;
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
  const ticketOk = app.isPublic || ticketValid(ctx.services.env, input.ticket, user.id, app.id, ctx.services.now());
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
  const { env } = ctx.services;
  const now = ctx.services.now();
  const user = me(ctx);
  return ctx.services.db.transaction(async (tx) => {
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

/**
 * Writes an application (audit state 0): the participation, its city nodes, the "apply" step of the
 * timeline, the certificate issued by the service CA, and the messages to the publisher and the applicant.
 */
export async function insertJoin(
  tx: Tx,
  env: BackendEnv,
  input: {
    app: AppRow;
    version: VersionRow;
    user: { id: number; userName: string };
    role: { id: number; name: string };
    nodeIds: number[];
    mode: number;
    publicKey: KeyObject;
    storedKey: string | null;
    now: Date;
  },
) {
  const { app, version, user, role, nodeIds, mode, publicKey, storedKey, now } = input;
  const [join] = await tx
    .insert(appJoins)
    .values({
      appId: app.id,
      verId: version.id,
      userId: user.id,
      roleId: role.id,
      auditState: 0,
      certificateMode: mode,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  await tx.insert(appJoinNodes).values(nodeIds.map((cityNodeId) => ({ joinId: join.id, cityNodeId })));
  await tx.insert(appJoinTransitions).values({
    joinId: join.id,
    event: "apply",
    fromState: 0,
    toState: 0,
    actorId: user.id,
    actorKind: "participant",
    comments: null,
    createdAt: now,
  });
  const ca = await serviceCa(tx, env, app, now);
  const issued = await issueCertificate(ca, {
    publicKey,
    userName: user.userName,
    roleName: role.name,
    appCode: app.appCode,
    now,
  });
  const [cert] = await tx
    .insert(certificates)
    .values({
      joinId: join.id,
      userId: user.id,
      appId: app.id,
      mode,
      serialNumber: issued.serialNumber,
      subject: issued.subject,
      certificatePem: issued.pem,
      encryptedKeyPem: storedKey,
      notBefore: issued.notBefore,
      notAfter: issued.notAfter,
      createdAt: now,
    })
    .returning({ id: certificates.id });
  const params = { name: app.name, applicant: user.userName };
  await tx.insert(messages).values([
    {
      userId: app.userId,
      textKey: "messages.participation.applied",
      params,
      refKind: "joinRequest",
      refId: join.id,
      createdAt: now,
    },
    {
      userId: user.id,
      textKey: "messages.participation.submitted",
      params,
      refKind: "participation",
      refId: app.id,
      createdAt: now,
    },
  ]);
  return { join, certificateId: cert.id };
}

/** §7 getJoinParamList: gateway per city node, user code, app code and the certificate; approved participations only. */
export async function getJoinParamList(input: Payload<"/sys/chainAppInfo/getJoinParamList">, ctx: SignedInContext) {
  const db = ctx.services.db;
  const join = await ownJoin(db, me(ctx).id, input.appJoinAuditId);
  const app = (await appById(db, join.appId))!;
  const version = await currentVersion(db, app);
  if (
    !accessAllowed({ auditState: join.auditState, verState: version?.verState ?? 0, disabled: !!join.disabledAt }) ||
    !join.userCode
  )
    throw new ApiError(Msg.ACCESS_NOT_AVAILABLE);
  const [role] = await db.select().from(appRoles).where(eq(appRoles.id, join.roleId));
  const nodes = await joinNodes(db, join.id);
  const certs = await certificateRows(db, join.userId, eq(certificates.joinId, join.id));
  return {
    appId: app.id,
    appCode: app.appCode,
    name: app.name,
    userCode: join.userCode,
    roleName: role?.name ?? "",
    gateways: nodes.map((n) => ({
      cityNodeId: n.cityNodeId,
      name: n.name,
      nameZh: n.nameZh,
      gatewayUrl: n.gatewayUrl ?? "",
    })),
    certificate: certs[0] ?? null,
    chain: version
      ? await services.api.serviceChainView(db, ctx.services.env, app.id, version.id, join.userId, ctx.services.now())
      : null,
  };
}

/** §2 ParticipatedServices: the caller's participations, searchable by service name and list status. */
export async function participatedList(input: Payload<"/sys/chainAppInfo/participatedList">, ctx: SignedInContext) {
  const db = ctx.services.db;
  const { condition, pageIndex, pageSize } = input.page;
  const name = condition.name?.trim();
  const rows = await db
    .select({ join: appJoins, app: apps, verState: appVersions.verState, roleName: appRoles.name })
    .from(appJoins)
    .innerJoin(apps, eq(apps.id, appJoins.appId))
    .leftJoin(appVersions, eq(appVersions.id, apps.currentVerId))
    .innerJoin(appRoles, eq(appRoles.id, appJoins.roleId))
    .where(and(eq(appJoins.userId, me(ctx).id), name ? ilike(apps.name, `%${escapeLike(name)}%`) : undefined))
    .orderBy(desc(appJoins.updatedAt), desc(appJoins.id))
    .limit(2000);
  const all = rows
    .map((r) => ({
      appJoinAuditId: r.join.id,
      appId: r.app.id,
      appCode: r.app.appCode,
      name: r.app.name,
      roleName: r.roleName,
      auditState: r.join.auditState,
      verState: r.verState ?? 0,
      listStatus: listStatusOf({
        auditState: r.join.auditState,
        verState: r.verState ?? 0,
        disabled: !!r.join.disabledAt,
      }),
      createdAt: r.join.createdAt.toISOString(),
      updatedAt: r.join.updatedAt.toISOString(),
    }))
    .filter((r) => !condition.status || r.listStatus === condition.status);
  return {
    page: { rows: all.slice((pageIndex - 1) * pageSize, pageIndex * pageSize), total: all.length, pageIndex, pageSize },
  };
}

export async function payJoinOrder(input: Payload<"/sys/chainAppInfo/payJoinOrder">, ctx: SignedInContext) {
  const now = ctx.services.now();
  return ctx.services.db.transaction((tx) =>
    payOrder(tx, { userId: me(ctx).id, joinId: input.appJoinAuditId, idempotencyKey: input.idempotencyKey, now }),
  );
}

/** The participant confirms the work order (13 → 15 participated). */
export async function confirmJoin(input: Payload<"/sys/chainAppInfo/confirmJoin">, ctx: SignedInContext) {
  const user = me(ctx);
  await ctx.services.db.transaction(async (tx) => {
    await ownJoin(tx, user.id, input.appJoinAuditId);
    await applyJoinEvent(tx, {
      joinId: input.appJoinAuditId,
      event: "confirm",
      actor: "participant",
      actorId: user.id,
      now: ctx.services.now(),
    });
  });
  return null;
}

/* ---------------------------------------- the publisher's side ---------------------------------------- */

/** §7 auditAppJoined: the publisher approves (1) or rejects (2, comments required) a pending request. */
export async function auditAppJoined(input: Payload<"/sys/chainAppInfo/auditAppJoined">, ctx: SignedInContext) {
  const user = me(ctx);
  return ctx.services.db.transaction(async (tx) => {
    await publishersJoin(tx, user.id, input.appJoinAuditId);
    const r = await applyJoinEvent(tx, {
      joinId: input.appJoinAuditId,
      event: input.auditState === 1 ? "publisherApprove" : "publisherReject",
      actor: "publisher",
      actorId: user.id,
      comments: input.comments,
      now: ctx.services.now(),
    });
    return { auditState: r.to };
  });
}

/** The publisher disables a participant (§6): no further step, certificate revoked, access withdrawn. */
export async function disableJoin(input: Payload<"/sys/chainAppInfo/disableJoin">, ctx: SignedInContext) {
  const user = me(ctx);
  const now = ctx.services.now();
  await ctx.services.db.transaction(async (tx) => {
    const { app } = await publishersJoin(tx, user.id, input.appJoinAuditId);
    const [join] = await tx.select().from(appJoins).where(eq(appJoins.id, input.appJoinAuditId)).for("update");
    if (join.disabledAt) throw new ApiError(Msg.ALREADY_DISABLED);
    if (REJECTED.includes(join.auditState)) throw new ApiError(Msg.JOIN_STEP_NOT_AVAILABLE);
    await tx.update(appJoins).set({ disabledAt: now, updatedAt: now }).where(eq(appJoins.id, join.id));
    await tx
      .update(certificates)
      .set({ revokedAt: now })
      .where(and(eq(certificates.joinId, join.id), isNull(certificates.revokedAt)));
    await tx.insert(appJoinTransitions).values({
      joinId: join.id,
      event: "disable",
      fromState: join.auditState,
      toState: join.auditState,
      actorId: user.id,
      actorKind: "publisher",
      comments: input.comments,
      createdAt: now,
    });
    await tx.insert(messages).values({
      userId: join.userId,
      textKey: "messages.participation.disabled",
      params: { name: app.name, comments: input.comments },
      refKind: "participation",
      refId: app.id,
      createdAt: now,
    });
  });
  return null;
}

/** The requests to join matching `where`, with their service, applicant and role: the count and one page. */
async function joinRequests(db: Db, where: SQL | undefined, order: SQL[], pageIndex: number, pageSize: number) {
  const [{ total }] = await db
    .select({ total: count() })
    .from(appJoins)
    .innerJoin(apps, eq(apps.id, appJoins.appId))
    .where(where);
  const rows = await db
    .select({ join: appJoins, app: apps, applicant: users.userName, realName: users.realName, roleName: appRoles.name })
    .from(appJoins)
    .innerJoin(apps, eq(apps.id, appJoins.appId))
    .innerJoin(users, eq(users.id, appJoins.userId))
    .innerJoin(appRoles, eq(appRoles.id, appJoins.roleId))
    .where(where)
    .orderBy(...order)
    .limit(pageSize)
    .offset((pageIndex - 1) * pageSize);
  return { total, rows };
}

function manageRow(r: { join: JoinRow; app: AppRow; applicant: string; realName: string; roleName: string }) {
  return {
    appJoinAuditId: r.join.id,
    appId: r.app.id,
    name: r.app.name,
    applicant: r.applicant,
    applicantRealName: r.realName,
    roleName: r.roleName,
    auditState: r.join.auditState,
    disabled: !!r.join.disabledAt,
    createdAt: r.join.createdAt.toISOString(),
  };
}

/** §2 ParticipationManagement: the requests to join the caller's services, by service name and audit state. */
export async function joinManageList(input: Payload<"/sys/chainAppInfo/joinManageList">, ctx: SignedInContext) {
  const db = ctx.services.db;
  const { condition, pageIndex, pageSize } = input.page;
  const name = condition.name?.trim();
  const where = and(
    eq(apps.userId, me(ctx).id),
    name ? ilike(apps.name, `%${escapeLike(name)}%`) : undefined,
    condition.auditState !== undefined ? eq(appJoins.auditState, condition.auditState) : undefined,
  );
  // Pending requests first, then the newest.
  const { total, rows } = await joinRequests(
    db,
    where,
    [sql`case when ${appJoins.auditState} = 0 then 0 else 1 end`, desc(appJoins.createdAt), desc(appJoins.id)],
    pageIndex,
    pageSize,
  );
  return { page: { rows: rows.map(manageRow), total, pageIndex, pageSize } };
}

export async function joinManageView(input: Payload<"/sys/chainAppInfo/joinManageView">, ctx: SignedInContext) {
  const db = ctx.services.db;
  const { join, app } = await publishersJoin(db, me(ctx).id, input.appJoinAuditId);
  const [applicant] = await db.select().from(users).where(eq(users.id, join.userId));
  const [role] = await db.select().from(appRoles).where(eq(appRoles.id, join.roleId));
  const [cert] = await db
    .select({ subject: certificates.subject })
    .from(certificates)
    .where(eq(certificates.joinId, join.id))
    .orderBy(desc(certificates.id))
    .limit(1);
  const nodes = await joinNodes(db, join.id);
  return {
    ...manageRow({
      join,
      app,
      applicant: applicant.userName,
      realName: applicant.realName,
      roleName: role?.name ?? "",
    }),
    appCode: app.appCode,
    applicantEmail: applicant.email,
    certificateMode: join.certificateMode,
    certificateSubject: cert?.subject ?? null,
    cityNodes: nodes.map((n) => ({ cityNodeId: n.cityNodeId, name: n.name, nameZh: n.nameZh })),
    transitions: await transitionsOf(db, join.id),
  };
}

/* ------------------------------------------ the operators ------------------------------------------ */

/** Operations queue: requests the publisher approved (1), oldest first. */
export async function opsList(input: Payload<"/sys/ops/participations/list">, ctx: SignedInContext) {
  const db = ctx.services.db;
  const publishers = users;
  const { total, rows } = await joinRequests(
    db,
    eq(appJoins.auditState, 1),
    [asc(appJoins.updatedAt), asc(appJoins.id)],
    input.pageIndex,
    input.pageSize,
  );
  const ownerIds = [...new Set(rows.map((r) => r.app.userId))];
  const owners = ownerIds.length
    ? await db
        .select({ id: publishers.id, userName: publishers.userName })
        .from(publishers)
        .where(inArray(publishers.id, ownerIds))
    : [];
  const out = [];
  for (const r of rows) {
    const nodes = await joinNodes(db, r.join.id);
    out.push({
      ...manageRow(r),
      publisher: owners.find((o) => o.id === r.app.userId)?.userName ?? "",
      cityNodes: nodes.map((n) => n.name),
    });
  }
  return { page: { rows: out, total, pageIndex: input.pageIndex, pageSize: input.pageSize } };
}

/** An operator approves (1 → 3, then the order or the work order starts) or rejects (→ 4, comments required). */
export async function opsDecide(input: Payload<"/sys/ops/participations/decide">, ctx: SignedInContext) {
  const user = me(ctx);
  const now = ctx.services.now();
  return ctx.services.db.transaction(async (tx) => {
    const r = await applyJoinEvent(tx, {
      joinId: input.appJoinAuditId,
      event: input.decision === "approve" ? "operatorApprove" : "operatorReject",
      actor: "operator",
      actorId: user.id,
      comments: input.comments,
      now,
    });
    if (r.to !== 3) return { auditState: r.to };
    await startOrder(tx, input.appJoinAuditId, now);
    const [after] = await tx
      .select({ s: appJoins.auditState })
      .from(appJoins)
      .where(eq(appJoins.id, input.appJoinAuditId));
    return { auditState: after.s };
  });
}

/* ------------------------------------------ certificates ------------------------------------------ */

async function certificateRows(
  db: Db | Tx,
  userId: number,
  extra: ReturnType<typeof eq>,
  page?: { limit: number; offset: number },
) {
  const q = db
    .select({
      c: certificates,
      app: apps,
      join: appJoins,
      roleName: appRoles.name,
      verState: appVersions.verState,
      caPem: sql<string | null>`(select certificate_pem from app_cas where app_id = ${apps.id})`,
    })
    .from(certificates)
    .innerJoin(apps, eq(apps.id, certificates.appId))
    .innerJoin(appJoins, eq(appJoins.id, certificates.joinId))
    .innerJoin(appRoles, eq(appRoles.id, appJoins.roleId))
    .leftJoin(appVersions, eq(appVersions.id, apps.currentVerId))
    .where(and(eq(certificates.userId, userId), extra))
    .orderBy(asc(certificates.notAfter), desc(certificates.id));
  const rows = page ? await q.limit(page.limit).offset(page.offset) : await q;
  return rows.map((r) => {
    const approved = accessAllowed({
      auditState: r.join.auditState,
      verState: r.verState ?? 0,
      disabled: !!r.join.disabledAt,
    });
    return {
      certificateId: r.c.id,
      appJoinAuditId: r.join.id,
      appId: r.app.id,
      appName: r.app.name,
      appCode: r.app.appCode,
      roleName: r.roleName,
      mode: r.c.mode,
      serialNumber: r.c.serialNumber,
      subject: r.c.subject,
      issuer: r.caPem ? issuerOf(r.caPem) : "",
      notBefore: r.c.notBefore.toISOString(),
      notAfter: r.c.notAfter.toISOString(),
      revokedAt: iso(r.c.revokedAt),
      keyAvailable: r.c.mode !== 3 && !!r.c.encryptedKeyPem,
      downloadable: approved && !r.c.revokedAt,
    };
  });
}

const issuerCache = new Map<string, string>();
/** The subject of a service CA (the issuer of its certificates), parsed once per CA. */
function issuerOf(caPem: string) {
  let subject = issuerCache.get(caPem);
  if (subject === undefined) {
    subject = new x509.X509Certificate(caPem).subject;
    issuerCache.set(caPem, subject);
  }
  return subject;
}

/** §2 MyCertificates: every certificate of the caller, soonest expiry first. */
export async function myCertificates(input: z.output<typeof pageRequestSchema>, ctx: SignedInContext) {
  const { pageIndex, pageSize } = input.page;
  const [{ total }] = await ctx.services.db
    .select({ total: count() })
    .from(certificates)
    .where(eq(certificates.userId, me(ctx).id));
  const rows = await certificateRows(ctx.services.db, me(ctx).id, eq(certificates.userId, me(ctx).id), {
    limit: pageSize,
    offset: (pageIndex - 1) * pageSize,
  });
  return { page: { rows, total, pageIndex, pageSize } };
}

/** A certificate (PEM) or its private key: key trust's encrypted PKCS#8 any time, a participant certificate's key once. */
export async function certificateFile(input: Payload<"/sys/chainAppInfo/certificateFile">, ctx: SignedInContext) {
  const user = me(ctx);
  return ctx.services.db.transaction(async (tx) => {
    const [cert] = await tx.select().from(certificates).where(eq(certificates.id, input.certificateId)).for("update");
    if (!cert || cert.userId !== user.id) throw new ApiError(Msg.NOT_FOUND);
    const [row] = await certificateRows(tx, user.id, eq(certificates.id, cert.id));
    if (!row?.downloadable) throw new ApiError(Msg.ACCESS_NOT_AVAILABLE);
    const base = `${row.appCode.toLowerCase()}-${cert.serialNumber.slice(0, 8)}`;
    if (input.kind === "certificate") return { fileName: `${base}-cert.pem`, pem: cert.certificatePem };
    if (cert.mode === 3) throw new ApiError(Msg.NOT_FOUND);
    if (!cert.encryptedKeyPem) throw new ApiError(Msg.KEY_ALREADY_DOWNLOADED);
    if (cert.mode === 2) return { fileName: `${base}-key.encrypted.pem`, pem: cert.encryptedKeyPem };
    await tx.update(certificates).set({ encryptedKeyPem: null }).where(eq(certificates.id, cert.id));
    return { fileName: `${base}-key.pem`, pem: openWithServer(ctx.services.env, cert.encryptedKeyPem) };
  });
}

/** Tests only (TEST_FIXTURES=1): the certificate mode and public flag of one of the caller's services. */
export async function testServiceSettings(input: Payload<"/test/participation/service">, ctx: SignedInContext) {
  if (!ctx.services.env.testFixtures) throw new ApiError(Msg.NOT_FOUND);
  const app = await appById(ctx.services.db, input.appId);
  if (!app || app.userId !== me(ctx).id || !app.currentVerId) throw new ApiError(Msg.NOT_FOUND);
  if (input.isPublic !== undefined)
    await ctx.services.db.update(apps).set({ isPublic: input.isPublic }).where(eq(apps.id, app.id));
  if (input.certificateMode !== undefined)
    await ctx.services.db
      .update(appVersions)
      .set({ certificateMode: input.certificateMode })
      .where(eq(appVersions.id, app.currentVerId));
  return null;
}

/** Tests only (TEST_FIXTURES=1): the deadline of the caller's unpaid node order passes now. */
export async function testOrderDeadline(input: Payload<"/test/participation/order">, ctx: SignedInContext) {
  if (!ctx.services.env.testFixtures) throw new ApiError(Msg.NOT_FOUND);
  const join = await ownJoin(ctx.services.db, me(ctx).id, input.appJoinAuditId);
  if (!join.orderBillId) throw new ApiError(Msg.NOT_FOUND);
  await ctx.services.db
    .update(bills)
    .set({ deadline: new Date(ctx.services.now().getTime() - 1) })
    .where(and(eq(bills.id, join.orderBillId), eq(bills.payState, 1)));
  return null;
}
