import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiFor, getViewer } from "#app/lib/api.server.ts";
import { positiveParam } from "#app/lib/params.ts";

/** A partner's logo (?id=N), an image the operators uploaded (png or jpeg by its bytes): public. */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await getViewer(request);
  const partnerId = positiveParam(new URL(request.url).searchParams.get("id"));
  if (partnerId === null) return new Response("Not found", { status: 404 });
  const result = await apiFor(request, viewer).call("/anon/community/partnerLogo", { partnerId });
  if (!result.ok) return new Response("Not found", { status: result.status >= 500 ? 502 : 404 });
  const bytes = Buffer.from(result.data.dataBase64, "base64");
  return new Response(bytes, {
    headers: {
      "Content-Type": result.data.mime === "image/jpeg" ? "image/jpeg" : "image/png",
      "Content-Length": String(bytes.byteLength),
      "Cache-Control": "public, max-age=300",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
