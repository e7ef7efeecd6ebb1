import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiFor, failureResponse, requireUser } from "#app/lib/api.server.ts";
import { positiveParam } from "#app/lib/params.ts";

const etagOf = (fileId: number) => `"cover-${fileId}"`;

/** The cover file the browser says it has (If-None-Match holds one of our ETags). */
function knownFileId(request: Request): number | undefined {
  for (const tag of (request.headers.get("If-None-Match") ?? "").split(",")) {
    const match = /^\s*(?:W\/)?"cover-([1-9][0-9]{0,9})"\s*$/.exec(tag);
    if (match) return Number(match[1]);
  }
  return undefined;
}

/**
 * The cover of the publisher's own service, for the wizard's basic step (SPEC §2 Service wizard): served
 * here rather than inside the page, so a cover of up to 5 MB never travels with every step's HTML. Another
 * user's service, or one without a cover, is a 404. Cached privately and revalidated each time (ETag: the
 * cover's file, which a new upload replaces), so a 304 costs an ownership check and no bytes.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const appId = positiveParam(new URL(request.url).searchParams.get("appId"));
  const notFound = () =>
    new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  if (!appId) return notFound();
  const result = await apiFor(request, viewer).call("/sys/chainAppInfo/wizard/cover", {
    appId,
    knownFileId: knownFileId(request),
  });
  if (!result.ok) return result.messageKey === "errors:MSG_10002" ? notFound() : failureResponse(result);
  const { fileId, file } = result.data;
  const headers = new Headers({
    ETag: etagOf(fileId),
    "Cache-Control": "private, no-cache",
    "X-Content-Type-Options": "nosniff",
  });
  if (!file) return new Response(null, { status: 304, headers });
  const bytes = Buffer.from(file.dataBase64, "base64");
  headers.set("Content-Type", file.mime === "image/jpeg" ? "image/jpeg" : "image/png");
  headers.set("Content-Length", String(bytes.byteLength));
  return new Response(bytes, { headers });
}
