import { randomBytes, timingSafeEqual } from "node:crypto";
import { and, count, eq, isNull, lt, or, sql } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import QRCode from "qrcode";
import type { z } from "zod";
import {
  enrolConfirmSchema,
  normaliseSecondFactorCode,
  RECOVERY_CODE_COUNT,
  RECOVERY_CODE_RE,
  secondFactorSchema,
  TOTP_DIGITS,
  TOTP_PERIOD_SECONDS,
  type SecondFactorStep,
} from "#contract/operator-auth.ts";
import type { AuditAction } from "#contract/audit.ts";
import { Msg } from "#contract/messages.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { users } from "#backend/db/tables.ts";
import type { Deps } from "#backend/deps.ts";
import type { BackendEnv } from "#backend/env.ts";
import { markSecondFactorPassed, sha256 } from "#backend/http/auth.ts";
import { ApiError, fieldError } from "#backend/http/errors.ts";
import type { SignedInContext } from "#backend/http/router.ts";
import { recordAudit } from "#backend/kit/audit.ts";
import { openWith, sealWith, type SealPurpose } from "#backend/kit/sealed.ts";
import { DEMO_TOTP_SECRETS } from "./demo-totp.ts";
import { operatorSecondFactors, recoveryCodes } from "./tables.ts";

/**
 * Operators' second factor (docs/decisions/022): TOTP with `otpauth` (RFC 6238, SHA-1, 6 digits, 30 s,
 * what every authenticator app reads), the secret sealed with the server secret, 10 single-use recovery
 * codes kept as hashes. A code is accepted for the current step or one step either side (clock drift),
 * and only for a step later than the last accepted one (no replay). Wrong codes count per account; at
 * MAX_WRONG_CODES the second factor is locked for LOCK_MS.
 */
export const ISSUER = "BSN Portal";
export const MAX_WRONG_CODES = 5;
export const LOCK_MS = 15 * 60 * 1000;
const DRIFT_STEPS = 1;
const SECRETS: SealPurpose = { label: "bsn-operator-totp", fallbackFile: "operator-totp-secret" };
const PERIOD_MS = TOTP_PERIOD_SECONDS * 1000;

type FactorRow = typeof operatorSecondFactors.$inferSelect;

/** The 30-second step an instant falls in. */
export const stepOf = (at: Date) => Math.floor(at.getTime() / PERIOD_MS);

/** The code of a base32 secret at a step. */
export function codeAt(secretBase32: string, step: number): string {
  return TOTP.generate({
    secret: Secret.fromBase32(secretBase32),
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    timestamp: step * PERIOD_MS,
  });
}

/** The steps within the drift window around `now` whose code is `code`, earliest first. */
export function matchingSteps(secretBase32: string, code: string, now: Date): number[] {
  const given = Buffer.from(code);
  const steps: number[] = [];
  for (let step = stepOf(now) - DRIFT_STEPS; step <= stepOf(now) + DRIFT_STEPS; step++) {
    const expected = Buffer.from(codeAt(secretBase32, step));
    if (expected.length === given.length && timingSafeEqual(expected, given)) steps.push(step);
  }
  return steps;
}

