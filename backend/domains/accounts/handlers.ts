import { randomInt } from "node:crypto";
import { and, desc, eq, isNull, ne, sql } from "drizzle-orm";
import type { z } from "zod";
import {
  activateSchema,
  changePasswordSchema,
  forgetSchema,
  registerPayloadSchema,
  resetCodeSchema,
  resetPasswordSchema,
  USER_TYPE,
} from "#contract/accounts.ts";
import { CertState } from "#contract/certification.ts";
import { Msg } from "#contract/messages.ts";
import { activationTokens, resetCodes } from "./tables.ts";
import { authTokens, users } from "#backend/db/tables.ts";
import { newSecret, revokeToken, sha256 } from "#backend/http/auth.ts";
import { ApiError, fieldError } from "#backend/http/errors.ts";
import { fieldErrorsOf, type CallContext, type SignedInContext } from "#backend/http/router.ts";
import type { Deps } from "#backend/deps.ts";
import { checkCaptcha } from "./captcha.ts";
import { forgetLoginFailures } from "./login.ts";
import { hashPassword, verifyPassword } from "./passwords.ts";
import { findUserByLogin, toUser } from "./users.ts";
import inbox from "#backend/domains/inbox/index.ts";

export const ACTIVATION_TTL_MS = 24 * 60 * 60 * 1000;
export const RESET_CODE_TTL_MS = 15 * 60 * 1000;
export const RESET_CODE_MAX_ATTEMPTS = 5;

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } };
  return e?.code === "23505" || e?.cause?.code === "23505";
}

async function addMessage(services: Deps, userId: number, textKey: string, params: Record<string, string> = {}) {
  await inbox.api.notify(services.db, { userId, textKey, params, at: services.now() });
}

/* ------------------------------------------------------------------ registration and activation */

export async function register(input: z.output<typeof registerPayloadSchema>, ctx: CallContext) {
  const { deps } = ctx;
  const { payload, licence } = input;
  await checkCaptcha(deps, payload.captchaKey, payload.captcha);

  const taken: Record<string, string[]> = {};
  const [nameRow] = await deps.db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.userName}) = ${payload.userName.toLowerCase()}`)
    .limit(1);
  if (nameRow) taken["payload.userName"] = [`errors:${Msg.USERNAME_TAKEN}`];
  const [emailRow] = await deps.db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = ${payload.email.toLowerCase()}`)
    .limit(1);
  if (emailRow) taken["payload.email"] = [`errors:${Msg.EMAIL_TAKEN}`];
  if (Object.keys(taken).length > 0)
    throw new ApiError(nameRow ? Msg.USERNAME_TAKEN : Msg.EMAIL_TAKEN, { fieldErrors: taken });

  // Counted once the registration can only succeed (docs/decisions/021): accounts created, not attempts.
  await deps.limits.consume("register.ip", deps.limits.subjectOf(ctx.clientAddress));
  const mail = await deps.limits.mailPermit("activation", payload.email, ctx.clientAddress);
  const passwordHash = await hashPassword(payload.password);
  const token = newSecret();
  const now = deps.now();
  try {
    await deps.db.transaction(async (tx) => {
      // The licence was checked (≤ 8 MB, a PDF or image by its bytes) while it was uploaded: ./rules.ts.
      let licenceFileId: number | null = null;
      if (payload.userType === USER_TYPE.ENTERPRISE && licence) {
        const file = await deps.files.claim(tx, licence.uploadId, { kind: "licence", ownerId: null, at: now });
        if (!file) throw fieldError("licence", `errors:${Msg.UPLOAD_FAILED}`, Msg.UPLOAD_FAILED);
        licenceFileId = file.id;
      }
      const enterprise = payload.userType === USER_TYPE.ENTERPRISE ? payload : null;
      const [user] = await tx
        .insert(users)
        .values({
          userName: payload.userName,
          passwordHash,
          realName: payload.realName.normalize("NFC"),
          email: payload.email,
          mobile: payload.mobile ?? null,
          userType: Number(payload.userType),
          companyName: enterprise?.companyName ?? null,
          companyAddress: enterprise?.companyAddress ?? null,
          contactName: enterprise?.contactName ?? null,
          country: enterprise?.country ?? null,
          creditCode: enterprise?.creditCode ?? null,
          licenceFileId,
          language: ctx.language,
          // An enterprise's registration submits its certification for review (docs/decisions/071).
          ...(enterprise ? { certState: CertState.PENDING, certSubmittedAt: now } : {}),
          createdAt: now,
        })
        .returning({ id: users.id });
      await tx
        .insert(activationTokens)
        .values({ tokenHash: sha256(token), userId: user.id, expiresAt: new Date(now.getTime() + ACTIVATION_TTL_MS) });
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new ApiError(Msg.USERNAME_TAKEN, { fieldErrors: { "payload.userName": [`errors:${Msg.USERNAME_TAKEN}`] } });
    }
    throw error;
  }

  const link = `${deps.env.publicUrl}/g/main/UserActivation?token=${token}`;
  await deps.mailer.send(mail, "activation", ctx.language, { userName: payload.userName, link });
  return { userName: payload.userName, email: payload.email };
}

