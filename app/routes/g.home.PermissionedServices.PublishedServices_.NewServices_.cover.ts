import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiFor, failureResponse, requireUser } from "#app/lib/api.server.ts";
import { fileResponse } from "#app/lib/downloads.server.ts";
import { positiveParam } from "#app/lib/params.ts";

/**
 * The cover of the publisher's own service, for the wizard's basic step (SPEC §2 Service wizard): served
 * here rather than inside the page, so a cover of up to 5 MB never travels with every step's HTML. Another
 * user's service, or one without a cover, is a 404. Cached privately and revalidated each time (the
 * backend's ETag names the cover's file, which a new upload replaces), so a 304 costs an ownership check
 * and no bytes (docs/decisions/053).
 */
export async function loader({ request: incoming }: LoaderFunctionArgs) {
  const viewer = await requireUser(incoming);
  // The page's ETags are "cover-<file>"; the backend's download names the same file "file-<file>".
  const request = withTags(incoming, (tag) => tag.replace(/^((?:W\/)?")cover-/, "$1file-"));
  const appId = positiveParam(new URL(request.url).searchParams.get("appId"));
  const notFound = () =>
    new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  if (!appId) return notFound();
  const result = await apiFor(request, viewer).download("wizard-cover", { appId });
  if (!result.ok) return result.messageKey === "errors:MSG_10002" ? notFound() : failureResponse(result);
  const type = result.data.headers.get("Content-Type") === "image/jpeg" ? "image/jpeg" : "image/png";
  const etag = result.data.headers.get("ETag")?.replace(/^"file-/, '"cover-');
  return fileResponse(result.data, {
    "Content-Type": type,
    "Cache-Control": "private, no-cache",
    ...(etag ? { ETag: etag } : {}),
  });
}

/** The request with each tag of its If-None-Match mapped. */
function withTags(request: Request, map: (tag: string) => string): Request {
  const tags = request.headers.get("If-None-Match");
  if (!tags) return request;
  const headers = new Headers(request.headers);
  headers.set(
    "If-None-Match",
    tags
      .split(",")
      .map((t) => map(t.trim()))
      .join(", "),
  );
  return new Request(request, { headers });
}
