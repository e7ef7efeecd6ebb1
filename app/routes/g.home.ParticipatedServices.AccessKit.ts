import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiFor, failureResponse, notFound, requireUser } from "#app/lib/api.server.ts";
import { fileResponse } from "#app/lib/downloads.server.ts";
import { positiveParam } from "#app/lib/params.ts";

/**
 * The participant's access kit as a zip (resource route; issue 28 item 7, docs/decisions/070): a plain GET link on
 * the Access page, so it works without JavaScript. Only the participant themself gets it: anyone else's id is a 404.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const appJoinAuditId = positiveParam(new URL(request.url).searchParams.get("appJoinAuditId"));
  if (!appJoinAuditId) throw notFound();
  const result = await apiFor(request, viewer).download("participant-access-kit", { appJoinAuditId });
  if (!result.ok) throw failureResponse(result);
  return fileResponse(result.data, { "Cache-Control": "no-store" });
}