export async function activate(input: z.output<typeof activateSchema>, { deps }: CallContext) {
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ token: activationTokens, user: users })
      .from(activationTokens)
      .innerJoin(users, eq(users.id, activationTokens.userId))
      .where(eq(activationTokens.tokenHash, sha256(input.token)))
      .limit(1);
    if (!row) throw new ApiError(Msg.ACTIVATION_INVALID);
    if (row.user.activatedAt) throw new ApiError(Msg.ALREADY_ACTIVATED);
    if (row.token.usedAt || row.token.expiresAt.getTime() <= now.getTime()) throw new ApiError(Msg.ACTIVATION_INVALID);
    const used = await tx
      .update(activationTokens)
      .set({ usedAt: now })
      .where(and(eq(activationTokens.tokenHash, row.token.tokenHash), isNull(activationTokens.usedAt)))
      .returning({ userId: activationTokens.userId });
    if (used.length === 0) throw new ApiError(Msg.ALREADY_ACTIVATED);
    await tx.update(users).set({ activatedAt: now }).where(eq(users.id, row.user.id));
    await inbox.api.notify(tx, {
      userId: row.user.id,
      textKey: "messages.welcome",
      params: { userName: row.user.userName },
      at: now,
    });
    return { userName: row.user.userName };
  });
}

/* ------------------------------------------------------------------ logout (login: login.ts) */

export async function logout(_input: unknown, { deps, tokenHash }: SignedInContext) {
  if (tokenHash) await revokeToken(deps, tokenHash);
  return null;
}

/** The account the session acts for, and the login acting in it with its role (issue 33). */
export async function clientInfo(_input: unknown, { user, member }: SignedInContext) {
  return {
    ...toUser(user),
    member: { memberId: member.id, userName: member.userName, realName: member.realName, role: member.role },
  };
}

/* ------------------------------------------------------------------ forgotten password */

function maskEmail(email: string): string {
  const [local, domain] = email.split("@");
  return `${local.slice(0, 1)}***@${domain}`;
}

export async function sendResetCode(input: z.output<typeof forgetSchema>, ctx: CallContext) {
  const { deps } = ctx;
  const { limits } = deps;
  await limits.consume("resetCode.ip", limits.subjectOf(ctx.clientAddress));
  await checkCaptcha(deps, input.captchaKey, input.captcha);
  const user = await findUserByLogin(deps.db, input.phone);
  if (!user) throw fieldError("phone", `errors:${Msg.INVALID_LOGIN_NAME}`, Msg.INVALID_LOGIN_NAME);
  // SPEC §9 resend wait (60 s per account), then the mail limits (per recipient and per address).
  await limits.consume("resetCode.resend", `user:${user.id}`, Msg.RESEND_WAIT);
  const mail = await limits.mailPermit("resetCode", user.email, ctx.clientAddress);
  const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    await tx
      .update(resetCodes)
      .set({ usedAt: now })
      .where(and(eq(resetCodes.userId, user.id), isNull(resetCodes.usedAt)));
    await tx.insert(resetCodes).values({
      userId: user.id,
      codeHash: sha256(`${user.id}:${code}`),
      expiresAt: new Date(now.getTime() + RESET_CODE_TTL_MS),
    });
  });
  await deps.mailer.send(mail, "resetCode", ctx.language, { userName: user.userName, code });
  return { phone: input.phone, maskedEmail: maskEmail(user.email) };
}

