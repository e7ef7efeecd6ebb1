import { parseWithZod } from "@conform-to/zod/v4";
import { createCookie, json } from "@remix-run/node";
import * as z from "zod";
import { applySchema } from "#contract/participation.ts";
import { participatedDetailHref } from "./participation-urls.ts";
import { failureResponse, redirectAfter, type Api } from "./api.server.ts";
import { getEnv } from "./env.server.ts";
import { replyWithFailure } from "./forms.server.ts";
import { parseFormOr400 } from "./intents.server.ts";
import { payRefused } from "./payments.server.ts";
import { redirectWithFlash } from "./session.server.ts";

/**
 * Portal helpers of participation (docs/decisions/013):
 * - the apply ticket that applyJoinApp hands out travels in its own signed cookie (one service at a
 *   time, 24 hours), so the ServicesDetail URL stays the one of SPEC §2;
 * - ParticipationManagement is "kept alive" (§2): its last query is remembered in a signed cookie and the
 *   menu link (no query) restores it;
 * - the forms of the participant's ServicesDetail: apply, pay the node order, confirm.
 */
function cookieOptions(maxAge: number) {
  const env = getEnv();
  return {
    path: "/g/home",
    httpOnly: true,
    sameSite: "lax" as const,
    secure: env.cookieSecure,
    secrets: env.sessionSecrets,
    maxAge,
  };
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

/* The participant's ServicesDetail. */

const joinRef = z.object({ appJoinAuditId: z.coerce.number().int().positive() });

/** The request to join (§5 Identity certificate by mode); once made, its own detail page. */
export async function applyToJoin(request: Request, api: Api, formData: FormData) {
  const submission = parseWithZod(formData, { schema: applySchema });
  if (submission.status !== "success")
    return json({ kind: "apply" as const, result: submission.reply() }, { status: 400 });
  const v = submission.value;
  const ticket = await readTicket(request, v.appId);
  const result = await api.call("/sys/chainAppInfo/joinApp", { ...v, ticket });
  if (!result.ok) {
    if (result.status >= 500) throw failureResponse(result);
    return json({ kind: "apply" as const, result: replyWithFailure(submission, result) }, { status: 400 });
  }
  const view = await api.load("/sys/chainAppInfo/view", { appId: v.appId, appJoinAuditId: result.data.appJoinAuditId });
  return redirectWithFlash(
    request,
    participatedDetailHref({
      appId: v.appId,
      appCode: view.appCode,
      appJoinAuditId: result.data.appJoinAuditId,
      auditState: result.data.auditState,
    }),
    { kind: "success", key: "participation:flash.applied" },
  );
}

/** Pays the node order with the key the loader issued. */
export async function payJoinOrder(request: Request, api: Api, formData: FormData, here: string) {
  const result = await api.call(
    "/sys/chainAppInfo/payJoinOrder",
    parseFormOr400(joinRef.extend({ idempotencyKey: z.string() }), formData),
  );
  if (!result.ok) {
    if (result.status >= 500) throw failureResponse(result);
    return payRefused(result);
  }
  return redirectWithFlash(request, here, {
    kind: "success",
    key: result.data.reissued ? "participation:flash.reissuedPaid" : "participation:flash.paid",
  });
}

/** Confirms a participation the publisher approved (auditState 13). */
export async function confirmJoin(request: Request, api: Api, formData: FormData, here: string) {
  return redirectAfter(
    request,
    await api.call("/sys/chainAppInfo/confirmJoin", parseFormOr400(joinRef, formData)),
    here,
    "participation:flash.confirmed",
  );
}
