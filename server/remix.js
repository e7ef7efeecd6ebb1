// @ts-check
import { createReadableStreamFromReadable, createRequestHandler } from "@remix-run/node";

/**
 * Remix behind Express, with Node's own fetch classes (docs/decisions/016). Nothing here installs
 * Remix's fetch polyfill: the Request, Response, Headers and streams are Node's.
 */

const HOST = /^[A-Za-z0-9.-]+(:\d+)?$|^\[[0-9A-Fa-f:.]+\](:\d+)?$/;

/**
 * The header that carries the client's address to the portal and on to the /vueapi service (the audit log
 * records it: docs/decisions/022; backend/kit/audit.ts reads it). Always set here from the connection
 * (Express's req.ip), so a client cannot choose what it says.
 */
export const CLIENT_ADDRESS_HEADER = "x-client-address";

/**
 * The Fetch API Request for an incoming request; its signal aborts when the client goes away before the
 * answer has been written.
 * @param {import("express").Request} req
 * @param {import("express").Response} res
 */
export function toFetchRequest(req, res) {
  // A Host header that is not a host name (with a port) could move the path ("a/b" would make "/b/…").
  const host = req.get("host");
  const url = new URL(`${req.protocol}://${host && HOST.test(host) ? host : "localhost"}${req.originalUrl}`);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name === CLIENT_ADDRESS_HEADER) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  const address = req.ip ?? req.socket.remoteAddress;
  if (address) headers.set(CLIENT_ADDRESS_HEADER, address.replace(/^::ffff:/, ""));
  const controller = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  /** @type {RequestInit & { duplex?: "half" }} */
  const init = { method: req.method, headers, signal: controller.signal };
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
  return async (req, res, next) => {
    try {
      const response = await handle(toFetchRequest(req, res), getLoadContext?.(req, res));
      await sendFetchResponse(res, response);
    } catch (error) {
      next(error);
    }
  };
}
