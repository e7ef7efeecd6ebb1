import { hashPassword as hashWith, passwordMatches as matchesWith } from "#backend/kit/password-hash.ts";
import type { BackendEnv } from "#backend/env.ts";
import { openWith, sealWith, type SealPurpose } from "#backend/kit/sealed.ts";

/**
 * The QR-code password of a DDC (SPEC §3; docs/decisions/045): kept as an scrypt hash; a correct password gives
 * a sealed pass (the DDC, the password's version, an expiry) that the portal keeps for the browser and sends
 * back instead of the password. Changing or clearing the password bumps the version: old passes stop working.
 */
const PASSES: SealPurpose = { label: "bsn-ddc-view-pass", fallbackFile: "ddc-secret" };
const PASS_DAYS = 30;

/** The DDC passwords are compared after NFKC normalisation, as they were hashed. */
export const hashPassword = (password: string) => hashWith(password, { nfkc: true });
export const passwordMatches = (password: string, stored: string) => matchesWith(password, stored, { nfkc: true });

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
