import { and, count, desc, eq, inArray, isNull } from "drizzle-orm";
import { createVerifiableCredentialJwt } from "did-jwt-vc";
import { CREDENTIAL_TYPE_OF, VALID_DAYS_DEFAULT, type CredentialKind, type DidKeyType } from "#contract/did-codes.ts";
import { Msg } from "#contract/messages.ts";
import { AuditState } from "#contract/participation-codes.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { users } from "#backend/db/tables.ts";
import { ApiError, fieldError } from "#backend/http/errors.ts";
import type { Payload } from "#backend/http/router.ts";
import { appJoins } from "#backend/domains/participation/tables.ts";
import { appRoles, apps } from "#backend/domains/services/tables.ts";
import { signerOf } from "#backend/domains/did/keys.ts";
import { isCertifiedEnterprise } from "#backend/domains/did/rules.ts";
import { allocateIndex, statusListUrlOf } from "#backend/domains/did/status.ts";
import { didCredentials, didIdentifiers } from "#backend/domains/did/tables.ts";
import { DAY_MS, credentialsOut, didOut, ownDid, platformDid, type Ctx, type DidRow } from "./shared.ts";

async function pageOfCredentials(
  ctx: Ctx,
  input: { pageIndex: number; pageSize: number },
  column: typeof didCredentials.issuerUserId | typeof didCredentials.subjectUserId,
) {
  const db = ctx.deps.db;
  const where = eq(column, ctx.user.id);
  const [{ total }] = await db.select({ total: count() }).from(didCredentials).where(where);
  const rows = await db
    .select()
    .from(didCredentials)
    .where(where)
    .orderBy(desc(didCredentials.id))
    .limit(input.pageSize)
    .offset((input.pageIndex - 1) * input.pageSize);
  return {
    page: {
      rows: await credentialsOut(db, ctx.deps.env, ctx.user.id, rows),
      total,
      pageIndex: input.pageIndex,
      pageSize: input.pageSize,
    },
  };
}

export const issuedCredentials = (input: Payload<"/sys/did/credentials/issued">, ctx: Ctx) =>
  pageOfCredentials(ctx, input, didCredentials.issuerUserId);

export const receivedCredentials = (input: Payload<"/sys/did/credentials/received">, ctx: Ctx) =>
  pageOfCredentials(ctx, input, didCredentials.subjectUserId);

/** A credential its issuer or its holder reads; anyone else gets "not found". */
export async function credentialDetail(input: Payload<"/sys/did/credentials/detail">, ctx: Ctx) {
  const db = ctx.deps.db;
  const [row] = await db.select().from(didCredentials).where(eq(didCredentials.id, input.credentialId));
  if (!row || (row.issuerUserId !== ctx.user.id && row.subjectUserId !== ctx.user.id))
    throw new ApiError(Msg.NOT_FOUND);
  return (await credentialsOut(db, ctx.deps.env, ctx.user.id, [row], true))[0];
}

/** The participants of the caller's services to whom a role credential may go: approved and confirmed, not disabled. */
async function participantsOf(db: Db | Tx, publisherId: number, joinId?: number) {
  return db
    .select({
      appJoinAuditId: appJoins.id,
      userId: appJoins.userId,
      appName: apps.name,
      appCode: apps.appCode,
      roleName: appRoles.name,
      userName: users.userName,
    })
    .from(appJoins)
    .innerJoin(apps, eq(apps.id, appJoins.appId))
    .innerJoin(appRoles, eq(appRoles.id, appJoins.roleId))
    .innerJoin(users, eq(users.id, appJoins.userId))
    .where(
      and(
        eq(apps.userId, publisherId),
        inArray(appJoins.auditState, [AuditState.WORK_ORDER_DONE, AuditState.CONFIRMED]),
        isNull(appJoins.disabledAt),
        joinId === undefined ? undefined : eq(appJoins.id, joinId),
      ),
    )
    .orderBy(desc(appJoins.id))
    .limit(500);
}

export async function credentialOptions(_input: Payload<"/sys/did/credentials/options">, ctx: Ctx) {
  const db = ctx.deps.db;
  const env = ctx.deps.env;
  const own = await db
    .select()
    .from(didIdentifiers)
    .where(eq(didIdentifiers.userId, ctx.user.id))
    .orderBy(desc(didIdentifiers.id))
    .limit(500);
  const [me] = await db.select().from(users).where(eq(users.id, ctx.user.id));
  const participants = await participantsOf(db, ctx.user.id);
  return {
    issuerDids: own.filter((d) => d.custody === "portal").map((d) => didOut(env, d)),
    participants: participants.map(({ userId: _u, ...p }) => p),
    ownDids: own.map((d) => didOut(env, d)),
    certifiedEnterprise: !!me && isCertifiedEnterprise(me),
    certState: me?.certState ?? 0,
    userType: me?.userType ?? 1,
  };
}

type Issue = {
  kind: CredentialKind;
  issuer: DidRow;
  issuerUserId: number | null;
  subjectDid: string;
  subjectUserId: number | null;
  appJoinId: number | null;
  claims: Record<string, unknown>;
  validDays: number;
};

