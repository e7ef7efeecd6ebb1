import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { BackendEnv } from "#backend/env.ts";

/**
 * An apply ticket (docs/decisions/013): applyJoinApp checked the link's token, so it hands the caller a
 * ticket for this service, valid 24 hours and bound to the caller: "<expiry>.<HMAC>".
 */
const TICKET_TTL_MS = 24 * 60 * 60 * 1000;
function ticketKey(env: BackendEnv) {
  const secret = (process.env.SESSION_SECRET ?? "").split(",")[0]?.trim() || `bsn-embedded:${env.dataDir}`;
  return createHash("sha256").update(`bsn-join-ticket:${secret}`).digest();
}
const ticketMac = (env: BackendEnv, userId: number, appId: number, exp: number) =>
  createHmac("sha256", ticketKey(env)).update(`${userId}.${appId}.${exp}`).digest("base64url").slice(0, 22);
export function issueTicket(env: BackendEnv, userId: number, appId: number, now: Date) {
  const exp = Math.floor((now.getTime() + TICKET_TTL_MS) / 1000);
  return `${exp}.${ticketMac(env, userId, appId, exp)}`;
}
export function ticketValid(env: BackendEnv, ticket: string | undefined, userId: number, appId: number, now: Date) {
  if (!ticket) return false;
  const [expText, mac] = ticket.split(".");
  const exp = Number(expText);
  if (!Number.isSafeInteger(exp) || !mac || exp * 1000 < now.getTime()) return false;
  const expected = Buffer.from(ticketMac(env, userId, appId, exp));
  const given = Buffer.from(mac);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
