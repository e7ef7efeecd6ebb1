import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiFor, notFound, requireOperator } from "~/lib/api.server";
import { positiveId } from "~/lib/params";
import { attachmentResponse } from "~/lib/support.server";

/** Operations: the attachment of any ticket. */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireOperator(request);
  const ticketId = positiveId(new URL(request.url).searchParams.get("ticketId"));
  if (!ticketId) throw notFound();
  return attachmentResponse(await apiFor(request, viewer).load("/sys/ops/tickets/file", { ticketId }));
}
