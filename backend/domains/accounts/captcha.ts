import { randomUUID } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import { Msg } from "#contract/messages.ts";
import { captchaDataUri, captchaText, renderCaptcha } from "./captcha-image.ts";
import { createPowChallenge, POW_KEY, spendPowSolution } from "./captcha-pow.ts";
import { captchas } from "./tables.ts";
import { ApiError } from "#backend/http/errors.ts";
import type { Deps } from "#backend/deps.ts";

export const CAPTCHA_TTL_SECONDS = 300;

/**
 * A new image captcha (./captcha-image.ts, hardened against OCR: docs/decisions/061), single use, valid 5 minutes;
 * at most "captcha.ip" per address (docs/decisions/021).
 */
export async function createCaptcha(services: Deps, clientAddress: string | null) {
  await services.limits.consume("captcha.ip", services.limits.subjectOf(clientAddress));
  const text = captchaText();
  const key = randomUUID();
  const now = services.now();
  const expiresAt = new Date(now.getTime() + CAPTCHA_TTL_SECONDS * 1000);
  await services.db.insert(captchas).values({ key, answer: text.toLowerCase(), expiresAt });
  return {
    captchaKey: key,
    image: captchaDataUri(renderCaptcha(text)),
    expiresInSeconds: CAPTCHA_TTL_SECONDS,
    // With JavaScript, the page solves this instead of showing the image (docs/decisions/061).
    pow: await createPowChallenge(services, expiresAt),
  };
}

function captchaError(key: string): ApiError {
  return new ApiError(key, { fieldErrors: { captcha: [`errors:${key}`] } });
}

/**
 * Checks and uses up a captcha (SPEC §8 Login: empty, expired, wrong or invalid). Every check consumes it.
 * TEST_CAPTCHA, for automated tests only, is accepted as the answer of any live captcha. With the key "pow" the
 * answer is a proof-of-work solution instead (docs/decisions/061), accepted once.
 */
export async function checkCaptcha(services: Deps, key: string | undefined, answer: string | undefined) {
  if (!answer || !answer.trim()) throw captchaError(Msg.CAPTCHA_EMPTY);
  if (!key) throw captchaError(Msg.CAPTCHA_INVALID);
  if (key === POW_KEY) {
    const verdict = await spendPowSolution(services, answer.trim());
    if (verdict === "expired") throw captchaError(Msg.CAPTCHA_EXPIRED);
    if (verdict !== "ok") throw captchaError(Msg.CAPTCHA_INVALID);
    return;
  }
  const now = services.now();
  // Taking the captcha and checking it are one statement, so two requests cannot both use it.
  const [row] = await services.db
    .update(captchas)
    .set({ usedAt: now })
    .where(and(eq(captchas.key, key), isNull(captchas.usedAt)))
    .returning({ answer: captchas.answer, expiresAt: captchas.expiresAt });
  if (!row) throw captchaError(Msg.CAPTCHA_INVALID);
  if (row.expiresAt.getTime() <= now.getTime()) throw captchaError(Msg.CAPTCHA_EXPIRED);
  const given = answer.trim().toLowerCase();
  const testAnswer = services.env.testCaptcha?.toLowerCase();
  if (given !== row.answer && given !== testAnswer) throw captchaError(Msg.CAPTCHA_WRONG);
}
