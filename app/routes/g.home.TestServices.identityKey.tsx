import type { ActionFunctionArgs } from "@remix-run/node";
import { apiFor, failureResponse, notFound, requireUser } from "#app/lib/api.server.ts";
import { positiveParam } from "#app/lib/params.ts";

/**
 * The test identity's private key (resource route, no page; docs/decisions/034): a POST, so that no link,
 * prefetch or cache holds it, answered as a PEM file. The backend checks that the service is the viewer's.
 */
export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const form = await request.formData();
  const testServiceId = positiveParam(String(form.get("testServiceId") ?? ""));
  if (!testServiceId) throw notFound();
  const result = await apiFor(request, viewer).call("/sys/testService/identityKey", { testServiceId });
  if (!result.ok) throw failureResponse(result);
  return new Response(result.data.pem, {
    headers: {
      "Content-Type": "application/x-pem-file; charset=utf-8",
      "Content-Disposition": `attachment; filename="${result.data.fileName.replace(/[^A-Za-z0-9._-]/g, "_")}"`,
      "Cache-Control": "no-store",
    },
  });
}
