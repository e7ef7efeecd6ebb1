import { createHmac } from "node:crypto";
import { createChallenge, verifySolution } from "altcha-lib";
import type { Deps } from "#backend/deps.ts";
import { serverSecrets } from "#backend/kit/sealed.ts";
import { captchas } from "./tables.ts";

/**
 * The captcha of visitors with JavaScript (docs/decisions/061): an ALTCHA proof-of-work (altcha-lib). The
 * challenge asks for the number n ≤ POW_MAX_NUMBER with SHA-256(salt + n) = challenge; the salt carries its
 * expiry and the challenge is signed with an HMAC keyed from the deployment's secrets, so the server keeps
 * nothing until a solution comes back. A solution is accepted once: its challenge is recorded in the captchas
 * table (key "pow:<challenge>") until it expires, so a replay is refused on either database.
 *
 * POW_MAX_NUMBER is chosen so altcha-lib's own solver (Node, one thread) spends at least 0.5 CPU-seconds per
 * solution on average on the project's machine (n is uniform in [0, max]: max/2 tries on average, 24–36 µs of
 * CPU each), while Chromium's worker (about 9 µs a try) stays under 1 s at a 4× slowdown on average
 * (`npm run bench:captcha`; docs/decisions/061).
 */
export const POW_MAX_NUMBER = 45_000;
/** The key of the form field `captchaKey` that marks `captcha` as a proof-of-work solution. */
export const POW_KEY = "pow";
const ALGORITHM = "SHA-256";
const SECRET_FILE = "session-secret";

export type PowChallenge = { algorithm: string; challenge: string; maxnumber: number; salt: string; signature: string };

/** The HMAC keys, newest first (signed with the newest, verified with any, as the signed links). */
function hmacKeys(services: Deps): string[] {
  return serverSecrets(services.env, SECRET_FILE).map((secret) =>
    createHmac("sha256", secret).update("bsn-captcha-pow:v1").digest("hex"),
  );
}

export async function createPowChallenge(services: Deps, expiresAt: Date): Promise<PowChallenge> {
  const { algorithm, challenge, maxnumber, salt, signature } = await createChallenge({
    algorithm: ALGORITHM,
    hmacKey: hmacKeys(services)[0]!,
    maxnumber: POW_MAX_NUMBER,
    expires: expiresAt,
  });
  return { algorithm, challenge, maxnumber: maxnumber ?? POW_MAX_NUMBER, salt, signature };
}

type Payload = { algorithm?: unknown; challenge?: unknown; number?: unknown; salt?: unknown; signature?: unknown };

function parse(solution: string): Payload | null {
  try {
    const payload = JSON.parse(Buffer.from(solution, "base64").toString("utf8")) as unknown;
    return payload && typeof payload === "object" ? (payload as Payload) : null;
  } catch {
    return null;
  }
}

/**
 * Checks and uses up a proof-of-work solution (the base64 JSON altcha's widgets submit): "invalid" when it is
 * not ours or not a solution, "expired" when its challenge has expired, "used" when it was accepted before.
 */
export async function spendPowSolution(
  services: Deps,
  solution: string,
): Promise<"ok" | "invalid" | "expired" | "used"> {
  const payload = parse(solution);
  if (
    !payload ||
    payload.algorithm !== ALGORITHM ||
    typeof payload.challenge !== "string" ||
    typeof payload.salt !== "string" ||
    typeof payload.signature !== "string" ||
    typeof payload.number !== "number" ||
    !Number.isSafeInteger(payload.number)
  )
    return "invalid";
  const expires = Number(new URLSearchParams(payload.salt.split("?")[1] ?? "").get("expires"));
  if (!Number.isSafeInteger(expires) || expires <= 0) return "invalid";
  let ours = false;
  for (const key of hmacKeys(services)) if (await verifySolution(payload as never, key, false)) ours = true;
  if (!ours) return "invalid";
  const now = services.now();
  if (expires * 1000 <= now.getTime()) return "expired";
  const [recorded] = await services.db
    .insert(captchas)
    .values({ key: `pow:${payload.challenge}`, answer: "", expiresAt: new Date(expires * 1000), usedAt: now })
    .onConflictDoNothing()
    .returning({ key: captchas.key });
  return recorded ? "ok" : "used";
}
