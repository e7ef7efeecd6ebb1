/**
 * A file the backend answered on its download path (docs/decisions/053) as the portal's response: its
 * status (200, 206, 304, 416) and the headers that describe the bytes passed on, the body streamed through
 * as it arrives. `headers` are the route's own (its caching, a checked type); `no-transform` keeps a
 * compressing proxy (or this server's compression) from changing bytes a Range counts.
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
  out.set("Cache-Control", `${out.get("Cache-Control") ?? "private, no-cache"}, no-transform`);
  if (answer.status === 304 || answer.status === 416) {
    out.delete("Content-Disposition");
    if (answer.status === 304) out.delete("Content-Length");
  }
  return new Response(answer.status === 304 ? null : answer.body, { status: answer.status, headers: out });
}
