import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { fileResponse } from "#app/lib/downloads.server.ts";
import { positiveParam } from "#app/lib/params.ts";

/**
 * A cover image of a listed service or product (or of the caller's own product), as an image response:
 * the backend answers the bytes only for what the caller may see.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const url = new URL(request.url);
  const kind = url.searchParams.get("kind");
  const id = positiveParam(url.searchParams.get("id"));
  if ((kind !== "app" && kind !== "product") || id === null) return new Response("Not found", { status: 404 });
  const result = await apiFor(request, viewer).download("store-cover", { kind, id });
  if (!result.ok) return new Response("Not found", { status: 404 });
  return fileResponse(result.data, {
    "Content-Type": result.data.headers.get("Content-Type") === "image/jpeg" ? "image/jpeg" : "image/png",
    "Cache-Control": "private, max-age=300",
  });
}
