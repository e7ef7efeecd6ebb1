import { type LoaderFunctionArgs } from "@remix-run/node";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { safeReturnTo } from "#app/lib/blocked.ts";
import { positiveParam } from "#app/lib/params.ts";
import { redirectWithFlash } from "#app/lib/session.server.ts";

/**
 * The account switcher's link (issue 33, docs/decisions/075): the session acts for that account from the next
 * request on, if the login is (still) its member; then the console's overview, which is every role's, or the console
 * page `returnTo` names (a message's mail links the account's Message center through here, docs/decisions/085).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const url = new URL(request.url);
  const accountId = positiveParam(url.searchParams.get("accountId"));
  if (!accountId) return redirectWithFlash(request, "/g/home/index", { kind: "error", key: "errors:MSG_33017" });
  const result = await apiFor(request, viewer).call("/main/team/switch", { teamAccountId: accountId });
  if (!result.ok) return redirectWithFlash(request, "/g/home/index", { kind: "error", key: result.messageKey });
  return redirectWithFlash(request, safeReturnTo(url.searchParams.get("returnTo")) ?? "/g/home/index", {
    kind: "success",
    key: "common:team.switched",
    params: { name: result.data.name },
  });
}
