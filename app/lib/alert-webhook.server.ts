import { parseWithZod } from "@conform-to/zod/v4";
import { json, redirect } from "@remix-run/node";
import { webhookSchema } from "#contract/alert-webhook.ts";
import { apiFor, failureResponse, type Api } from "#app/lib/api.server.ts";
import { formFailureStatus, replyWithFailure } from "#app/lib/forms.server.ts";
import { redirectWithFlash } from "#app/lib/session.server.ts";

/**
 * The alert webhook's intents on the Alerts page (docs/decisions/092): save the address (refused at its field with
 * what was typed), rotate the secret, delete after confirming (without JavaScript: a confirm step at
 * `?confirmDelete=1`), send a test event. Each success goes back to the page with a flash.
 */

export const ALERTS_PAGE = "/g/home/userCenter/Alerts";
export const WEBHOOK_INTENTS = ["webhookSave", "webhookRotate", "webhookDelete", "webhookTest"] as const;
export type WebhookIntent = (typeof WEBHOOK_INTENTS)[number];
export const isWebhookIntent = (intent: unknown): intent is WebhookIntent =>
  WEBHOOK_INTENTS.includes(intent as WebhookIntent);

type Viewer = Parameters<typeof apiFor>[1];

/** What the page loads for the webhook: the webhook (for the roles that may change it) and a page of deliveries. */
export async function loadWebhook(api: Api, mayChange: boolean, url: URL) {
  const pageIndex = Math.max(1, Number.parseInt(url.searchParams.get("dpage") ?? "1", 10) || 1);
  const [hook, deliveries] = await Promise.all([
    mayChange ? api.load("/sys/alerts/webhook", {}) : Promise.resolve(null),
    api.load("/sys/alerts/webhook/deliveries", { pageIndex, pageSize: 10 }),
  ]);
  return {
    webhook: hook?.webhook ?? null,
    webhookTestMode: hook?.testMode ?? false,
    deliveries: deliveries.page,
    confirmDelete: url.searchParams.get("confirmDelete") === "1" && Boolean(hook?.webhook),
  };
}

export async function webhookAction(request: Request, viewer: Viewer, form: FormData, intent: WebhookIntent) {
  const api = apiFor(request, viewer);
  const done = async (path: "/sys/alerts/webhook/rotate" | "/sys/alerts/webhook/test", flash: string) => {
    const result = await api.call(path, {});
    if (!result.ok) throw failureResponse(result);
    return redirectWithFlash(request, ALERTS_PAGE, { kind: "success", key: flash });
  };
  switch (intent) {
    case "webhookSave": {
      const submission = parseWithZod(form, { schema: webhookSchema });
      if (submission.status !== "success") return json({ intent, result: submission.reply() }, { status: 400 });
      const result = await api.call("/sys/alerts/webhook/save", submission.value);
      if (!result.ok) {
        if (result.status >= 500) throw failureResponse(result);
        return json({ intent, result: replyWithFailure(submission, result) }, { status: formFailureStatus(result) });
      }
      return redirectWithFlash(request, ALERTS_PAGE, { kind: "success", key: "alerts:webhook.saved" });
    }
    case "webhookRotate":
      return done("/sys/alerts/webhook/rotate", "alerts:webhook.rotated");
    case "webhookTest":
      return done("/sys/alerts/webhook/test", "alerts:webhook.testSent");
    case "webhookDelete": {
      if (form.get("confirmed") !== "yes") return redirect(`${ALERTS_PAGE}?confirmDelete=1`);
      const result = await api.call("/sys/alerts/webhook/delete", {});
      if (!result.ok) throw failureResponse(result);
      return redirectWithFlash(request, ALERTS_PAGE, { kind: "success", key: "alerts:webhook.deleted" });
    }
  }
}
