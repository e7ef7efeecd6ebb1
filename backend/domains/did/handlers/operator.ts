import { and, count, desc, eq, isNull } from "drizzle-orm";
import { Msg } from "#contract/messages.ts";
import { ApiError } from "#backend/http/errors.ts";
import type { Payload } from "#backend/http/router.ts";
import { didCredentials } from "#backend/domains/did/tables.ts";
import { credentialsOut, type Ctx } from "./shared.ts";

/** Operators: the credentials the platform issued (its did:web; no issuing user), the latest first. */
export async function platformCredentials(input: Payload<"/sys/ops/did/credentials">, ctx: Ctx) {
  const db = ctx.deps.db;
  const where = isNull(didCredentials.issuerUserId);
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

/**
 * Operators revoke a platform-issued credential (an enterprise no longer certified, a credential issued in
 * error): its bit in the platform's status list is set, so verification says revoked. A credential a user
 * issued is not found here (only its issuer revokes it).
 */
export async function revokePlatformCredential(input: Payload<"/sys/ops/did/revoke">, ctx: Ctx) {
  const db = ctx.deps.db;
  const [row] = await db
    .select()
    .from(didCredentials)
    .where(and(eq(didCredentials.id, input.credentialId), isNull(didCredentials.issuerUserId)));
  if (!row) throw new ApiError(Msg.NOT_FOUND);
  const [updated] = await db
    .update(didCredentials)
    .set({ revokedAt: ctx.deps.now() })
    .where(and(eq(didCredentials.id, row.id), isNull(didCredentials.revokedAt)))
    .returning();
  if (!updated) throw new ApiError(Msg.DID_ALREADY_REVOKED);
  return (await credentialsOut(db, ctx.deps.env, ctx.user.id, [updated]))[0];
}
