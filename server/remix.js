// @ts-check
import { createReadableStreamFromReadable, createRequestHandler } from "@remix-run/node";
import { CLIENT_ADDRESS_HEADER, clientAddressOf } from "./client-address.js";
import { matchRoutes } from "@remix-run/router";

/**
 * Remix behind Express, with Node's own fetch classes (docs/decisions/016). Nothing here installs
 * Remix's fetch polyfill: the Request, Response, Headers and streams are Node's.
 */

/**
 * The header that marks a request from another site's page, rendered as a GET for its 403 page
 * (`crossOriginRefusal`); app/lib/api.server.ts reads it. Never taken from the client.
 */
export const CROSS_ORIGIN_REFUSED = "x-bsn-cross-origin-refused";

const HOST = /^[A-Za-z0-9.-]+(:\d+)?$|^\[[0-9A-Fa-f:.]+\](:\d+)?$/;

/**
 * The Fetch API Request for an incoming request; its signal aborts when the client goes away before the
 * answer has been written. Its CLIENT_ADDRESS_HEADER is the address this server saw, whatever the client
 * sent under that name (docs/decisions/021).
 * @param {import("express").Request} req
 * @param {import("express").Response} res
 * @param {string} [method]
 */
export function toFetchRequest(req, res, method = req.method) {
  // A Host header that is not a host name (with a port) could move the path ("a/b" would make "/b/…").
  const host = req.get("host");
  const url = new URL(`${req.protocol}://${host && HOST.test(host) ? host : "localhost"}${req.originalUrl}`);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name === CROSS_ORIGIN_REFUSED) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  headers.delete(CLIENT_ADDRESS_HEADER);
  const address = clientAddressOf(req);
  if (address) headers.set(CLIENT_ADDRESS_HEADER, address);
  const controller = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  const hasBody = method !== "GET" && method !== "HEAD";
  /** @type {RequestInit & { duplex?: "half" }} */
  const init = { method, headers, signal: controller.signal };
  if (hasBody) {
    init.body = createReadableStreamFromReadable(req);
    init.duplex = "half";
  }
  return new Request(url, init);
}

const PENDING = Symbol("pending");

/**
 * The promise's value if it is already settled (or settles within this turn of the event loop),
 * else PENDING.
 * @template T
 * @param {Promise<T>} promise
 * @returns {Promise<T | typeof PENDING>}
 */
function settledNow(promise) {
  return Promise.race([promise, new Promise((resolve) => setImmediate(resolve, PENDING))]);
}

/** Bodies complete within this many bytes are sent whole, with a Content-Length. */
export const WHOLE_BODY_LIMIT = 64 * 1024;

/**
 * Writes a Fetch API Response to the Node response.
 * - The route's headers replace the server's defaults of the same name (Set-Cookie is appended).
 * - A body that is complete at once (JSON, redirects, small resources) is sent in one piece with a
 *   Content-Length, so the compression middleware can leave small answers alone (its threshold).
 * - A streamed body (a page) is written as it comes; whatever is ready is written together and the
 *   compressor is flushed only when the stream has to wait, so gzip sees large pieces.
 * - When the client goes away, the body stream is cancelled.
 * @param {import("express").Response} res
 * @param {Response} response
 */
export async function sendFetchResponse(res, response) {
  res.statusCode = response.status;
  if (response.statusText) res.statusMessage = response.statusText;
  for (const [name, value] of response.headers) {
    if (name === "set-cookie") res.append(name, value);
    else res.setHeader(name, value);
  }
  if (!response.body) {
    res.end();
    return;
  }

  let closed = false;
  res.once("close", () => (closed = true));
  const reader = response.body.getReader();
  try {
    /** @type {Uint8Array[]} */
    const ready = [];
    let size = 0;
    let next = reader.read();
    for (;;) {
      const result = await settledNow(next);
      if (result === PENDING) break;
      if (result.done) {
        const body = Buffer.concat(ready);
        res.setHeader("Content-Length", body.byteLength);
        res.end(body);
        return;
      }
      ready.push(result.value);
      size += result.value.byteLength;
      next = reader.read();
      if (size >= WHOLE_BODY_LIMIT) break;
    }

    for (const chunk of ready) await write(res, chunk);
    for (;;) {
      let result = await settledNow(next);
      if (result === PENDING) {
        // Nothing more for now: let what was written so far reach the client.
        /** @type {{ flush?: () => void }} */ (/** @type {unknown} */ (res)).flush?.();
        result = await next;
      }
      if (result.done) break;
      if (closed) {
        await reader.cancel().catch(() => undefined);
        return;
      }
      await write(res, result.value);
      next = reader.read();
    }
    res.end();
  } catch (error) {
    // The body failed (its producer threw or was aborted). Before the headers, the error handler
    // answers; after them, the client gets a cut connection rather than a complete-looking answer.
    await reader.cancel().catch(() => undefined);
    if (!res.headersSent) throw error;
    res.destroy();
  }
}

/**
 * Writes one chunk and waits while the client (or the compressor) is not ready for more.
 * @param {import("express").Response} res
 * @param {Uint8Array} chunk
 */
