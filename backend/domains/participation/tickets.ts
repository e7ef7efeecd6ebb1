import type { BackendEnv } from "#backend/env.ts";
import { signLink, verifyLink, type LinkPurpose } from "#backend/kit/signed-link.ts";

/**
 * An apply ticket (docs/decisions/013): applyJoinApp checked the link's token, so it hands the caller a
 * ticket for this service, valid 24 hours and bound to the caller: a signed link (docs/decisions/050).
 */
const TICKET_TTL_MS = 24 * 60 * 60 * 1000;
const TICKET: LinkPurpose = "participation-apply-ticket";
export function issueTicket(env: BackendEnv, userId: number, appId: number, now: Date) {
  return signLink(env, TICKET, `${userId}.${appId}`, new Date(now.getTime() + TICKET_TTL_MS));
}
export function ticketValid(env: BackendEnv, ticket: string | undefined, userId: number, appId: number, now: Date) {
  return verifyLink(env, TICKET, ticket, now) === `${userId}.${appId}`;
}
