import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiFor, failureResponse, notFound, requireUser } from "#app/lib/api.server.ts";
import { positiveParam } from "#app/lib/params.ts";

/** A chaincode market package as a zip (resource route; issue 15): each download is counted by the backend. */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const marketPackageId = positiveParam(new URL(request.url).searchParams.get("marketPackageId"));
  if (!marketPackageId) throw notFound();
  const result = await apiFor(request, viewer).call("/sys/market/download", { marketPackageId });
  if (!result.ok) throw failureResponse(result);
  return new Response(Buffer.from(result.data.dataBase64, "base64"), {
    headers: {
      "Content-Type": result.data.mime,
      "Content-Disposition": `attachment; filename="${result.data.fileName.replace(/[^A-Za-z0-9._-]/g, "_")}"`,
      "Cache-Control": "no-store",
    },
  });
}
