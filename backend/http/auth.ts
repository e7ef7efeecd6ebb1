import { createHash, randomBytes } from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { Msg } from "#contract/messages.ts";
import { authTokens, users } from "#backend/db/tables.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import type { Deps } from "#backend/deps.ts";
import { ApiError, sessionInvalid } from "./errors.ts";
import { ResponseCode } from "#contract/envelope.ts";
import {
  isTeamRole,
  refusalMessage,
  roleMay,
  rolesWith,
  type Permission,
  type TeamRole,
} from "#contract/team-roles.ts";
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

/** The login that holds a token, when it acts for another account (issue 33): the same columns as the account's. */
const login = alias(users, "login");
const userColumns = (t: typeof users | typeof login) => ({
  id: t.id,
  userName: t.userName,
  realName: t.realName,
  email: t.email,
  mobile: t.mobile,
  userType: t.userType,
  companyName: t.companyName,
  contactName: t.contactName,
  role: t.role,
  createdAt: t.createdAt,
  lastLoginAt: t.lastLoginAt,
});
/** The account a token acts for: its own login's unless it switched (docs/decisions/075). */
const actingAccount = sql`coalesce(${authTokens.accountId}, ${authTokens.userId})`;

/**
 * One query by the token's primary key, joined by primary key to the account it acts for and to its login,
 * with the login's role in that account (docs/decisions/030, 075): its row in team_members; or, with no
 * row, owner of its own account when that account has no owner row (an individual, an operator, an
 * enterprise registered since); else none (removed: the token acts for nothing).
 */
async function readToken(db: Db | Tx, tokenHash: string): Promise<TokenRow | undefined> {
  const [row] = await db
    .select({
      expiresAt: authTokens.expiresAt,
      revokedAt: authTokens.revokedAt,
      mfaVerifiedAt: authTokens.mfaVerifiedAt,
      account: userColumns(users),
      login: userColumns(login),
      memberRole: sql<
        string | null
      >`(select tm.role from team_members tm where tm.account_id = ${actingAccount} and tm.member_id = ${authTokens.userId})`,
      hasOwner: sql<boolean>`exists (select 1 from team_members tm where tm.account_id = ${actingAccount} and tm.role = 'owner')`,
    })
    .from(authTokens)
    .innerJoin(users, eq(users.id, actingAccount))
    .innerJoin(login, eq(login.id, authTokens.userId))
    .where(eq(authTokens.tokenHash, tokenHash))
    .limit(1);
  if (!row) return undefined;
  const { expiresAt, revokedAt, mfaVerifiedAt, account, login: member, memberRole, hasOwner } = row;
  const role: TeamRole | null = isTeamRole(memberRole)
    ? memberRole
    : account.id === member.id && !hasOwner
      ? "owner"
      : null;
  return { user: account, login: member, teamRole: role, expiresAt, revokedAt, mfaVerifiedAt };
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

export type Authenticated = {
  /** The account the token acts for (issue 33): what every domain reads as the caller. */
  user: AuthUser;
  /** The login holding the token: the account itself unless it switched to another. */
  login: AuthUser;
  /** The login's role in that account; null once it is no longer a member (every path but `own` refuses). */
  teamRole: TeamRole | null;
  tokenHash: string;
  secondFactorPassed: boolean;
  kept: boolean;
};

/**
 * The caller of a non-anonymous path (SPEC §8): no or unknown token → MSG_10004, expired → MSG_10005,
 * revoked (logout, password reset) → MSG_10009; all with code 3. `kept`: the answer came from the
 * process's cache or another check's read rather than a read of its own just now.
 */
export async function authenticate(
  services: Deps,
  request: Pick<Request, "headers">,
  fresh = false,
): Promise<Authenticated> {
  const header = request.headers.get("Authorization") ?? "";
  const token = header.startsWith("Bearer ") ? header.slice(7).trim() : "";
  if (!token) throw sessionInvalid(Msg.PLEASE_LOGIN);
  const tokenHash = sha256(token);
  const { row, kept } = await tokenRow(services, tokenHash, fresh);
  if (!row) throw sessionInvalid(Msg.PLEASE_LOGIN);
  if (row.revokedAt) throw sessionInvalid(Msg.SESSION_ENDED);
  if (row.expiresAt.getTime() <= services.now().getTime()) throw sessionInvalid(Msg.LOGIN_TIMEOUT);
  return {
    user: row.user,
    login: row.login,
    teamRole: row.teamRole,
    tokenHash,
    secondFactorPassed: row.mfaVerifiedAt !== null,
    kept,
  };
}

/**
 * Why the acting member may not use a path of this permission, or null (issue 33, docs/decisions/075): a
 * login no longer a member of the account it acts for has its session ended there (code 3); a role without
 * the permission gets code 4 and the message naming the roles that have it (`data.roles`).
 */
export function refusalOf(auth: Authenticated, permission: Permission): ApiError | null {
  if (permission === "own") return null;
  if (!auth.teamRole) return sessionInvalid(Msg.SESSION_ENDED);
  if (roleMay(auth.teamRole, permission)) return null;
  return new ApiError(refusalMessage(permission), { roles: rolesWith(permission) }, ResponseCode.NO_PERMISSION);
}

/** The caller of an upload (or any door outside the router) with the permission it needs; a refusal is read again first. */
export async function authorize(services: Deps, request: Request, permission: Permission): Promise<Authenticated> {
  let auth = await authenticate(services, request);
  if (auth.kept && refusalOf(auth, permission)) auth = await authenticate(services, request, true);
  const refusal = refusalOf(auth, permission);
  if (refusal) throw refusal;
  return auth;
}

export async function revokeToken(services: Deps, tokenHash: string) {
  await services.db
    .update(authTokens)
    .set({ revokedAt: services.now() })
    .where(and(eq(authTokens.tokenHash, tokenHash), isNull(authTokens.revokedAt)));
  services.sessions.forgetToken(tokenHash);
}
