import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiFor, failureResponse, notFound, requireUser } from "#app/lib/api.server.ts";
import { fileResponse } from "#app/lib/downloads.server.ts";
import { positiveParam } from "#app/lib/params.ts";

/**
 * The service's CA certificate as a PEM attachment (resource route; docs/decisions/068): a plain GET link near
 * "Deployment per node" on the publisher's service page, so it works without JavaScript, for a connected Fabric
 * network's admin to add to the service's channel. Only the service's publisher gets it: anyone else's id is a 404.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const appId = positiveParam(new URL(request.url).searchParams.get("appId"));
  if (!appId) throw notFound();
  const result = await apiFor(request, viewer).download("service-ca-certificate", { appId });
  if (!result.ok) throw failureResponse(result);
  return fileResponse(result.data, { "Cache-Control": "no-store" });
}
