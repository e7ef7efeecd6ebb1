import * as z from "zod";
import { unsubscribeSchema } from "@contract/services";
import { apiFor, redirectAfter, type Viewer } from "./api.server";
import { parseFormOr400 } from "./intents.server";

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

/** The publisher's lifecycle intents, shared by PublishedServices and ServicesDetail. */
export const LIFECYCLE_INTENTS = ["deactivate", "enable", "unsubscribe"] as const;
export type LifecycleIntent = (typeof LIFECYCLE_INTENTS)[number];

const serviceRef = z.object({ appVerId: z.coerce.number().int().positive() });

/**
 * The publisher's lifecycle actions (deactivate, enable, unsubscribe): the backend re-checks
 * serviceActions(); a refusal comes back as an error flash, a form without its service is a 400.
 */
export async function lifecycleAction(request: Request, viewer: Viewer & { token: string }, intent: LifecycleIntent, formData: FormData) {
  const api = apiFor(request, viewer);
  const back = withoutPanels(new URL(request.url));
  switch (intent) {
    case "deactivate":
      return redirectAfter(request, await api.call("/sys/chainAppInfo/deactivate", parseFormOr400(serviceRef, formData)), back, "services:flash.deactivated");
    case "enable":
      return redirectAfter(request, await api.call("/sys/chainAppInfo/enable", parseFormOr400(serviceRef, formData)), back, "services:flash.enabled");
    case "unsubscribe": {
      const { appVerId, reason } = parseFormOr400(unsubscribeSchema, formData);
      return redirectAfter(request, await api.call("/sys/chainAppInfo/unsubscribe", { appVerId, reason }), back, "services:flash.unsubscribed");
    }
  }
}
