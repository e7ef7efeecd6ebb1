/**
 * Request bodies read with a byte limit (docs/decisions/023). Content-Length is only a first answer: a
 * body is counted while it streams in and reading stops at the first byte past the limit, so a body
 * that lies about its length (or has none, chunked) costs at most the limit in memory.
 */

/** The body went past its limit (or declared that it would). */
export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`request body larger than ${limit} bytes`);
    this.name = "BodyTooLargeError";
  }
}

/** Content-Length, when the request gives a valid one. */
export function declaredLength(request: Request): number | null {
  const raw = request.headers.get("Content-Length");
  if (raw === null || !/^\d{1,16}$/.test(raw.trim())) return null;
  return Number(raw.trim());
}

/** The request says beforehand that its body is larger than `limit`. */
export function declaresMoreThan(request: Request, limit: number): boolean {
  const length = declaredLength(request);
  return length !== null && length > limit;
}

/**
 * A stream passing on at most `limit` bytes of `source`. The chunk that goes past the limit is not
 * passed on: the stream errors with BodyTooLargeError instead, and `source` is left unread from there
 * (see `discardRest` for what to do with it).
 */
export function limitStream(
  source: ReadableStream<Uint8Array>,
  limit: number,
  onExceeded?: () => void,
): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  let seen = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) return controller.close();
      seen += value.byteLength;
      if (seen > limit) {
        reader.releaseLock();
        onExceeded?.();
        return controller.error(new BodyTooLargeError(limit));
      }
      controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

/**
 * The request with its body limited to `limit` bytes; `exceeded()` tells afterwards whether the limit is
 * what stopped a reader (a handler may catch the error and answer something else: the caller still knows).
 * `rest` is the unread remainder of the original body once the limit stopped it.
 */
export function limitRequest(
  request: Request,
  limit: number,
): { request: Request; exceeded: () => boolean; rest: () => ReadableStream<Uint8Array> | null } {
  if (!request.body) return { request, exceeded: () => false, rest: () => null };
  let exceeded = false;
  const body = request.body;
  const limited = limitStream(body, limit, () => (exceeded = true));
  const init: RequestInit & { duplex: "half" } = {
    method: request.method,
    headers: request.headers,
    body: limited,
    signal: request.signal,
    duplex: "half",
  };
  return { request: new Request(request.url, init), exceeded: () => exceeded, rest: () => (exceeded ? body : null) };
}

/** How much of a refused body is still read (and thrown away) so that the answer reaches the client. */
export const DISCARD_LIMITS = { bytes: 256 * 1024 * 1024, ms: 15_000 };

/**
 * Reads what is left of a refused body and throws it away, in the background, up to DISCARD_LIMITS; then
 * cancels it. A server socket closed with unread data is reset, and a reset can lose the answer (413)
 * before the client reads it: draining lets the answer arrive, without keeping any of the bytes.
 */
export function discardRest(stream: ReadableStream<Uint8Array> | null, limits = DISCARD_LIMITS): void {
  if (!stream || stream.locked) return;
  const reader = stream.getReader();
  const deadline = Date.now() + limits.ms;
  let bytes = 0;
  void (async () => {
    try {
      for (;;) {
        if (bytes > limits.bytes || Date.now() > deadline) {
          await reader.cancel();
          return;
        }
        const { done, value } = await reader.read();
        if (done) return;
        bytes += value.byteLength;
      }
    } catch {
      // The client went away: nothing left to drain.
    }
  })();
}

/**
 * The whole body, at most `limit` bytes: refused at once when Content-Length says more, else counted while
 * it arrives and refused at the first byte past the limit. Throws BodyTooLargeError; the rest of the body
 * is drained in the background (`discardRest`).
 */
export async function readLimited(
  request: Request,
  limit: number,
  discard = DISCARD_LIMITS,
): Promise<Uint8Array<ArrayBuffer>> {
  if (!request.body) return new Uint8Array(0);
  if (declaresMoreThan(request, limit)) {
    discardRest(request.body, discard);
    throw new BodyTooLargeError(limit);
  }
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      reader.releaseLock();
      discardRest(request.body, discard);
      throw new BodyTooLargeError(limit);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
