import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { attachmentResponse, ticketIdParam } from "#app/lib/support.server.ts";

/** The attachment of one of my tickets (another user's ticket is not found: the backend looks it up with its owner). */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const ticketId = ticketIdParam(new URL(request.url));
  return attachmentResponse(await apiFor(request, viewer).download("support-attachment", { ticketId }));
}
