import { escapeLike } from "#backend/kit/sql.ts";
import { and, desc, eq, ilike, isNull, sql } from "drizzle-orm";
import { Msg } from "#contract/messages.ts";
import { AuditState } from "#contract/participation-codes.ts";
import { appRoles, apps } from "#backend/domains/services/tables.ts";
import { appJoinTransitions, appJoins, certificates } from "#backend/domains/participation/tables.ts";
import { users } from "#backend/db/tables.ts";
import { ApiError, fieldError } from "#backend/http/errors.ts";
import type { DownloadInput, SignedInContext, Payload } from "#backend/http/router.ts";
import { serviceCa } from "#backend/domains/participation/certs.ts";
import { applyJoinEvent } from "#backend/domains/participation/audit.ts";
import { me, REJECTED, publishersJoin, joinNodes, transitionsOf, joinRequests, manageRow } from "./shared.ts";
import inbox from "#backend/domains/inbox/index.ts";
import fabric from "#backend/domains/fabric/index.ts";

/** §7 auditAppJoined: the publisher approves (1) or rejects (2, comments required) a pending request. */
export async function auditAppJoined(input: Payload<"/sys/chainAppInfo/auditAppJoined">, ctx: SignedInContext) {
  const user = me(ctx);
  // SPEC §8 "Status error": its own message, not the generic invalid parameters.
  if (input.auditState !== AuditState.PUBLISHER_APPROVED && input.auditState !== AuditState.PUBLISHER_REJECTED)
    throw fieldError("auditState", `errors:${Msg.STATUS_ERROR}`, Msg.STATUS_ERROR);
  return ctx.deps.db.transaction(async (tx) => {
    await publishersJoin(tx, user.id, input.appJoinAuditId);
    const r = await applyJoinEvent(tx, {
      joinId: input.appJoinAuditId,
      event: input.auditState === AuditState.PUBLISHER_APPROVED ? "publisherApprove" : "publisherReject",
      actor: "publisher",
      actorId: user.id,
      comments: input.comments,
      now: ctx.deps.now(),
    });
    return { auditState: r.to };
  });
}

/** The publisher disables a participant (§6): no further step, certificate revoked, access withdrawn. */
export async function disableJoin(input: Payload<"/sys/chainAppInfo/disableJoin">, ctx: SignedInContext) {
  const user = me(ctx);
  const now = ctx.deps.now();
  await ctx.deps.db.transaction(async (tx) => {
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
    await inbox.api.notify(tx, {
      userId: join.userId,
      textKey: "messages.participation.disabled",
      params: { name: app.name, comments: input.comments },
      ref: { kind: "participation", id: app.id },
      at: now,
    });
  });
  // The Fabric gateway of this process refuses the revoked certificate from the next call on (its memo of callers).
  fabric.api.forgetCallers();
  return null;
}

/** §2 ParticipationManagement: the requests to join the caller's services, by service name and audit state. */
export async function joinManageList(input: Payload<"/sys/chainAppInfo/joinManageList">, ctx: SignedInContext) {
  const db = ctx.deps.db;
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
  const db = ctx.deps.db;
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

/**
 * The service's CA certificate for its publisher (docs/decisions/068): the PEM a connected Fabric network's admin adds
 * to the service's channel as `<APPCODE>MSP`; made now if the service has none yet. Another's service is a 404.
 */
export async function serviceCaCertificate(input: DownloadInput<"service-ca-certificate">, ctx: SignedInContext) {
  const user = me(ctx);
  const { db, env } = ctx.deps;
  const [app] = await db
    .select({ id: apps.id, appCode: apps.appCode, name: apps.name })
    .from(apps)
    .where(and(eq(apps.id, input.appId), eq(apps.userId, user.id)));
  if (!app) throw new ApiError(Msg.NOT_FOUND);
  const ca = await db.transaction((tx) => serviceCa(tx, env, app, ctx.deps.now()));
  return {
    bytes: Buffer.from(ca.pem.trim() + "\n"),
    name: `${app.appCode}-ca.pem`,
    mime: "application/x-pem-file",
  };
}
