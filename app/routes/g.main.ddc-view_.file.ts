import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiFor, getViewer } from "#app/lib/api.server.ts";
import { ddcIdParam, passFor } from "#app/lib/ddc.server.ts";

/** Only what a DDC's file may be (contract/ddc-codes.ts DDC_FILE_TYPES, checked by content at upload). */
const SAFE_TYPES = new Set(["image/png", "image/jpeg", "application/pdf", "text/plain"]);

/**
 * The file of a DDC (ddc-view's image and download; public, behind the QR-code password like the page): from the
 * owner's IPFS service or the product's storage, served with its checked type, never as active content.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await getViewer(request);
  const ddcId = ddcIdParam(request);
  const result = await apiFor(request, viewer).call("/anon/ddc/file", { ddcId, pass: await passFor(request, ddcId) });
  if (!result.ok)
    return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  const bytes = Buffer.from(result.data.dataBase64, "base64");
  const mime = SAFE_TYPES.has(result.data.mime) ? result.data.mime : "application/octet-stream";
  return new Response(bytes, {
    headers: {
      "Content-Type": mime === "text/plain" ? "text/plain; charset=utf-8" : mime,
      "Content-Length": String(bytes.byteLength),
      "Content-Disposition": `${mime === "application/octet-stream" ? "attachment" : "inline"}; filename*=UTF-8''${encodeURIComponent(result.data.name)}`,
      "Cache-Control": "private, no-cache",
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "sandbox; default-src 'none'; img-src 'self'",
    },
  });
}
