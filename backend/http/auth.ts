import { createHash, randomBytes } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import { Msg } from "#contract/messages.ts";
import { authTokens, users } from "#backend/db/tables.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import type { Deps } from "#backend/deps.ts";
import { sessionInvalid } from "./errors.ts";
import type { AuthUser, TokenRow } from "./session-cache.ts";

export type { AuthUser } from "./session-cache.ts";

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
  await services.db
    .insert(authTokens)
    .values({ tokenHash: sha256(token), userId, createdAt: now, expiresAt: new Date(now.getTime() + TOKEN_TTL_MS) });
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

/** The columns of the token check: the token's state and the caller's basics (AuthUser), nothing else. */
const TOKEN_CHECK_COLUMNS = {
  expiresAt: authTokens.expiresAt,
  revokedAt: authTokens.revokedAt,
  mfaVerifiedAt: authTokens.mfaVerifiedAt,
  id: users.id,
  userName: users.userName,
  realName: users.realName,
  email: users.email,
  mobile: users.mobile,
  userType: users.userType,
  companyName: users.companyName,
  contactName: users.contactName,
  role: users.role,
  createdAt: users.createdAt,
  lastLoginAt: users.lastLoginAt,
};

/** One query by the token's primary key, joined to its user by primary key (docs/decisions/030). */
async function readToken(db: Db | Tx, tokenHash: string): Promise<TokenRow | undefined> {
  const [row] = await db
    .select(TOKEN_CHECK_COLUMNS)
    .from(authTokens)
    .innerJoin(users, eq(users.id, authTokens.userId))
    .where(eq(authTokens.tokenHash, tokenHash))
    .limit(1);
  if (!row) return undefined;
  const { expiresAt, revokedAt, mfaVerifiedAt, ...user } = row;
  return { user, expiresAt, revokedAt, mfaVerifiedAt };
}

/**
 * A token's row: from this process's cache, else from the read of it under way, else read (and kept).
 * `fresh` reads the database whatever is kept (a refusal is never decided on a kept row: see the router).
 */
async function tokenRow(
  services: Deps,
  tokenHash: string,
  fresh: boolean,
): Promise<{ row: TokenRow | undefined; kept: boolean }> {
  const cache = services.sessions;
  const generation = cache.generation;
  if (!fresh) {
    const cached = cache.get(tokenHash);
    if (cached) return { row: cached, kept: true };
    const shared = cache.pending(tokenHash);
    if (shared) return { row: await shared, kept: true };
  }
  const reading = readToken(services.db, tokenHash);
  if (!fresh) cache.share(tokenHash, generation, reading);
  const row = await reading;
  if (row) cache.set(tokenHash, row, generation);
  return { row, kept: false };
}

export type Authenticated = { user: AuthUser; tokenHash: string; secondFactorPassed: boolean; kept: boolean };

/**
 * The caller of a non-anonymous path (SPEC §8): no or unknown token → MSG_10004, expired → MSG_10005,
 * revoked (logout, password reset) → MSG_10009; all with code 3. `kept`: the answer came from the
 * process's cache or another check's read rather than a read of its own just now.
 */
export async function authenticate(services: Deps, request: Request, fresh = false): Promise<Authenticated> {
  const header = request.headers.get("Authorization") ?? "";
  const token = header.startsWith("Bearer ") ? header.slice(7).trim() : "";
  if (!token) throw sessionInvalid(Msg.PLEASE_LOGIN);
  const tokenHash = sha256(token);
  const { row, kept } = await tokenRow(services, tokenHash, fresh);
  if (!row) throw sessionInvalid(Msg.PLEASE_LOGIN);
  if (row.revokedAt) throw sessionInvalid(Msg.SESSION_ENDED);
  if (row.expiresAt.getTime() <= services.now().getTime()) throw sessionInvalid(Msg.LOGIN_TIMEOUT);
  return { user: row.user, tokenHash, secondFactorPassed: row.mfaVerifiedAt !== null, kept };
}

export async function revokeToken(services: Deps, tokenHash: string) {
  await services.db
    .update(authTokens)
    .set({ revokedAt: services.now() })
    .where(and(eq(authTokens.tokenHash, tokenHash), isNull(authTokens.revokedAt)));
  services.sessions.forgetToken(tokenHash);
}
