import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiFor, notFound, requireOperator } from "#app/lib/api.server.ts";
import { positiveId } from "#app/lib/params.ts";
import { attachmentResponse } from "#app/lib/support.server.ts";

/** Operations: the attachment of any ticket. */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireOperator(request);
  const ticketId = positiveId(new URL(request.url).searchParams.get("ticketId"));
  if (!ticketId) throw notFound();
  return attachmentResponse(await apiFor(request, viewer).download("ops-ticket-attachment", { ticketId }));
}