/** Signs and records a credential: its status list entry taken first, all in one transaction. */
async function issue(ctx: Ctx, it: Issue) {
  const env = ctx.deps.env;
  const now = ctx.deps.now();
  if (!it.issuer.privateKeySealed) throw fieldError("issuerDidId", Msg.DID_NOT_PORTAL_HELD, Msg.DID_NOT_PORTAL_HELD);
  const expiresAt = new Date(now.getTime() + it.validDays * DAY_MS);
  const row = await ctx.deps.db.transaction(async (tx) => {
    const { listId, index } = await allocateIndex(tx, it.issuer.id, now);
    const listUrl = statusListUrlOf(env, listId);
    const { signer, alg } = signerOf(env, it.issuer.keyType as DidKeyType, it.issuer.privateKeySealed!);
    const jwt = await createVerifiableCredentialJwt(
      {
        sub: it.subjectDid,
        nbf: Math.floor(now.getTime() / 1000),
        exp: Math.floor(expiresAt.getTime() / 1000),
        vc: {
          "@context": ["https://www.w3.org/2018/credentials/v1", "https://w3id.org/vc/status-list/2021/v1"],
          type: ["VerifiableCredential", CREDENTIAL_TYPE_OF[it.kind]],
          credentialSubject: it.claims,
          credentialStatus: {
            id: `${listUrl}#${index}`,
            type: "StatusList2021Entry",
            statusPurpose: "revocation",
            statusListIndex: String(index),
            statusListCredential: listUrl,
          },
        },
      },
      { did: it.issuer.did, signer, alg },
    );
    const [inserted] = await tx
      .insert(didCredentials)
      .values({
        kind: it.kind,
        issuerDidId: it.issuer.id,
        issuerUserId: it.issuerUserId,
        subjectDid: it.subjectDid,
        subjectUserId: it.subjectUserId,
        appJoinId: it.appJoinId,
        claims: it.claims,
        jwt,
        statusListId: listId,
        statusIndex: index,
        issuedAt: now,
        expiresAt,
      })
      .returning();
    return inserted;
  });
  return (await credentialsOut(ctx.deps.db, env, ctx.user.id, [row], true))[0];
}

/** The platform issues "enterprise certified" to one of a certified enterprise's own DIDs. */
export async function requestEnterprise(input: Payload<"/sys/did/credentials/requestEnterprise">, ctx: Ctx) {
  const db = ctx.deps.db;
  const subject = await ownDid(db, ctx.user.id, input.subjectDidId);
  const [me] = await db.select().from(users).where(eq(users.id, ctx.user.id));
  if (!me || !isCertifiedEnterprise(me)) throw new ApiError(Msg.DID_NOT_CERTIFIED);
  return issue(ctx, {
    kind: "enterprise",
    issuer: await platformDid(db, ctx.deps.env),
    issuerUserId: null,
    subjectDid: subject.did,
    subjectUserId: me.id,
    appJoinId: null,
    claims: {
      id: subject.did,
      enterprise: { name: me.companyName, creditCode: me.creditCode, country: me.country },
      certified: true,
    },
    validDays: VALID_DAYS_DEFAULT,
  });
}

/**
 * A publisher issues a role credential to a participant of their own service, signed by one of their
 * portal-held DIDs. A participation of another publisher's service is not found. The subject DID, when it is a
 * DID of this portal, must be the participant's own.
 */
export async function issueRole(input: Payload<"/sys/did/credentials/issueRole">, ctx: Ctx) {
  const db = ctx.deps.db;
  const issuer = await ownDid(db, ctx.user.id, input.issuerDidId);
  const [participant] = await participantsOf(db, ctx.user.id, input.appJoinAuditId);
  if (!participant) throw new ApiError(Msg.NOT_FOUND);
  const [known] = await db
    .select({ userId: didIdentifiers.userId })
    .from(didIdentifiers)
    .where(eq(didIdentifiers.did, input.subjectDid));
  if (known && known.userId !== participant.userId)
    throw fieldError("subjectDid", Msg.DID_SUBJECT_OTHER_USER, Msg.DID_SUBJECT_OTHER_USER);
  return issue(ctx, {
    kind: "role",
    issuer,
    issuerUserId: ctx.user.id,
    subjectDid: input.subjectDid,
    subjectUserId: participant.userId,
    appJoinId: participant.appJoinAuditId,
    claims: {
      id: input.subjectDid,
      service: { name: participant.appName, appCode: participant.appCode },
      role: participant.roleName,
    },
    validDays: input.validDays,
  });
}

/** The issuer revokes a credential: from now on its bit is set in the published list. Only its issuer may. */
export async function revokeCredential(input: Payload<"/sys/did/credentials/revoke">, ctx: Ctx) {
  const db = ctx.deps.db;
  const [row] = await db
    .select()
    .from(didCredentials)
    .where(and(eq(didCredentials.id, input.credentialId), eq(didCredentials.issuerUserId, ctx.user.id)));
  if (!row) throw new ApiError(Msg.NOT_FOUND);
  if (row.revokedAt) throw new ApiError(Msg.DID_ALREADY_REVOKED);
  const [updated] = await db
    .update(didCredentials)
    .set({ revokedAt: ctx.deps.now() })
    .where(and(eq(didCredentials.id, row.id), isNull(didCredentials.revokedAt)))
    .returning();
  if (!updated) throw new ApiError(Msg.DID_ALREADY_REVOKED);
  return (await credentialsOut(db, ctx.deps.env, ctx.user.id, [updated], true))[0];
}
