/**
 * A file the backend answered on its download path (docs/decisions/053) as the portal's response: its
 * status (200, 206, 304, 416) and the headers that describe the bytes passed on, the body streamed through
 * as it arrives. `headers` are the route's own (its caching, a checked type); `no-transform` (the default
 * caching's, and added to a range's) keeps a compressing proxy (or this server's compression) from changing
 * bytes a Range counts.
 */
const PASSED = ["Content-Type", "Content-Length", "Content-Range", "Accept-Ranges", "ETag", "Content-Disposition"];

export function fileResponse(answer: Response, headers: Record<string, string> = {}): Response {
  const out = new Headers();
  for (const name of PASSED) {
    const value = answer.headers.get(name);
    if (value) out.set(name, value);
  }
  // Decoded by fetch on the way here (VUEAPI_URL): its length is no longer the encoded one.
  if (answer.headers.get("Content-Encoding")) out.delete("Content-Length");
  out.set("X-Content-Type-Options", "nosniff");
  for (const [name, value] of Object.entries(headers)) out.set(name, value);
  // The route's own caching as it says it; by default, and always for a range, no-transform too.
  const cache = out.get("Cache-Control");
  if (!cache) out.set("Cache-Control", "private, no-cache, no-transform");
  else if (answer.status === 206 && !/no-transform/.test(cache)) out.set("Cache-Control", `${cache}, no-transform`);
  if (answer.status === 304 || answer.status === 416) {
    out.delete("Content-Disposition");
    if (answer.status === 304) out.delete("Content-Length");
  }
  return new Response(answer.status === 304 ? null : answer.body, { status: answer.status, headers: out });
}
