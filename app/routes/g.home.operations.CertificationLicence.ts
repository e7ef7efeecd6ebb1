import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiFor, notFound, requireOperator } from "#app/lib/api.server.ts";
import { positiveId } from "#app/lib/params.ts";
import { attachmentResponse } from "#app/lib/support.server.ts";

/** Operations: the business licence an enterprise account uploaded for its certification (docs/decisions/071). */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireOperator(request);
  const userId = positiveId(new URL(request.url).searchParams.get("userId"));
  if (!userId) throw notFound();
  return attachmentResponse(await apiFor(request, viewer).download("ops-certification-licence", { userId }));
}
