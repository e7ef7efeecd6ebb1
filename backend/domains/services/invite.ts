import type { BackendEnv } from "#backend/env.ts";
import { signFields, verifyFields, type LinkPurpose } from "#backend/kit/signed-link.ts";

/**
 * Invitation links (SPEC §2 ParticipatedServices/JOIN "short query keys a to e"; docs/decisions/012):
 *   a = appId, b = appCode, c = token, d = expiry (Unix seconds), e = language (en | zh-CN)
 * The token is the signed-link kit's detached signature (docs/decisions/050) over a, b, e and the expiry d, for
 * the purpose "service-invitation": 22 base64url characters, so a link cannot be forged or extended. Keyed from
 * the deployment's session secret (SESSION_SECRET, or DATA_DIR/session-secret), which every process shares.
 */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const JOIN_PATH = "/g/home/ParticipatedServices/JOIN";

const INVITATION: LinkPurpose = "service-invitation";
const tokenFor = (env: BackendEnv, a: string, b: string, d: string, e: string) =>
  signFields(env, INVITATION, [a, b, e], Number(d));

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
  if (!/^[0-9]{1,12}$/.test(d) || !verifyFields(env, INVITATION, [a, b, e], Number(d), c, now)) return null;
  return { appId: Number(a), appCode: b, language: e };
}
