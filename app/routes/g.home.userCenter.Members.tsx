import { parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { inviteSchema, spendLimitSchema } from "#contract/team.ts";
import { MembersPage } from "#app/components/team/MembersPage.tsx";
import { apiFor, badRequest, redirectAfter, requireUser } from "#app/lib/api.server.ts";
import { replyWithFailure } from "#app/lib/forms.server.ts";
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
 * `?transfer=<id>` ask to confirm, with and without JavaScript.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const url = new URL(request.url);
  const team = await apiFor(request, viewer).load("/sys/team/members", {});
  return json({
    team,
    language: viewer.language,
    removing: positiveParam(url.searchParams.get("remove")),
    transferring: positiveParam(url.searchParams.get("transfer")),
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
  return redirectAfter(request, result, PAGE, call.success);
}

/** A member's spending limit (ADR 080): bad input answers at its field with what was typed. */
async function saveSpendLimit(request: Request, api: ReturnType<typeof apiFor>, form: FormData) {
  const submission = parseWithZod(form, { schema: spendLimitSchema });
  const memberId = Number(form.get("memberId"));
  if (!Number.isInteger(memberId) || memberId <= 0) throw badRequest();
  if (submission.status !== "success")
    return json({ kind: "spendLimit" as const, memberId, result: submission.reply() }, { status: 400 });
  const result = await api.call("/sys/team/spendLimit", submission.value);
  if (!result.ok) {
    if (result.status >= 500) return redirectAfter(request, result, PAGE, "");
    return json(
      { kind: "spendLimit" as const, memberId, result: replyWithFailure(submission, result) },
      { status: 400 },
    );
  }
  return redirectWithFlash(request, PAGE, { kind: "success", key: "common:team.spendLimit.saved" });
}

/** An invitation (issue 33): a refused email or role answers at its field with what was typed kept. */
async function sendInvitation(request: Request, api: ReturnType<typeof apiFor>, form: FormData) {
  const submission = parseWithZod(form, { schema: inviteSchema });
  if (submission.status !== "success")
    return json({ kind: "invite" as const, result: submission.reply() }, { status: 400 });
  const result = await api.call("/sys/team/invite", submission.value);
  if (!result.ok) {
    if (result.status >= 500) return redirectAfter(request, result, PAGE, "");
    return json({ kind: "invite" as const, result: replyWithFailure(submission, result) }, { status: 400 });
  }
  return redirectWithFlash(request, PAGE, { kind: "success", key: "common:team.invited" });
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