/** Ten recovery codes of 10 characters (a-z, 2-7: 50 bits each), shown as "xxxxx-xxxxx". */
export function newRecoveryCodes(): string[] {
  const alphabet = "abcdefghijklmnopqrstuvwxyz234567";
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = [...randomBytes(10)].map((b) => alphabet[b & 31]).join("");
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

const recoveryHash = (userId: number, code: string) => sha256(`recovery:${userId}:${normaliseSecondFactorCode(code)}`);

export const sealTotpSecret = (env: BackendEnv, secretBase32: string) => sealWith(env, SECRETS, secretBase32);

/** Login's answer for an operator: enrol first, or give a code. */
export async function secondFactorStep(db: Db, userId: number): Promise<SecondFactorStep> {
  const [row] = await db
    .select({ enrolledAt: operatorSecondFactors.enrolledAt })
    .from(operatorSecondFactors)
    .where(eq(operatorSecondFactors.userId, userId));
  return row?.enrolledAt ? "verify" : "enrol";
}

async function audit(
  db: Db | Tx,
  ctx: SignedInContext,
  action: AuditAction,
  decision: string,
  details: Record<string, unknown> = {},
) {
  const { user } = ctx;
  await recordAudit(db, {
    action,
    targetType: "operator",
    targetId: String(user.id),
    decision,
    comments: null,
    details,
    actor: user,
    at: ctx.deps.now(),
    path: ctx.path,
    clientIp: ctx.clientAddress,
  });
}

const refused = (key: string) => fieldError("code", `errors:${key}`, key);

/** A wrong code: counted; the one that reaches the limit locks the second factor (and is logged). */
async function countWrongCode(ctx: SignedInContext): Promise<never> {
  const { db } = ctx.deps;
  const now = ctx.deps.now();
  const [counted] = await db
    .update(operatorSecondFactors)
    .set({ failedAttempts: sql`${operatorSecondFactors.failedAttempts} + 1` })
    .where(eq(operatorSecondFactors.userId, ctx.user.id))
    .returning({ failedAttempts: operatorSecondFactors.failedAttempts });
  if (counted && counted.failedAttempts >= MAX_WRONG_CODES) {
    await db.transaction(async (tx) => {
      await tx
        .update(operatorSecondFactors)
        .set({ failedAttempts: 0, lockedUntil: new Date(now.getTime() + LOCK_MS) })
        .where(eq(operatorSecondFactors.userId, ctx.user.id));
      await audit(tx, ctx, "mfa.lockout", "locked", { minutes: LOCK_MS / 60_000 });
    });
    throw refused(Msg.SECOND_FACTOR_LOCKED);
  }
  throw refused(Msg.SECOND_FACTOR_WRONG);
}

/**
 * Checks a code against the operator's factor and consumes it: a TOTP code moves `lastStep` forward (one
 * conditional UPDATE, so two logins racing with one code cannot both pass), a recovery code is marked used.
 */
async function consumeCode(
  ctx: SignedInContext,
  row: FactorRow,
  typed: string,
  allowRecovery: boolean,
): Promise<"totp" | "recovery"> {
  const { db, env } = ctx.deps;
  const now = ctx.deps.now();
  if (row.lockedUntil && row.lockedUntil.getTime() > now.getTime()) throw refused(Msg.SECOND_FACTOR_LOCKED);
  const code = normaliseSecondFactorCode(typed);
  if (allowRecovery && RECOVERY_CODE_RE.test(code)) {
    const used = await db
      .update(recoveryCodes)
      .set({ usedAt: now })
      .where(
        and(
          eq(recoveryCodes.userId, row.userId),
          eq(recoveryCodes.codeHash, recoveryHash(row.userId, code)),
          isNull(recoveryCodes.usedAt),
        ),
      )
      .returning({ id: recoveryCodes.id });
    if (used.length === 0) return countWrongCode(ctx);
    await db
      .update(operatorSecondFactors)
      .set({ failedAttempts: 0 })
      .where(eq(operatorSecondFactors.userId, row.userId));
    return "recovery";
  }
  const steps = matchingSteps(openWith(env, SECRETS, row.sealedSecret), code, now);
  if (steps.length === 0) return countWrongCode(ctx);
  const step = steps.find((s) => row.lastStep === null || s > row.lastStep);
  // A right code already used (this step or an earlier one): refused, but not counted as a guess.
  if (step === undefined) throw refused(Msg.SECOND_FACTOR_REUSED);
  const taken = await db
    .update(operatorSecondFactors)
    .set({ lastStep: step, failedAttempts: 0 })
    .where(
      and(
        eq(operatorSecondFactors.userId, row.userId),
        or(isNull(operatorSecondFactors.lastStep), lt(operatorSecondFactors.lastStep, step)),
      ),
    )
    .returning({ userId: operatorSecondFactors.userId });
  if (taken.length === 0) throw refused(Msg.SECOND_FACTOR_REUSED);
  return "totp";
}

async function factorOf(db: Db, userId: number): Promise<FactorRow | undefined> {
  const [row] = await db.select().from(operatorSecondFactors).where(eq(operatorSecondFactors.userId, userId));
  return row;
}

function totpOf(secretBase32: string, userName: string) {
  return new TOTP({
    issuer: ISSUER,
    label: userName,
    algorithm: "SHA1",
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** POST /main/mfa/enrolment: the pending secret (made on the first call and kept until confirmed), or enrolled. */
export async function enrolment(_input: unknown, ctx: SignedInContext) {
  const { db, env } = ctx.deps;
  let row = await factorOf(db, ctx.user.id);
  if (row?.enrolledAt) return { enrolled: true as const };
  if (!row) {
    const secret = new Secret({ size: 20 }).base32;
    await db.transaction(async (tx) => {
      const made = await tx
        .insert(operatorSecondFactors)
        .values({ userId: ctx.user.id, sealedSecret: sealTotpSecret(env, secret), createdAt: ctx.deps.now() })
        .onConflictDoNothing()
        .returning({ userId: operatorSecondFactors.userId });
      if (made.length > 0) await audit(tx, ctx, "mfa.enrolment", "start");
    });
    row = (await factorOf(db, ctx.user.id))!;
  }
  const secret = openWith(env, SECRETS, row.sealedSecret);
  const otpauthUri = totpOf(secret, ctx.user.userName).toString();
  const svg = await QRCode.toString(otpauthUri, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
  return {
    enrolled: false as const,
    secret,
    otpauthUri,
    qrImage: `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`,
  };
}

/** POST /main/mfa/confirm: the first code confirms the secret; the recovery codes are answered this once. */
export async function confirmEnrolment(input: z.output<typeof enrolConfirmSchema>, ctx: SignedInContext) {
  const { db } = ctx.deps;
  const row = await factorOf(db, ctx.user.id);
  if (!row) throw new ApiError(Msg.SECOND_FACTOR_NOT_ENROLLED);
  if (row.enrolledAt) throw new ApiError(Msg.SECOND_FACTOR_ENROLLED);
  await consumeCode(ctx, row, input.code, false);
  const codes = newRecoveryCodes();
  const now = ctx.deps.now();
  await db.transaction(async (tx) => {
    const enrolled = await tx
      .update(operatorSecondFactors)
      .set({ enrolledAt: now })
      .where(and(eq(operatorSecondFactors.userId, ctx.user.id), isNull(operatorSecondFactors.enrolledAt)))
      .returning({ userId: operatorSecondFactors.userId });
    if (enrolled.length === 0) throw new ApiError(Msg.SECOND_FACTOR_ENROLLED);
    await tx
      .insert(recoveryCodes)
      .values(
        codes.map((code) => ({ userId: ctx.user.id, codeHash: recoveryHash(ctx.user.id, code), createdAt: now })),
      );
    await markSecondFactorPassed(tx, ctx.tokenHash, now);
    await audit(tx, ctx, "mfa.enrolment", "confirm", { recoveryCodes: codes.length });
  });
  ctx.deps.sessions.forgetToken(ctx.tokenHash);
  return { recoveryCodes: codes };
}

/** POST /main/mfa/verify: the second step of a login, with a 6-digit code or a recovery code. */
export async function verifySecondFactor(input: z.output<typeof secondFactorSchema>, ctx: SignedInContext) {
  const { db } = ctx.deps;
  const row = await factorOf(db, ctx.user.id);
  if (!row?.enrolledAt) throw new ApiError(Msg.SECOND_FACTOR_NOT_ENROLLED);
  const method = await consumeCode(ctx, row, input.code, true);
  const now = ctx.deps.now();
  const [left] = await db
    .select({ n: count() })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, ctx.user.id), isNull(recoveryCodes.usedAt)));
  await db.transaction(async (tx) => {
    await markSecondFactorPassed(tx, ctx.tokenHash, now);
    await audit(
      tx,
      ctx,
      "mfa.verify",
      method === "recovery" ? "recoveryCode" : "totp",
      method === "recovery" ? { recoveryCodesLeft: left.n } : {},
    );
  });
  ctx.deps.sessions.forgetToken(ctx.tokenHash);
  return { method, recoveryCodesLeft: left.n };
}

/** Demo data only: the demo operators start enrolled with the fixed secret of demo-totp.ts. */
export async function seedDemoSecondFactors(deps: Deps, created: Record<string, number>, now: Date) {
  for (const [userName, secret] of Object.entries(DEMO_TOTP_SECRETS)) {
    const userId = created[userName];
    if (!userId) continue;
    await deps.db
      .insert(operatorSecondFactors)
      .values({ userId, sealedSecret: sealTotpSecret(deps.env, secret), enrolledAt: now, createdAt: now })
      .onConflictDoNothing();
  }
}

/** /test/accounts/operator (tests only): the caller becomes an operator, with no second factor yet. */
export async function promoteToOperator(_input: unknown, { deps, user }: SignedInContext) {
  if (!deps.env.testFixtures) throw new ApiError(Msg.NOT_FOUND);
  await deps.db.update(users).set({ role: "operator" }).where(eq(users.id, user.id));
  deps.sessions.forgetUser(user.id);
  return null;
}
