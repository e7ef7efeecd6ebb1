import { createHmac, timingSafeEqual } from "node:crypto";
import type { BackendEnv } from "#backend/env.ts";
import { serverSecrets } from "./sealed.ts";

/**
 * Signed links (docs/decisions/050): a value the server hands out and later takes back without keeping it, that
 * nobody can forge, extend or reuse for something else. Each use names its PURPOSE (the HMAC key is derived from
 * the secret and the purpose, so a token of one purpose never verifies for another) and an EXPIRY (signed with it).
 *
 * Keyed only from the deployment's secrets, taken as ./sealed.ts takes them: SESSION_SECRET (comma-separated,
 * newest first), else DATA_DIR/session-secret (the portal's own, generated once for the embedded default). Signed
 * with the newest, verified with any, so a secret can be rotated without breaking the links still out.
 *
 * Two shapes, both base64url and marked with the format version "v1":
 * - a token that carries its payload: `v1.<expiry>.<base64url payload>.<MAC, 22 characters (128 bits)>`;
 * - a detached signature, for a link whose fields and expiry already travel in its own query (the invitation
 *   link's short keys a to e): `v1<MAC, 20 characters (120 bits)>`, 22 characters in all.
 * The MAC covers the version, the shape, the expiry and every field; the comparison is constant-time.
 */
const VERSION = "v1";
const SECRET_FILE = "session-secret";
const TOKEN_MAC_LENGTH = 22;
const DETACHED_MAC_LENGTH = 20;
const PURPOSE = /^[a-z][a-z0-9-]{0,63}$/;
const BASE64URL = /^[A-Za-z0-9_-]*$/;
const EXPIRY = /^[0-9]{1,12}$/;

/** What a link is for: lower-case words joined by "-" ("participation-apply-ticket"). */
export type LinkPurpose = string;

const b64 = (text: string) => Buffer.from(text, "utf8").toString("base64url");
const seconds = (at: Date) => Math.floor(at.getTime() / 1000);

function keyOf(secret: string, purpose: LinkPurpose): Buffer {
  if (!PURPOSE.test(purpose)) throw new Error(`signed-link purpose "${purpose}" is not lower-case words`);
  return createHmac("sha256", secret).update(`bsn-signed-link:${VERSION}:${purpose}`).digest();
}

function macOf(secret: string, purpose: LinkPurpose, shape: "token" | "detached", body: string, length: number) {
  return createHmac("sha256", keyOf(secret, purpose))
    .update(`${VERSION}:${shape}:${body}`)
    .digest("base64url")
    .slice(0, length);
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Whether `mac` was made over `body` with any of the deployment's secrets. */
function signedByUs(env: BackendEnv, purpose: LinkPurpose, shape: "token" | "detached", body: string, mac: string) {
  const length = shape === "token" ? TOKEN_MAC_LENGTH : DETACHED_MAC_LENGTH;
  let matched = false;
  // Every secret is tried (no early exit), so the time taken says nothing about which one matched.
  for (const secret of serverSecrets(env, SECRET_FILE))
    if (sameText(macOf(secret, purpose, shape, body, length), mac)) matched = true;
  return matched;
}

const unexpired = (expiry: number, now: Date) => Number.isSafeInteger(expiry) && expiry * 1000 >= now.getTime();

/** A token for `purpose` carrying `payload` (any text), valid until `expiresAt` (to the second). */
export function signLink(env: BackendEnv, purpose: LinkPurpose, payload: string, expiresAt: Date): string {
  const body = `${seconds(expiresAt)}.${b64(payload)}`;
  return `${VERSION}.${body}.${macOf(serverSecrets(env, SECRET_FILE)[0]!, purpose, "token", body, TOKEN_MAC_LENGTH)}`;
}

/** The payload of a token signed for `purpose` and not expired at `now`; null for anything else. */
export function verifyLink(env: BackendEnv, purpose: LinkPurpose, token: string | undefined, now: Date) {
  const parts = (token ?? "").split(".");
  if (parts.length !== 4) return null;
  const [version, expiry, payload, mac] = parts as [string, string, string, string];
  if (version !== VERSION || !EXPIRY.test(expiry) || !BASE64URL.test(payload) || !BASE64URL.test(mac)) return null;
  if (!signedByUs(env, purpose, "token", `${expiry}.${payload}`, mac)) return null;
  if (!unexpired(Number(expiry), now)) return null;
  return Buffer.from(payload, "base64url").toString("utf8");
}

const detachedBody = (expiry: number, fields: readonly string[]) => [String(expiry), ...fields.map(b64)].join(".");

/**
 * A detached signature for `purpose` over `fields` (in order) and `expiry` (Unix seconds), which the link
 * carries itself: 22 base64url characters.
 */
export function signFields(env: BackendEnv, purpose: LinkPurpose, fields: readonly string[], expiry: number): string {
  const secret = serverSecrets(env, SECRET_FILE)[0]!;
  return `${VERSION}${macOf(secret, purpose, "detached", detachedBody(expiry, fields), DETACHED_MAC_LENGTH)}`;
}

/** Whether `signature` is ours for `purpose` over `fields` and `expiry`, and `expiry` has not passed at `now`. */
export function verifyFields(
  env: BackendEnv,
  purpose: LinkPurpose,
  fields: readonly string[],
  expiry: number,
  signature: string | undefined,
  now: Date,
): boolean {
  if (!signature?.startsWith(VERSION) || !Number.isSafeInteger(expiry) || expiry < 0) return false;
  if (!signedByUs(env, purpose, "detached", detachedBody(expiry, fields), signature.slice(VERSION.length)))
    return false;
  return unexpired(expiry, now);
}