function write(res, chunk) {
  if (res.write(chunk) || res.destroyed) return undefined;
  return new Promise((resolve) => {
    let done = false;
    const resume = () => {
      if (done) return;
      done = true;
      // Both go: a drain listener left behind would pile up on a long stream (one per wait).
      res.off("drain", resume);
      res.off("close", resume);
      resolve(undefined);
    };
    res.on("drain", resume);
    res.on("close", resume);
  });
}

/**
 * Express middleware serving the Remix build.
 * @param {{
 *   build: import("@remix-run/node").ServerBuild;
 *   mode: string;
 *   getLoadContext?: (req: import("express").Request, res: import("express").Response) => import("@remix-run/node").AppLoadContext;
 * }} options
 * @returns {import("express").RequestHandler}
 */
export function remixHandler({ build, mode, getLoadContext }) {
  const handle = createRequestHandler(build, mode);
  const routes = routeTree(build.routes);
  return async (req, res, next) => {
    try {
      const context = getLoadContext?.(req, res);
      const response =
        UNSAFE_METHODS.has(req.method) && isCrossOrigin(req) && !isResourceRequest(routes, req)
          ? await crossOriginRefusal(req, res, handle, context)
          : await handle(toFetchRequest(req, res), context);
      await sendFetchResponse(res, response);
    } catch (error) {
      next(error);
    }
  };
}

/**
 * The build's routes as the tree Remix matches addresses against (each route under its parent).
 * @param {import("@remix-run/node").ServerBuild["routes"]} routes
 * @param {string} [parentId]
 * @returns {import("@remix-run/router").AgnosticRouteObject[]}
 */
function routeTree(routes, parentId = "") {
  const tree = Object.values(routes)
    .filter((route) => (route.parentId || "") === parentId)
    .map((route) => ({ ...route, children: routeTree(routes, route.id) }));
  // As Remix builds it: an index route gets an empty list of children too.
  return /** @type {import("@remix-run/router").AgnosticRouteObject[]} */ (/** @type {unknown} */ (tree));
}

/**
 * A request for a resource route (no page: /vueapi, downloads, the door of the domains' endpoints), which
 * Remix does not check for the origin and which guards itself (a token, a signature, the session).
 * Decided as Remix decides it: not a data request, and the deepest matching route has no component.
 * @param {import("@remix-run/router").AgnosticRouteObject[]} routes
 * @param {import("express").Request} req
 */
function isResourceRequest(routes, req) {
  const url = new URL(req.originalUrl, "http://localhost");
  if (url.searchParams.has("_data")) return false;
  const matches = matchRoutes(routes, url.pathname);
  const deepest = /** @type {{ module?: { default?: unknown; ErrorBoundary?: unknown } } | undefined} */ (
    matches?.at(-1)?.route
  );
  return !!deepest && deepest.module?.default == null && deepest.module?.ErrorBoundary == null;
}

/** The methods whose requests change something: a browser's Origin must be this site's (Remix's rule). */
const UNSAFE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Whether a request comes from a page of another site (docs/decisions/024): its Origin header names
 * another host than the one it was sent to (X-Forwarded-Host when a proxy set it, else Host). No Origin
 * (a server-to-server call, an old browser) is not cross-origin; "null" (a sandboxed or privacy-hidden
 * page) and a malformed Origin are.
 * @param {import("express").Request} req
 */
export function isCrossOrigin(req) {
  const origin = req.get("origin");
  if (!origin) return false;
  let originHost;
  try {
    originHost = new URL(origin).host;
  } catch {
    return true;
  }
  const host = req.get("x-forwarded-host")?.split(",")[0]?.trim() || req.get("host");
  return !originHost || !host || originHost !== host;
}

/**
 * The answer to a request from another site's page: 403, and the action never runs. Remix itself would
 * refuse it with an empty 500; here the page of the same address is rendered as a GET marked with the
 * CROSS_ORIGIN_REFUSED header, which makes the root loader and every guard (app/lib/api.server.ts) throw
 * the 403 that the error boundary shows, translated. A Remix data request (JavaScript's fetch, `_data`)
 * gets the same 403 as a thrown Response. Resource routes are left to guard themselves (isResourceRequest).
 * @param {import("express").Request} req
 * @param {import("express").Response} res
 * @param {(request: Request, context?: import("@remix-run/node").AppLoadContext) => Promise<Response>} handle
 * @param {import("@remix-run/node").AppLoadContext | undefined} context
 * @returns {Promise<Response>}
 */
async function crossOriginRefusal(req, res, handle, context) {
  const refused = new Response(JSON.stringify({ messageKey: "errors:http.403" }), {
    status: 403,
    headers: { "Content-Type": "application/json; charset=utf-8", "X-Remix-Catch": "yes", "Cache-Control": "no-store" },
  });
  const url = new URL(req.originalUrl, "http://localhost");
  if (url.searchParams.has("_data")) return refused;
  const request = toFetchRequest(req, res, "GET");
  request.headers.set(CROSS_ORIGIN_REFUSED, "1");
  request.headers.delete("content-length");
  const page = await handle(request, context);
  if (page.status === 403 && page.headers.get("content-type")?.startsWith("text/html")) return page;
  // A loader that answered before asking who the viewer is (a redirect): still no action, still a 403.
  await page.body?.cancel();
  return new Response("Forbidden: this form was sent from another site.", {
    status: 403,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}
