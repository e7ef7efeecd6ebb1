import { decodeJWT } from "did-jwt";
import { verifyCredential } from "did-jwt-vc";
import { STATUS_LIST_PREFIX, type VerifyReason } from "#contract/did-codes.ts";
import type { Verification } from "#contract/did.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import type { BackendEnv } from "#backend/env.ts";
import { resolverFor, type Resolvable } from "./documents.ts";
import { bitOf, statusListJwt } from "./status.ts";

/**
 * Verifying a credential JWT (docs/decisions/043): did-jwt-vc checks its shape, signature (the issuer's DID
 * resolved: did:key, this portal's did:web from the database, another did:web over HTTPS) and validity window;
 * then its credentialStatus entry is read from the status list it names (this portal's from the database, another
 * one fetched over HTTPS and verified itself). Whatever fails is one reason of VERIFY_REASONS.
 */

const STATUS_FETCH_TIMEOUT_MS = 5_000;
const STATUS_MAX_BYTES = 256 * 1024;

type Payload = Record<string, unknown> & { vc?: Record<string, unknown> };
const iso = (seconds: unknown) =>
  typeof seconds === "number" && Number.isFinite(seconds) ? new Date(seconds * 1000).toISOString() : null;
const asRecord = (v: unknown): Record<string, unknown> =>
  v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** The reason of a did-jwt / did-jwt-vc failure, from the error code its message starts with. */
export function reasonOf(error: unknown): VerifyReason {
  const message = error instanceof Error ? error.message : String(error);
  if (/^invalid_jwt:.*expired/i.test(message)) return "expired";
  if (/^invalid_jwt:.*not valid before/i.test(message)) return "notYetValid";
  if (/^(invalid_signature|no_suitable_keys)/.test(message)) return "badSignature";
  if (/^resolver_error|unable to resolve|notFound|invalidDid/i.test(message)) return "unknownDid";
  return "malformed";
}

function readable(jwt: string) {
  try {
    const { payload } = decodeJWT(jwt) as unknown as { payload: Payload };
    return payload;
  } catch {
    return null;
  }
}

type StatusEntry = { listUrl: string; index: number };
function statusEntryOf(vc: Record<string, unknown>): StatusEntry | null {
  const s = asRecord(vc.credentialStatus);
  const listUrl = typeof s.statusListCredential === "string" ? s.statusListCredential : null;
  const index = Number(s.statusListIndex);
  if (!listUrl || !Number.isInteger(index) || index < 0) return null;
  return { listUrl, index };
}

/** The status list credential's JWT: this portal's built from the database, another's fetched (https only, small, quick). */
async function listJwtOf(db: Db | Tx, env: BackendEnv, url: string, now: Date): Promise<string | null> {
  const own = `${env.publicUrl}${STATUS_LIST_PREFIX}`;
  if (url.startsWith(own)) {
    const id = Number(url.slice(own.length));
    return Number.isInteger(id) && id > 0 && id < 2 ** 31 ? statusListJwt(db, env, id, now) : null;
  }
  if (!url.startsWith("https://")) return null;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(STATUS_FETCH_TIMEOUT_MS), redirect: "error" });
    if (!res.ok) return null;
    const text = await res.text();
    return text.length <= STATUS_MAX_BYTES ? text.trim() : null;
  } catch {
    return null;
  }
}

/** Whether the entry's bit is set in a status list signed by the credential's issuer; null when that cannot be read. */
async function revokedBit(
  db: Db | Tx,
  env: BackendEnv,
  resolver: Resolvable,
  issuer: string,
  entry: StatusEntry,
  now: Date,
): Promise<boolean | null> {
  const jwt = await listJwtOf(db, env, entry.listUrl, now);
  if (!jwt) return null;
  try {
    const list = await verifyCredential(jwt, resolver);
    if (list.issuer !== issuer) return null;
    const subject = asRecord(list.verifiableCredential.credentialSubject);
    return typeof subject.encodedList === "string" ? bitOf(subject.encodedList, entry.index) : null;
  } catch {
    return null;
  }
}

export async function verifyJwt(db: Db | Tx, env: BackendEnv, jwt: string, now: Date): Promise<Verification> {
  const payload = readable(jwt);
  const vc = asRecord(payload?.vc);
  const subject = asRecord(vc.credentialSubject);
  const { id: subjectId, ...claims } = subject;
  const entry = statusEntryOf(vc);
  const base: Verification = {
    verified: false,
    reason: "malformed",
    issuer: typeof payload?.iss === "string" ? payload.iss : null,
    subject: typeof payload?.sub === "string" ? payload.sub : typeof subjectId === "string" ? subjectId : null,
    types: Array.isArray(vc.type) ? vc.type.filter((t): t is string => typeof t === "string") : [],
    claims,
    issuedAt: iso(payload?.iat ?? payload?.nbf),
    validFrom: iso(payload?.nbf),
    validUntil: iso(payload?.exp),
    status: entry ? { ...entry, revoked: null } : null,
  };
  if (!payload) return base;
  const resolver = resolverFor(db, env);
  try {
    await verifyCredential(jwt, resolver, { policies: { now: Math.floor(now.getTime() / 1000) } });
  } catch (error) {
    return { ...base, reason: reasonOf(error) };
  }
  if (!entry) return { ...base, verified: true, reason: null };
  const revoked = await revokedBit(db, env, resolver, base.issuer!, entry, now);
  const status = { ...entry, revoked };
  if (revoked === null) return { ...base, status, reason: "statusUnavailable" };
  return revoked ? { ...base, status, reason: "revoked" } : { ...base, status, verified: true, reason: null };
}
