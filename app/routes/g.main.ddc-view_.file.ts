import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiFor, getViewer } from "#app/lib/api.server.ts";
import { ddcIdParam, passFor } from "#app/lib/ddc.server.ts";
import { fileResponse } from "#app/lib/downloads.server.ts";

/** Only what a DDC's file may be (contract/ddc-codes.ts DDC_FILE_TYPES, checked by content at upload). */
const SAFE_TYPES = new Set(["image/png", "image/jpeg", "application/pdf", "text/plain"]);

/**
 * The file of a DDC (ddc-view's image and download; public, behind the QR-code password like the page): from the
 * owner's IPFS service or the product's storage, served with its checked type, never as active content.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await getViewer(request);
  const ddcId = ddcIdParam(request);
  const result = await apiFor(request, viewer).download("ddc-file", { ddcId, pass: await passFor(request, ddcId) });
  if (!result.ok)
    return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  const declared = (result.data.headers.get("Content-Type") ?? "").split(";")[0]!.trim();
  const mime = SAFE_TYPES.has(declared) ? declared : "application/octet-stream";
  // The backend names the file inline; what is not one of the safe types is only ever saved.
  const disposition = result.data.headers.get("Content-Disposition") ?? "inline";
  return fileResponse(result.data, {
    "Content-Type": mime === "text/plain" ? "text/plain; charset=utf-8" : mime,
    "Content-Disposition":
      mime === "application/octet-stream" ? disposition.replace(/^inline/, "attachment") : disposition,
    "Cache-Control": "private, no-cache",
    "Content-Security-Policy": "sandbox; default-src 'none'; img-src 'self'",
  });
}
