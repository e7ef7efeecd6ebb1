import { setTimeout as sleep } from "node:timers/promises";
import { and, eq, gt, isNull } from "drizzle-orm";
import type { z } from "zod";
import type { loginSchema } from "#contract/accounts.ts";
import { Msg } from "#contract/messages.ts";
import { authTokens, users } from "#backend/db/tables.ts";
import { issueToken, newSecret } from "#backend/http/auth.ts";
import { ApiError } from "#backend/http/errors.ts";
import type { CallContext, SignedInContext } from "#backend/http/router.ts";
import { tooManyRequests } from "#backend/kit/rate-limit.ts";
import type { Deps } from "#backend/deps.ts";
import { checkCaptcha } from "./captcha.ts";
import { secondFactorStep } from "./mfa.ts";
import { hashPassword, verifyPassword } from "./passwords.ts";
import { findUserByLogin, toUser } from "./users.ts";

/**
 * Login with limits and locks that an attacker cannot turn against the account's owner (docs/decisions/021):
 * - "login.ip": at most 10 attempts a minute from one address, whatever the account (429 MSG_10429);
 * - "login.lock": five failures from one address on one account lock that address out of that account for
 *   15 minutes (429 MSG_20007); the owner on another address is not locked;
 * - "login.account": ten failures on one account from all addresses within 15 minutes put the account under
 *   attack for 15 minutes after the last one: every attempt on it waits UNDER_ATTACK_DELAY_MS first, and an
 *   address that has already failed on it gets no further try. A clean address still logs in.
 * Every attempt also needs a fresh, single-use captcha. A wrong password and an unknown login name give the
 * same answer (MSG_20006), after the same bcrypt work, and are counted alike.
 */

export const UNDER_ATTACK_DELAY_MS = 1000;

// The hash compared against when no account has the name, so that both cases take a bcrypt comparison.
let unknownAccountHash: Promise<string> | undefined;

function lockedOut(retryAfterSeconds: number): ApiError {
  return tooManyRequests(retryAfterSeconds, Msg.ACCOUNT_LOCKED);
}

/** The subject that counts failures on an account (unknown names too, so a lock tells nothing). */
function accountSubject(userId: number | undefined, login: string): string {
  return userId === undefined ? `name:${login.trim().toLowerCase()}` : `user:${userId}`;
}

export async function login(input: z.output<typeof loginSchema>, { deps, clientAddress, language }: CallContext) {
  const { limits } = deps;
  const address = limits.subjectOf(clientAddress);
  await limits.consume("login.ip", address);
  await checkCaptcha(deps, input.captchaKey, input.captcha);

  const user = await findUserByLogin(deps.db, input.username);
  const account = accountSubject(user?.id, input.username);
  const fromHere = `${account}@${address}`;
  const lock = await limits.peek("login.lock", fromHere);
  if (lock.over) throw lockedOut(lock.retryAfterSeconds);
  const attack = await limits.peek("login.account", account);
  if (attack.over) {
    if (lock.hits > 0) throw lockedOut(Math.min(lock.retryAfterSeconds, attack.retryAfterSeconds));
    await sleep(UNDER_ATTACK_DELAY_MS);
  }

  unknownAccountHash ??= hashPassword(newSecret());
  const matches = await verifyPassword(input.password, user?.passwordHash ?? (await unknownAccountHash));
  if (!user || !matches) {
    const failed = await limits.hit("login.lock", fromHere);
    await limits.hit("login.account", account);
    if (failed.over) throw lockedOut(failed.retryAfterSeconds);
    throw new ApiError(Msg.WRONG_CREDENTIALS);
  }
  if (!user.activatedAt) throw new ApiError(Msg.ACCOUNT_NOT_ACTIVATED);

  await limits.forget("login.lock", fromHere);
  const [updated] = await deps.db
    .update(users)
    .set({ lastLoginAt: deps.now(), language })
    .where(eq(users.id, user.id))
    .returning();
  const token = await issueToken(deps, user.id);
  // An operator's token opens only the second step until it is passed (docs/decisions/022).
  const secondFactor = updated.role === "operator" ? await secondFactorStep(deps.db, user.id) : null;
  return { token, user: toUser(updated), secondFactor };
}

/** After a password reset the account's locks and attack count are forgotten: its owner has proved who they are. */
export async function forgetLoginFailures(services: Deps, userId: number) {
  await services.limits.forgetAll("login.lock", `${accountSubject(userId, "")}@`);
  await services.limits.forget("login.account", accountSubject(userId, ""));
}

/** "Log out everywhere" (profile panel): every live token of the account is revoked, this one included. */
export async function logoutEverywhere(_input: unknown, { deps, user }: SignedInContext) {
  const now = deps.now();
  const ended = await deps.db
    .update(authTokens)
    .set({ revokedAt: now })
    .where(and(eq(authTokens.userId, user.id), isNull(authTokens.revokedAt), gt(authTokens.expiresAt, now)))
    .returning({ tokenHash: authTokens.tokenHash });
  deps.sessions.forgetUser(user.id);
  return { sessions: ended.length };
}
