import { createCookie } from "@remix-run/node";
import { getEnv } from "./env.server";

/**
 * Portal helpers of participation (docs/decisions/013):
 * - the apply ticket that applyJoinApp hands out travels in its own signed cookie (one service at a
 *   time, 24 hours), so the ServicesDetail URL stays the one of SPEC §2;
 * - ParticipationManagement is "kept alive" (§2): its last query is remembered in a signed cookie and the
 *   menu link (no query) restores it.
 */
function cookieOptions(maxAge: number) {
  const env = getEnv();
  return { path: "/g/home", httpOnly: true, sameSite: "lax" as const, secure: env.cookieSecure, secrets: env.sessionSecrets, maxAge };
}

let ticketCookie: ReturnType<typeof createCookie> | undefined;
let manageCookie: ReturnType<typeof createCookie> | undefined;
const tickets = () => (ticketCookie ??= createCookie("__join", cookieOptions(24 * 60 * 60)));
const manage = () => (manageCookie ??= createCookie("__pm", cookieOptions(30 * 24 * 60 * 60)));

export async function readTicket(request: Request, appId: number): Promise<string | undefined> {
  const value = (await tickets().parse(request.headers.get("Cookie"))) as { appId?: number; ticket?: string } | null;
  return value && value.appId === appId && typeof value.ticket === "string" ? value.ticket : undefined;
}
export const ticketCookieHeader = (appId: number, ticket: string) => tickets().serialize({ appId, ticket });

export async function readManageQuery(request: Request): Promise<string | null> {
  const value = await manage().parse(request.headers.get("Cookie"));
  return typeof value === "string" ? value : null;
}
export const manageQueryHeader = (query: string) => manage().serialize(query);
