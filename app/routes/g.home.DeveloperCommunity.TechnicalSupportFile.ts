import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiFor, notFound, requireUser } from "#app/lib/api.server.ts";
import { positiveId } from "#app/lib/params.ts";
import { attachmentResponse } from "#app/lib/support.server.ts";

/** The attachment of one of my tickets (another user's ticket is not found: the backend looks it up with its owner). */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const ticketId = positiveId(new URL(request.url).searchParams.get("ticketId"));
  if (!ticketId) throw notFound();
  return attachmentResponse(await apiFor(request, viewer).download("support-attachment", { ticketId }));
}
