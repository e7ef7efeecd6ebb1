import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { alertSettingsSchema } from "#contract/alerts.ts";
import { roleMay } from "#contract/team-roles.ts";
import { AlertsPage } from "#app/components/alerts/AlertsPage.tsx";
import { isWebhookIntent, loadWebhook, webhookAction } from "#app/lib/alert-webhook.server.ts";
import { apiFor, failureResponse, requireUser } from "#app/lib/api.server.ts";
import { formFailureStatus, replyWithFailure } from "#app/lib/forms.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";
import { pageParam, positiveParam } from "#app/lib/params.ts";
import { redirectWithFlash } from "#app/lib/session.server.ts";

export const handle = {
  i18n: ["common", "alerts", "forms"],
  breadcrumb: [{ key: "menu.userCenter" }, { key: "menu.alerts" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("alerts");

const PAGE = "/g/home/userCenter/Alerts";

/**
 * Alerts (issue 35 §1, docs/decisions/087): the acting account's budget and balance alerts with where it stands, and
 * the alerts told (paged; `?alertId=` from a message's link marks that alert). Every role reads it; the roles that
 * handle money (`pay`) change it.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const api = apiFor(request, viewer);
  const url = new URL(request.url);
  const [settings, history, accounts] = await Promise.all([
    api.load("/sys/alerts/settings", {}),
    api.load("/sys/alerts/history", { pageIndex: pageParam(url), pageSize: 20 }),
    api.load("/main/team/accounts", {}),
  ]);
  const role = accounts.find((a) => a.current)?.role ?? "owner";
  const mayChange = roleMay(role, "pay");
  return json({
    settings,
    history: history.page,
    mayChange,
    ...(await loadWebhook(api, mayChange, url)),
    // Only marks a row of the account's own history: another account's id matches nothing here.
    opened: positiveParam(url.searchParams.get("alertId")),
    language: viewer.language,
  });
}

/**
 * The settings form (intent `settings`, or none) and the webhook's intents (app/lib/alert-webhook.server.ts): refused
 * values come back at their fields with what was typed (a 4xx); done, back with a flash. Another intent is a 400.
 */
export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const form = await request.formData();
  const intent = form.get("intent") ?? "settings";
  if (isWebhookIntent(intent)) return webhookAction(request, viewer, form, intent);
  if (intent !== "settings") throw new Response("Unknown intent", { status: 400 });
  const submission = parseWithZod(form, { schema: alertSettingsSchema });
  if (submission.status !== "success") return json({ intent, result: submission.reply() }, { status: 400 });
  const result = await apiFor(request, viewer).call("/sys/alerts/save", submission.value);
  if (!result.ok) {
    if (result.status >= 500) throw failureResponse(result);
    return json({ intent, result: replyWithFailure(submission, result) }, { status: formFailureStatus(result) });
  }
  return redirectWithFlash(request, PAGE, { kind: "success", key: "alerts:form.saved" });
}

export default function Alerts() {
  const data = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>() as { intent: string; result: SubmissionResult<string[]> } | undefined;
  return (
    <AlertsPage
      {...data}
      lastResult={answer?.intent === "settings" ? answer.result : null}
      webhookResult={answer?.intent === "webhookSave" ? answer.result : null}
    />
  );
}
