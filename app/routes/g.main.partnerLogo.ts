import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiFor, getViewer } from "#app/lib/api.server.ts";
import { fileResponse } from "#app/lib/downloads.server.ts";
import { positiveParam } from "#app/lib/params.ts";

/** A partner's logo (?id=N), an image the operators uploaded (png or jpeg by its bytes): public. */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await getViewer(request);
  const partnerId = positiveParam(new URL(request.url).searchParams.get("id"));
  if (partnerId === null) return new Response("Not found", { status: 404 });
  const result = await apiFor(request, viewer).download("partner-logo", { partnerId });
  if (!result.ok) return new Response("Not found", { status: result.status >= 500 ? 502 : 404 });
  return fileResponse(result.data, {
    "Content-Type": result.data.headers.get("Content-Type") === "image/jpeg" ? "image/jpeg" : "image/png",
    "Cache-Control": "public, max-age=300",
  });
}
