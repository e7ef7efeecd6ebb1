import { escapeLike } from "#backend/kit/sql.ts";
import services from "#backend/domains/services/index.ts";
import fabric from "#backend/domains/fabric/index.ts";
import { and, count, desc, eq, ilike } from "drizzle-orm";
import type { z } from "zod";
import { Msg } from "#contract/messages.ts";
import { accessAllowed, listStatusOf } from "#contract/participation.ts";
import type { pageRequestSchema } from "#contract/platform.ts";
import { appRoles, appVersions, apps } from "#backend/domains/services/tables.ts";
import { appJoins, certificates } from "#backend/domains/participation/tables.ts";
import { ApiError } from "#backend/http/errors.ts";
import type { SignedInContext, Payload } from "#backend/http/router.ts";
import { openWithServer } from "#backend/domains/participation/certs.ts";
import { me, appById, currentVersion, ownJoin, joinNodes, certificateRows } from "./shared.ts";

/* What a participant has: their participations, the access of an approved one, their certificates and keys. */

/** §2 ParticipatedServices: the caller's participations, searchable by service name and list status. */
export async function participatedList(input: Payload<"/sys/chainAppInfo/participatedList">, ctx: SignedInContext) {
  const db = ctx.deps.db;
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

/** §7 getJoinParamList: gateway per city node, user code, app code and the certificate; approved participations only. */
export async function getJoinParamList(input: Payload<"/sys/chainAppInfo/getJoinParamList">, ctx: SignedInContext) {
  const db = ctx.deps.db;
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
  const chain = version
    ? await services.api.serviceChainView(db, ctx.deps.env, app.id, version.id, join.userId, ctx.deps.now())
    : null;
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
      // The node's endpoint with the participant's own key, absolute (docs/decisions/052); on a Fabric service, the
      // Fabric gateway, or the connected Fabric network's peer, reached with the participant's certificate
      // (docs/decisions/065, 068); null: not available yet.
      gatewayUrl:
        app.framework === "fabric"
          ? fabric.api.clientEndpoint(ctx.deps)
          : n.gatewayUrl && chain
            ? `${ctx.deps.env.publicUrl}${n.gatewayUrl}/${chain.key}`
            : null,
    })),
    certificate: certs[0] ?? null,
    chain,
  };
}

/** §2 MyCertificates: every certificate of the caller, soonest expiry first. */
export async function myCertificates(input: z.output<typeof pageRequestSchema>, ctx: SignedInContext) {
  const { pageIndex, pageSize } = input.page;
  const [{ total }] = await ctx.deps.db
    .select({ total: count() })
    .from(certificates)
    .where(eq(certificates.userId, me(ctx).id));
  const rows = await certificateRows(ctx.deps.db, me(ctx).id, eq(certificates.userId, me(ctx).id), {
    limit: pageSize,
    offset: (pageIndex - 1) * pageSize,
  });
  return { page: { rows, total, pageIndex, pageSize } };
}

/** A certificate (PEM) or its private key: key trust's encrypted PKCS#8 any time, a participant certificate's key once. */
export async function certificateFile(input: Payload<"/sys/chainAppInfo/certificateFile">, ctx: SignedInContext) {
  const user = me(ctx);
  return ctx.deps.db.transaction(async (tx) => {
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
    return { fileName: `${base}-key.pem`, pem: openWithServer(ctx.deps.env, cert.encryptedKeyPem) };
  });
}
