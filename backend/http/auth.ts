import { createHash, randomBytes } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import { Msg } from "../../contract/messages";
import { authTokens, users } from "../db/tables";
import type { Db, Tx } from "../db/client";
import type { Deps } from "../deps";
import { sessionInvalid } from "./errors";

export type AuthUser = typeof users.$inferSelect;

/** A login lasts 12 hours (the portal's cookie lives as long). */
export const TOKEN_TTL_MS = 12 * 60 * 60 * 1000;

export function sha256(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}

export function newSecret(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}

export async function issueToken(services: Deps, userId: number): Promise<string> {
  const token = newSecret();
  const now = services.now();
  await services.db.insert(authTokens).values({ tokenHash: sha256(token), userId, createdAt: now, expiresAt: new Date(now.getTime() + TOKEN_TTL_MS) });
  return token;
}

/** The holder of this token passed the second factor (docs/decisions/022); answers false for an unknown or ended token. */
export async function markSecondFactorPassed(db: Db | Tx, tokenHash: string, now: Date): Promise<boolean> {
  const marked = await db
    .update(authTokens)
    .set({ mfaVerifiedAt: now })
    .where(and(eq(authTokens.tokenHash, tokenHash), isNull(authTokens.revokedAt)))
    .returning({ tokenHash: authTokens.tokenHash });
  return marked.length > 0;
}

/**
 * The caller of a non-anonymous path (SPEC §8): no or unknown token → MSG_10004, expired → MSG_10005,
 * revoked (logout, password reset) → MSG_10009; all with code 3.
 */
export async function authenticate(services: Deps, request: Request): Promise<{ user: AuthUser; tokenHash: string; secondFactorPassed: boolean }> {
  const header = request.headers.get("Authorization") ?? "";
  const token = header.startsWith("Bearer ") ? header.slice(7).trim() : "";
  if (!token) throw sessionInvalid(Msg.PLEASE_LOGIN);
  const tokenHash = sha256(token);
  const [row] = await services.db
    .select({ token: authTokens, user: users })
    .from(authTokens)
    .innerJoin(users, eq(users.id, authTokens.userId))
    .where(eq(authTokens.tokenHash, tokenHash))
    .limit(1);
  if (!row) throw sessionInvalid(Msg.PLEASE_LOGIN);
  if (row.token.revokedAt) throw sessionInvalid(Msg.SESSION_ENDED);
  if (row.token.expiresAt.getTime() <= services.now().getTime()) throw sessionInvalid(Msg.LOGIN_TIMEOUT);
  return { user: row.user, tokenHash, secondFactorPassed: row.token.mfaVerifiedAt !== null };
}

export async function revokeToken(services: Deps, tokenHash: string) {
  await services.db.update(authTokens).set({ revokedAt: services.now() }).where(and(eq(authTokens.tokenHash, tokenHash), isNull(authTokens.revokedAt)));
}
