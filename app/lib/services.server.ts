import * as z from "zod";
import { unsubscribeSchema } from "@contract/services";
import { apiFor, redirectAfter, type Viewer } from "./api.server";

/** Query parameters of the confirm step and the invitation panel, removed to get "where we are". */
export const PANEL_PARAMS = ["confirm", "appVerId", "invite"] as const;

export function withoutPanels(url: URL) {
  const q = new URLSearchParams(url.search);
  for (const p of PANEL_PARAMS) q.delete(p);
  // Remix marks posts to an index route with ?index.
  q.delete("index");
  const s = q.toString();
  return url.pathname + (s ? `?${s}` : "");
}

const lifecycleIntent = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("deactivate"), appVerId: z.coerce.number().int().positive() }),
  z.object({ intent: z.literal("enable"), appVerId: z.coerce.number().int().positive() }),
  unsubscribeSchema.extend({ intent: z.literal("unsubscribe") }),
]);

/**
 * The publisher's lifecycle actions shared by PublishedServices and ServicesDetail (deactivate, enable,
 * unsubscribe): the backend re-checks serviceActions(); a refusal comes back as an error flash. Returns
 * null for intents it does not know (the route decides, an unknown one is a 400).
 */
export async function lifecycleAction(request: Request, viewer: Viewer & { token: string }, formData: FormData) {
  const parsed = lifecycleIntent.safeParse(Object.fromEntries(formData));
  if (!parsed.success) return null;
  const api = apiFor(request, viewer);
  const back = withoutPanels(new URL(request.url));
  const v = parsed.data;
  const result =
    v.intent === "unsubscribe"
      ? await api.call("/sys/chainAppInfo/unsubscribe", { appVerId: v.appVerId, reason: v.reason })
      : await api.call(v.intent === "deactivate" ? "/sys/chainAppInfo/deactivate" : "/sys/chainAppInfo/enable", { appVerId: v.appVerId });
  const key = v.intent === "deactivate" ? "deactivated" : v.intent === "enable" ? "enabled" : "unsubscribed";
  return redirectAfter(request, result, back, `services:flash.${key}`);
}

// PublishedServices imports it from here.
export { badRequest } from "./api.server";
