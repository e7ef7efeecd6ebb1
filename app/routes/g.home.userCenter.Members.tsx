import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import type * as z from "zod";
import { inviteSchema, spendLimitSchema } from "#contract/team.ts";
import { MembersPage } from "#app/components/team/MembersPage.tsx";
import { apiFor, badRequest, failureResponse, redirectAfter, requireUser, type Api } from "#app/lib/api.server.ts";
import { formFailureStatus, replyWithFailure } from "#app/lib/forms.server.ts";
import type { VueapiResult } from "#app/lib/vueapi.server.ts";
import { redirectWithFlash } from "#app/lib/session.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";
import { positiveParam } from "#app/lib/params.ts";
import { teamIntent } from "#app/lib/team.server.ts";

export const handle = { i18n: ["common", "forms"], breadcrumb: [{ key: "menu.userCenter" }, { key: "menu.members" }] };
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("members");

const PAGE = "/g/home/userCenter/Members";

/**
 * Members (issue 33, docs/decisions/075): the account's members and open invitations, for its owner; another
 * role gets the 403 inside the shell (the backend refuses `/sys/team/members`). `?remove=<id>` and
 * `?transfer=<id>` ask to confirm, with and without JavaScript; `?removed=<id>` (after a removal) lists the keys the
 * member saw, each with where to change it.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const url = new URL(request.url);
  const api = apiFor(request, viewer);
  const removing = positiveParam(url.searchParams.get("remove"));
  const removed = positiveParam(url.searchParams.get("removed"));
  // Before and after a removal: the keys the member saw, to be changed (issue 33). Nothing for a login that is not
  // and never was this account's member (the backend refuses it).
  const seenBy = removing ?? removed;
  const [team, answer] = await Promise.all([
    api.load("/sys/team/members", {}),
    seenBy ? api.call("/sys/team/keysSeen", { memberId: seenBy }) : null,
  ]);
  if (answer && !answer.ok && answer.status >= 500) throw failureResponse(answer);
  const seen = answer?.ok ? answer.data : null;
  return json({
    team,
    language: viewer.language,
    removing,
    transferring: positiveParam(url.searchParams.get("transfer")),
    keysSeen: seen && seenBy ? { memberId: seenBy, removed: removing === null, ...seen } : null,
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const api = apiFor(request, viewer);
  const form = await request.formData();
  if (form.get("intent") === "spendLimit") return saveSpendLimit(request, api, form);
  if (form.get("intent") === "invite") return sendInvitation(request, api, form);
  const call = teamIntent(api, form);
  if (!call) throw badRequest();
  const result = await call.run();
  return redirectAfter(request, result, `${PAGE}${call.to ?? ""}`, call.success, PAGE);
}

/** A member's spending limit (ADR 080), for the row of `memberId`. */
function saveSpendLimit(request: Request, api: Api, form: FormData) {
  const memberId = Number(form.get("memberId"));
  if (!Number.isInteger(memberId) || memberId <= 0) throw badRequest();
  return answerAtFields(request, form, spendLimitSchema, (value) => api.call("/sys/team/spendLimit", value), {
    success: "common:team.spendLimit.saved",
    answer: (result) => ({ kind: "spendLimit" as const, memberId, result }),
  });
}

/** An invitation (issue 33). */
function sendInvitation(request: Request, api: Api, form: FormData) {
  return answerAtFields(request, form, inviteSchema, (value) => api.call("/sys/team/invite", value), {
    success: "common:team.invited",
    answer: (result) => ({ kind: "invite" as const, result }),
  });
}

/**
 * A form of this page whose refusal is answered at its fields with what was typed kept: checked with the contract's
 * schema, then sent; bad input or the backend's refusal is a 4xx with Conform's reply (`answer` says which form it
 * is for), a server failure goes to the error boundary, success back to the page with its flash.
 */
async function answerAtFields<S extends z.ZodType, A>(
  request: Request,
  form: FormData,
  schema: S,
  send: (value: z.output<S>) => Promise<VueapiResult<unknown>>,
  { success, answer }: { success: string; answer: (result: SubmissionResult<string[]>) => A },
) {
  const submission = parseWithZod(form, { schema });
  if (submission.status !== "success") return json(answer(submission.reply()), { status: 400 });
  const result = await send(submission.value);
  if (!result.ok) {
    if (result.status >= 500) throw failureResponse(result);
    return json(answer(replyWithFailure(submission, result)), { status: formFailureStatus(result) });
  }
  return redirectWithFlash(request, PAGE, { kind: "success", key: success });
}

export default function Members() {
  const data = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  return (
    <MembersPage
      {...data}
      limitAnswer={answer?.kind === "spendLimit" ? answer : null}
      inviteAnswer={answer?.kind === "invite" ? answer : null}
    />
  );
}
