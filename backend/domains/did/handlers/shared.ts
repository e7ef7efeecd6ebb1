import { and, eq, inArray, isNull } from "drizzle-orm";
import { type CredentialKind, type DidCustody, type DidKeyType, type DidMethod } from "#contract/did-codes.ts";
import { Msg } from "#contract/messages.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { users } from "#backend/db/tables.ts";
import type { BackendEnv } from "#backend/env.ts";
import { ApiError } from "#backend/http/errors.ts";
import type { SignedInContext } from "#backend/http/router.ts";
import { documentUrlOf, platformDidOf } from "#backend/domains/did/documents.ts";
import { statusListUrlOf } from "#backend/domains/did/status.ts";
import { didCredentials, didIdentifiers } from "#backend/domains/did/tables.ts";

/** The handlers of the DID service (contract/did.ts; docs/decisions/043). A user's DIDs and credentials are looked up with their owner. */

export type Ctx = SignedInContext;

export type DidRow = typeof didIdentifiers.$inferSelect;

type CredentialRow = typeof didCredentials.$inferSelect;

export const DAY_MS = 86_400_000;

export const didOut = (env: BackendEnv, r: DidRow) => ({
  didId: r.id,
  did: r.did,
  label: r.label,
  method: r.method as DidMethod,
  keyType: r.keyType as DidKeyType,
  custody: r.custody as DidCustody,
  publicKeyMultibase: r.publicKeyMultibase,
  documentUrl: documentUrlOf(env, r),
  createdAt: r.createdAt.toISOString(),
});

export async function ownDid(db: Db | Tx, userId: number, didId: number): Promise<DidRow> {
  const [row] = await db
    .select()
    .from(didIdentifiers)
    .where(and(eq(didIdentifiers.id, didId), eq(didIdentifiers.userId, userId)));
  if (!row) throw new ApiError(Msg.NOT_FOUND);
  return row;
}

/* ------------------------------------------------ credentials ------------------------------------------------ */

export async function credentialsOut(db: Db | Tx, env: BackendEnv, me: number, rows: CredentialRow[], withJwt = false) {
  const didIds = [...new Set(rows.map((r) => r.issuerDidId))];
  const issuers = didIds.length
    ? await db
        .select({ id: didIdentifiers.id, did: didIdentifiers.did, userName: users.userName })
        .from(didIdentifiers)
        .leftJoin(users, eq(users.id, didIdentifiers.userId))
        .where(inArray(didIdentifiers.id, didIds))
    : [];
  return rows.map((r) => {
    const issuer = issuers.find((i) => i.id === r.issuerDidId);
    return {
      credentialId: r.id,
      kind: r.kind as CredentialKind,
      issuerDid: issuer?.did ?? "",
      issuerName: issuer?.userName ?? null,
      subjectDid: r.subjectDid,
      claims: r.claims,
      issuedAt: r.issuedAt.toISOString(),
      expiresAt: r.expiresAt.toISOString(),
      revokedAt: r.revokedAt?.toISOString() ?? null,
      statusListUrl: statusListUrlOf(env, r.statusListId),
      statusIndex: r.statusIndex,
      mine: r.issuerUserId === me,
      jwt: withJwt ? r.jwt : null,
    };
  });
}

/** The platform's DID (did:web:<host>), made at start (backend/domains/did/index.ts). */
export async function platformDid(db: Db | Tx, env: BackendEnv): Promise<DidRow> {
  const [row] = await db
    .select()
    .from(didIdentifiers)
    .where(and(eq(didIdentifiers.did, platformDidOf(env)), isNull(didIdentifiers.userId)));
  if (!row) throw new ApiError(Msg.SERVER_ERROR);
  return row;
}
