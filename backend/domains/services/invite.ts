import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { BackendEnv } from "#backend/env.ts";

/**
 * Invitation links (SPEC §2 ParticipatedServices/JOIN "short query keys a to e"; docs/decisions/012):
 *   a = appId, b = appCode, c = token, d = expiry (Unix seconds), e = language (en | zh-CN)
 * The token is an HMAC-SHA256 over "a.b.d.e", base64url, first 22 characters (128 bits), so a link cannot be
 * forged or extended. The key is derived from the deployment's session secret (SESSION_SECRET, or the one
 * generated into DATA_DIR/session-secret for the embedded default), which every process shares.
 */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const JOIN_PATH = "/g/home/ParticipatedServices/JOIN";

let cachedKey: Buffer | undefined;
function invitationKey(env: BackendEnv): Buffer {
  if (cachedKey) return cachedKey;
  const configured = process.env.SESSION_SECRET?.split(",")[0]?.trim();
  const file = path.join(env.dataDir, "session-secret");
  const secret = configured || (existsSync(file) ? readFileSync(file, "utf8").trim() : `bsn-embedded:${env.dataDir}`);
  cachedKey = createHash("sha256").update(`bsn-invitation:${secret}`).digest();
  return cachedKey;
}

function tokenFor(env: BackendEnv, a: string, b: string, d: string, e: string) {
  return createHmac("sha256", invitationKey(env)).update(`${a}.${b}.${d}.${e}`).digest("base64url").slice(0, 22);
}

export function invitationLink(
  env: BackendEnv,
  input: { appId: number; appCode: string; language: "en" | "zh-CN"; now: Date },
) {
  const expiresAt = new Date(input.now.getTime() + INVITATION_TTL_MS);
  const a = String(input.appId);
  const d = String(Math.floor(expiresAt.getTime() / 1000));
  const query = new URLSearchParams({
    a,
    b: input.appCode,
    c: tokenFor(env, a, input.appCode, d, input.language),
    d,
    e: input.language,
  });
  return { path: `${JOIN_PATH}?${query}`, expiresAt };
}

/** For the JOIN flow (another issue): the appId and language of a valid, unexpired link, or null ("Tokens invalid", §8). */
export function verifyInvitation(
  env: BackendEnv,
  query: URLSearchParams,
  now: Date,
): { appId: number; appCode: string; language: "en" | "zh-CN" } | null {
  const [a, b, c, d, e] = ["a", "b", "c", "d", "e"].map((k) => query.get(k) ?? "");
  if (!a || !b || !c || !d || (e !== "en" && e !== "zh-CN")) return null;
  const expected = Buffer.from(tokenFor(env, a, b, d, e));
  const given = Buffer.from(c);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  if (Number(d) * 1000 < now.getTime()) return null;
  return { appId: Number(a), appCode: b, language: e };
}
