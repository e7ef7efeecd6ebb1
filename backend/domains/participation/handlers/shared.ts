import { and, asc, count, desc, eq, notInArray, sql, type SQL } from "drizzle-orm";
import * as x509 from "@peculiar/x509";
import { Msg } from "#contract/messages.ts";
import { accessAllowed } from "#contract/participation.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { appRoles, appVersions, apps } from "#backend/domains/services/tables.ts";
import { appJoinNodes, appJoinTransitions, appJoins, certificates } from "#backend/domains/participation/tables.ts";
import { cityNodes, users } from "#backend/db/tables.ts";
import { ApiError } from "#backend/http/errors.ts";
import type { SignedInContext } from "#backend/http/router.ts";

/* What several of the participation handlers use: rows, the caller's participations, request lists, certificates. */

export type AppRow = typeof apps.$inferSelect;
export type JoinRow = typeof appJoins.$inferSelect;
export type VersionRow = typeof appVersions.$inferSelect;

export const me = (ctx: SignedInContext) => ctx.user;
const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
export const RUNNING = 25;
export const REJECTED = [2, 4];

export async function appById(db: Db | Tx, appId: number) {
  const [app] = await db.select().from(apps).where(eq(apps.id, appId));
  return app;
}
export async function currentVersion(db: Db | Tx, app: AppRow): Promise<VersionRow | undefined> {
  if (!app.currentVerId) return undefined;
  const [v] = await db.select().from(appVersions).where(eq(appVersions.id, app.currentVerId));
  return v;
}
/** The caller's latest participation in the app that is not rejected (an open or accepted one). */
export async function openJoin(db: Db | Tx, userId: number, appId: number) {
  const [row] = await db
    .select()
    .from(appJoins)
    .where(and(eq(appJoins.userId, userId), eq(appJoins.appId, appId), notInArray(appJoins.auditState, REJECTED)))
    .orderBy(desc(appJoins.id))
    .limit(1);
  return row;
}
/** One of the caller's participations (another user's is "not found"). */
export async function ownJoin(db: Db | Tx, userId: number, joinId: number) {
  const [join] = await db.select().from(appJoins).where(eq(appJoins.id, joinId));
  if (!join || join.userId !== userId) throw new ApiError(Msg.NOT_FOUND);
  return join;
}
/** A participation in one of the caller's services (the publisher's side). */
export async function publishersJoin(db: Db | Tx, userId: number, joinId: number) {
  const [row] = await db
    .select({ join: appJoins, app: apps })
    .from(appJoins)
    .innerJoin(apps, eq(apps.id, appJoins.appId))
    .where(eq(appJoins.id, joinId));
  if (!row || row.app.userId !== userId) throw new ApiError(Msg.NOT_FOUND);
  return row;
}

export async function joinNodes(db: Db | Tx, joinId: number) {
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

export async function transitionsOf(db: Db | Tx, joinId: number) {
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

/** The requests to join matching `where`, with their service, applicant and role: the count and one page. */
export async function joinRequests(db: Db, where: SQL | undefined, order: SQL[], pageIndex: number, pageSize: number) {
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

export function manageRow(r: { join: JoinRow; app: AppRow; applicant: string; realName: string; roleName: string }) {
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

export async function certificateRows(
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
