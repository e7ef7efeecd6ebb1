import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiFor, failureResponse, notFound, requireUser } from "#app/lib/api.server.ts";
import { fileResponse } from "#app/lib/downloads.server.ts";
import { positiveParam } from "#app/lib/params.ts";

/** A chaincode market package as a zip (resource route; issue 15): each download is counted by the backend. */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const marketPackageId = positiveParam(new URL(request.url).searchParams.get("marketPackageId"));
  if (!marketPackageId) throw notFound();
  const result = await apiFor(request, viewer).download("market-package", { marketPackageId });
  if (!result.ok) throw failureResponse(result);
  return fileResponse(result.data, { "Cache-Control": "no-store" });
}
