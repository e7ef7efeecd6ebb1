import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * The gateway's authorized user and password (docs/decisions/046): the password is kept as an scrypt hash and
 * compared in constant time; HTTP Basic credentials are parsed here.
 */
export { hashPassword, passwordMatches } from "#backend/kit/password-hash.ts";

/** Whether two strings are equal, in a time that does not depend on where they differ. */
export function sameText(a: string, b: string): boolean {
  const key = randomBytes(16);
  return timingSafeEqual(createHmac("sha256", key).update(a).digest(), createHmac("sha256", key).update(b).digest());
}

export type Credentials = { user: string; password: string };

/** The credentials of an `Authorization: Basic …` header, or null. */
export function basicCredentials(header: string | null): Credentials | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? "");
  if (!match) return null;
  const text = Buffer.from(match[1]!, "base64").toString("utf8");
  const colon = text.indexOf(":");
  return colon < 0 ? null : { user: text.slice(0, colon), password: text.slice(colon + 1) };
}

export const basicHeader = (c: Credentials) =>
  `Basic ${Buffer.from(`${c.user}:${c.password}`, "utf8").toString("base64")}`;

/** A user name fits Basic auth (no colon, no control characters) and a password is 1–128 characters. */
export function credentialsProblem(c: Credentials): string | null {
  if (typeof c?.user !== "string" || !/^[^:\x00-\x1f\x7f]{1,64}$/.test(c.user))
    return "the user name is 1 to 64 characters without a colon";
  if (
    typeof c.password !== "string" ||
    c.password.length < 1 ||
    c.password.length > 128 ||
    /[\x00-\x1f\x7f]/.test(c.password)
  )
    return "the password is 1 to 128 characters";
  return null;
}
