import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { MembersPage } from "#app/components/team/MembersPage.tsx";
import { apiFor, badRequest, redirectAfter, requireUser } from "#app/lib/api.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";
import { positiveParam } from "#app/lib/params.ts";
import { teamIntent } from "#app/lib/team.server.ts";

export const handle = { i18n: ["common"], breadcrumb: [{ key: "menu.userCenter" }, { key: "menu.members" }] };
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
    removing: positiveParam(url.searchParams.get("remove")),
    transferring: positiveParam(url.searchParams.get("transfer")),
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const api = apiFor(request, viewer);
  const form = await request.formData();
  const call = teamIntent(api, form);
  if (!call) throw badRequest();
  const result = await call.run();
  return redirectAfter(request, result, PAGE, call.success);
}

export default function Members() {
  const data = useLoaderData<typeof loader>();
  return <MembersPage {...data} />;
}
