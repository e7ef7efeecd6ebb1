import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import type { BackendEnv } from "#backend/env.ts";
import { openWith, sealWith, type SealPurpose } from "#backend/kit/sealed.ts";

/**
 * The QR-code password of a DDC (SPEC §3; docs/decisions/045): kept as an scrypt hash; a correct password gives
 * a sealed pass (the DDC, the password's version, an expiry) that the portal keeps for the browser and sends
 * back instead of the password. Changing or clearing the password bumps the version: old passes stop working.
 */
const PASSES: SealPurpose = { label: "bsn-ddc-view-pass", fallbackFile: "ddc-secret" };
const PASS_DAYS = 30;

function derive(password: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize("NFKC"), salt, 32, { N: 16384, r: 8, p: 1 }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  return `scrypt$${salt.toString("base64")}$${(await derive(password, salt)).toString("base64")}`;
}

export async function passwordMatches(password: string, stored: string): Promise<boolean> {
  const [kind, salt, hash] = stored.split("$");
  if (kind !== "scrypt" || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64");
  const actual = await derive(password, Buffer.from(salt, "base64"));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

export function issuePass(env: BackendEnv, ddcId: number, version: number, now: Date): string {
  return sealWith(env, PASSES, JSON.stringify({ d: ddcId, v: version, e: now.getTime() + PASS_DAYS * 86_400_000 }));
}

/** Whether `pass` opens DDC `ddcId` at password version `version` now. */
export function passOpens(env: BackendEnv, pass: string, ddcId: number, version: number, now: Date): boolean {
  try {
    const p = JSON.parse(openWith(env, PASSES, pass)) as { d: number; v: number; e: number };
    return p.d === ddcId && p.v === version && p.e > now.getTime();
  } catch {
    return false;
  }
}