/**
 * The live code of the account named `phone`, checked; a wrong code counts an attempt, and every check counts
 * against the caller's address ("resetCheck.ip").
 */
async function verifyResetCode({ deps, clientAddress }: CallContext, phone: string, code: string) {
  await deps.limits.consume("resetCheck.ip", deps.limits.subjectOf(clientAddress));
  const invalid = () =>
    new ApiError(Msg.RESET_CODE_INVALID, { fieldErrors: { captcha: [`errors:${Msg.RESET_CODE_INVALID}`] } });
  const user = await findUserByLogin(deps.db, phone);
  if (!user) throw invalid();
  const [row] = await deps.db
    .select()
    .from(resetCodes)
    .where(and(eq(resetCodes.userId, user.id), isNull(resetCodes.usedAt)))
    .orderBy(desc(resetCodes.id))
    .limit(1);
  if (!row || row.expiresAt.getTime() <= deps.now().getTime() || row.attempts >= RESET_CODE_MAX_ATTEMPTS)
    throw invalid();
  if (row.codeHash !== sha256(`${user.id}:${code}`)) {
    await deps.db
      .update(resetCodes)
      .set({ attempts: sql`${resetCodes.attempts} + 1` })
      .where(eq(resetCodes.id, row.id));
    throw invalid();
  }
  return { user, codeId: row.id };
}

export async function checkResetCode(input: z.output<typeof resetCodeSchema>, ctx: CallContext) {
  await verifyResetCode(ctx, input.phone, input.captcha);
  return null;
}

export async function resetPassword(input: z.output<typeof resetPasswordSchema>, ctx: CallContext) {
  const { deps } = ctx;
  const { user, codeId } = await verifyResetCode(ctx, input.phone, input.captcha);
  const passwordHash = await hashPassword(input.password);
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const used = await tx
      .update(resetCodes)
      .set({ usedAt: now })
      .where(and(eq(resetCodes.id, codeId), isNull(resetCodes.usedAt)))
      .returning({ id: resetCodes.id });
    if (used.length === 0)
      throw new ApiError(Msg.RESET_CODE_INVALID, { fieldErrors: { captcha: [`errors:${Msg.RESET_CODE_INVALID}`] } });
    await tx.update(users).set({ passwordHash }).where(eq(users.id, user.id));
    await tx
      .update(authTokens)
      .set({ revokedAt: now })
      .where(and(eq(authTokens.userId, user.id), isNull(authTokens.revokedAt)));
    await inbox.api.notify(tx, { userId: user.id, textKey: "messages.passwordChanged", params: {}, at: now });
  });
  // Committed: this process refuses the revoked tokens from the next call on (docs/decisions/030).
  deps.sessions.forgetUser(user.id);
  await forgetLoginFailures(deps, user.id);
  return null;
}

/* ------------------------------------------------------------------ change password */

export async function changePassword(input: unknown, { deps, user, tokenHash }: SignedInContext) {
  const me = user;
  const parsed = changePasswordSchema(me.userName).safeParse(input);
  if (!parsed.success) throw new ApiError(Msg.INVALID_PARAMS, { fieldErrors: fieldErrorsOf(parsed.error) });
  // The hash is read here, never kept with the session (docs/decisions/030).
  const [{ passwordHash: current }] = await deps.db
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.id, me.id));
  if (!(await verifyPassword(parsed.data.oldPassword, current))) {
    throw fieldError("oldPassword", `errors:${Msg.OLD_PASSWORD_WRONG}`, Msg.OLD_PASSWORD_WRONG);
  }
  const passwordHash = await hashPassword(parsed.data.password);
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash }).where(eq(users.id, me.id));
    // Other sessions end; this one goes on.
    await tx
      .update(authTokens)
      .set({ revokedAt: now })
      .where(
        and(eq(authTokens.userId, me.id), isNull(authTokens.revokedAt), ne(authTokens.tokenHash, tokenHash ?? "")),
      );
    await inbox.api.notify(tx, { userId: me.id, textKey: "messages.passwordChanged", params: {}, at: now });
  });
  deps.sessions.forgetUser(me.id);
  return null;
}

export { addMessage };
