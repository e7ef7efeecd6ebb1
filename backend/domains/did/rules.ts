import { isCertified } from "#contract/certification.ts";
/**
 * Pure rules of the DID service (docs/decisions/043).
 *
 * A certified enterprise (SPEC §1 "enterprise certification", §6): an enterprise account (user type 2) that is
 * activated, whose registration gave its company name and unified credit code, and whose certification an
 * operator approved (state 10, docs/decisions/071). The store uses the same notion.
 */
export function isCertifiedEnterprise(user: {
  userType: number;
  activatedAt: Date | null;
  companyName: string | null;
  creditCode: string | null;
  certState: number;
}): boolean {
  return isCertified(user) && user.activatedAt !== null && !!user.companyName?.trim() && !!user.creditCode?.trim();
}

/** The handle of a user's did:web in a request path /users/<handle>/did.json: 20 lowercase hex digits, or null. */
export function handleOfPath(rest: string): string | null {
  const m = /^([0-9a-f]{20})\/did\.json$/.exec(rest);
  return m ? m[1] : null;
}

/** A status list's id in /did-status/<id>, or null. */
export function listIdOfPath(rest: string): number | null {
  if (!/^[1-9][0-9]{0,9}$/.test(rest)) return null;
  const id = Number(rest);
  return id <= 2_147_483_647 ? id : null;
}
