import { parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import type { z } from "zod";
import { auditDecisionSchema, disableSchema } from "#contract/participation.ts";
import { AuditState } from "#contract/participation-codes.ts";
import { apiFor, failureResponse, requireUser } from "#app/lib/api.server.ts";
import { replyWithFailure } from "#app/lib/forms.server.ts";
import { ParticipationView } from "#app/components/participation/ParticipationView.tsx";
import { intentOf } from "#app/lib/intents.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { requiredId } from "#app/lib/params.server.ts";
import { redirectWithFlash } from "#app/lib/session.server.ts";
import type { VueapiResult } from "#app/lib/vueapi.server.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["participation", "services"],
  breadcrumb: [
    { key: "menu.participationManagement", to: "/g/home/ParticipationManagement" },
    { key: "titles.participationView" },
  ],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("participationView");

const backTo = (url: URL) => {
  const q = url.searchParams.get("back") ?? "";
  return `/g/home/ParticipationManagement${/^[A-Za-z0-9=&%._+-]*$/.test(q) && q ? `?${q}` : ""}`;
};

/** SPEC §2 ParticipationManagement/View: one request to join the publisher's service; approve, reject, disable. */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const url = new URL(request.url);
  const appJoinAuditId = requiredId(url, "appJoinAuditId");
  const item = await apiFor(request, viewer).load("/sys/chainAppInfo/joinManageView", { appJoinAuditId });
  return json({ item, back: backTo(url), language: viewer.language });
}

/**
 * One of the publisher's steps (decide, disable): the form is validated, then (without JavaScript) comes
 * back as a confirm step, and once confirmed goes to the backend; a refusal is shown on the form.
 */
async function publisherStep<
  K extends "decide" | "disable",
  S extends z.ZodType<{ appJoinAuditId: number; comments?: string }>,
>(
  request: Request,
  formData: FormData,
  kind: K,
  schema: S,
  step: {
    decision: (v: z.output<S>) => string;
    call: (v: z.output<S>) => Promise<VueapiResult<unknown>>;
    flash: (v: z.output<S>) => string;
  },
) {
  const submission = parseWithZod(formData, { schema });
  if (submission.status !== "success")
    return json({ kind, result: submission.reply(), confirm: null }, { status: 400 });
  const v = submission.value;
  if (formData.get("confirmed") !== "yes")
    return json({
      kind,
      result: submission.reply(),
      confirm: { decision: step.decision(v), comments: v.comments ?? "" },
    });
  const result = await step.call(v);
  if (!result.ok) {
    if (result.status >= 500) throw failureResponse(result);
    return json({ kind, result: replyWithFailure(submission, result), confirm: null }, { status: 400 });
  }
  const url = new URL(request.url);
  return redirectWithFlash(request, url.pathname + url.search, { kind: "success", key: step.flash(v) });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const formData = await request.formData();
  const intent = intentOf(formData, ["decide", "disable"]);
  const api = apiFor(request, viewer);
  switch (intent) {
    case "decide":
      return publisherStep(request, formData, intent, auditDecisionSchema, {
        decision: (v) => v.decision,
        call: (v) =>
          api.call("/sys/chainAppInfo/auditAppJoined", {
            appJoinAuditId: v.appJoinAuditId,
            auditState: v.decision === "approve" ? AuditState.PUBLISHER_APPROVED : AuditState.PUBLISHER_REJECTED,
            comments: v.comments,
          }),
        flash: (v) => (v.decision === "approve" ? "participation:flash.approved" : "participation:flash.rejected"),
      });
    case "disable":
      return publisherStep(request, formData, intent, disableSchema, {
        decision: () => "disable",
        call: (v) => api.call("/sys/chainAppInfo/disableJoin", v),
        flash: () => "participation:flash.disabled",
      });
  }
}

export default function ParticipationManagementView() {
  return <ParticipationView {...useLoaderData<typeof loader>()} actionData={useActionData<typeof action>()} />;
}
