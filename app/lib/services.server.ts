import { parseWithZod } from "@conform-to/zod/v4";
import { json, redirect } from "@remix-run/node";
import * as z from "zod";
import { enableRequestSchema, lifecycleConfirmSchema, paySchema, replySchema } from "#contract/services.ts";
import { apiFor, redirectAfter, type Api, type Viewer } from "./api.server.ts";
import { replyWithFailure } from "./forms.server.ts";
import { parseFormOr400 } from "./intents.server.ts";
import { payRefused } from "./payments.server.ts";
import { positiveParam } from "./params.ts";
import { shownActions } from "./services-rules.ts";
import { redirectWithFlash } from "./session.server.ts";

/** Query parameters of the confirm step and the invitation panel, removed to get "where we are". */
export const PANEL_PARAMS = ["confirm", "appVerId", "invite", "join"] as const;

export function withoutPanels(url: URL) {
  const q = new URLSearchParams(url.search);
  for (const p of PANEL_PARAMS) q.delete(p);
  // Remix marks posts to an index route with ?index.
  q.delete("index");
  const s = q.toString();
  return url.pathname + (s ? `?${s}` : "");
}

/** The publisher's lifecycle intents, shared by PublishedServices and ServicesDetail. */
export const LIFECYCLE_INTENTS = ["deactivate", "enable", "unsubscribe"] as const;
export type LifecycleIntent = (typeof LIFECYCLE_INTENTS)[number];

const serviceRef = z.object({ appVerId: z.coerce.number().int().positive() });

/**
 * The publisher's lifecycle actions (deactivate, enable, unsubscribe): the backend re-checks
 * serviceActions(); a refusal comes back as an error flash, a form without its service is a 400.
 */
export async function lifecycleAction(
  request: Request,
  viewer: Viewer & { token: string },
  intent: LifecycleIntent,
  formData: FormData,
) {
  const api = apiFor(request, viewer);
  const back = withoutPanels(new URL(request.url));
  switch (intent) {
    case "deactivate":
    case "unsubscribe":
      return typedConfirmation(request, api, intent, formData, back);
    case "enable":
      return redirectAfter(
        request,
        await api.call("/sys/chainAppInfo/enable", parseFormOr400(serviceRef, formData)),
        back,
        "services:flash.enabled",
      );
  }
}

/**
 * Deactivate and unsubscribe, confirmed by the typed service name (docs/decisions/029): the form's schema,
 * then the backend compares the name; a missing or wrong name answers the confirm panel again with its
 * field error and what was typed.
 */
async function typedConfirmation(
  request: Request,
  api: Api,
  intent: "deactivate" | "unsubscribe",
  formData: FormData,
  back: string,
) {
  const submission = parseWithZod(formData, { schema: lifecycleConfirmSchema() });
  if (submission.status !== "success")
    return json({ kind: "typedConfirm" as const, result: submission.reply() }, { status: 400 });
  const { appVerId, reason, confirmName } = submission.value;
  const result =
    intent === "deactivate"
      ? await api.call("/sys/chainAppInfo/deactivate", { appVerId, confirmName })
      : await api.call("/sys/chainAppInfo/unsubscribe", { appVerId, reason, confirmName });
  if (!result.ok && result.fieldErrors.confirmName)
    return json({ kind: "typedConfirm" as const, result: replyWithFailure(submission, result) }, { status: 400 });
  return redirectAfter(
    request,
    result,
    back,
    intent === "deactivate" ? "services:flash.deactivated" : "services:flash.unsubscribed",
  );
}

const draftRef = z.object({ appId: z.coerce.number().int().positive(), appVerId: z.coerce.number().int().positive() });

/** Deletes a wizard draft after its confirm step (docs/decisions/029); a draft already gone is an error flash. */
export async function discardDraft(request: Request, viewer: Viewer & { token: string }, formData: FormData) {
  const back = withoutPanels(new URL(request.url));
  return redirectAfter(
    request,
    await apiFor(request, viewer).call("/sys/chainAppInfo/wizard/discard", parseFormOr400(draftRef, formData)),
    back,
    "services:flash.draftDeleted",
  );
}

/* The publisher's service detail (PublishedServices/ServicesDetail): its forms besides the lifecycle. */

/** The forms of the service detail: pay, reply to a comment, ask to lift a suspension, and the lifecycle's. */
export const SERVICE_DETAIL_INTENTS = ["pay", "reply", "requestEnable", ...LIFECYCLE_INTENTS] as const;

/** Pays the publish bill with the key the loader issued. */
export async function payPublishBill(request: Request, api: Api, formData: FormData, back: string) {
  const result = await api.call("/sys/chainAppInfo/payPublishBill", parseFormOr400(paySchema, formData));
  if (!result.ok) return payRefused(result);
  return redirectWithFlash(request, back, { kind: "success", key: "services:flash.paid" });
}

/** The publisher's reply to a comment; a refusal is shown at that comment's form. */
export async function replyToComment(request: Request, api: Api, formData: FormData, back: string) {
  const submission = parseWithZod(formData, { schema: replySchema });
  const commentId = Number(formData.get("commentId"));
  if (submission.status !== "success")
    return json({ kind: "reply" as const, commentId, result: submission.reply() }, { status: 400 });
  const result = await api.call("/sys/chainAppInfo/replyComment", submission.value);
  if (!result.ok)
    return json({ kind: "reply" as const, commentId, result: replyWithFailure(submission, result) }, { status: 400 });
  return redirectWithFlash(request, back, { kind: "success", key: "services:flash.replied" });
}

/** At 40, asks operations to lift the suspension (docs/decisions/015). */
export async function askToLiftSuspension(request: Request, api: Api, formData: FormData, back: string) {
  const submission = parseWithZod(formData, { schema: enableRequestSchema });
  if (submission.status !== "success")
    return json({ kind: "requestEnable" as const, result: submission.reply() }, { status: 400 });
  const result = await api.call("/sys/chainAppInfo/requestEnable", submission.value);
  if (!result.ok)
    return json({ kind: "requestEnable" as const, result: replyWithFailure(submission, result) }, { status: 400 });
  return redirectWithFlash(request, back, { kind: "success", key: "services:flash.enableRequested" });
}

/**
 * `?join=<appVerId>` on the list or the detail: the publisher's own join of a paid, running service
 * (§4 Join), through the service's invitation link (JOIN). Nothing when the parameter names no row that
 * may be joined.
 */
export async function joinRedirect(
  url: URL,
  api: Api,
  rows: readonly Parameters<typeof shownActions>[0][],
  language: "en" | "zh-CN",
) {
  const verId = positiveParam(url.searchParams.get("join"));
  const row = verId ? rows.find((r) => (r as { appVerId?: number }).appVerId === verId) : undefined;
  if (!row || !shownActions(row).includes("join")) return;
  const link = await api.load("/sys/chainAppInfo/invite", { appVerId: verId!, language });
  throw redirect(link.path);
}
