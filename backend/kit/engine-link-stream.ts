import { createHash, createHmac, timingSafeEqual, type Hash } from "node:crypto";

/**
 * The signatures of the engine link's calls (./engine-link.ts, docs/decisions/095, 098), JSON and streamed alike.
 *
 * A JSON call's body is whole before it is sent: its headers carry HMAC(time, nonce, path, SHA-256 of the body).
 * A streamed body (an IPFS upload, a download's bytes) cannot be hashed before it is sent, and must not be held in
 * memory to be, so a streamed call is signed in two parts, both under the same time and nonce:
 * - its headers: HMAC(time, nonce, path, "stream"), checked (with the replay window and the nonce cache) before
 *   anything of the body is read — `Expect: 100-continue` keeps the caller from sending it until then;
 * - its body, followed by a footer of 32 bytes: HMAC(time, nonce, path, "body " + SHA-256 of the bytes before it).
 *   The receiver hands the bytes on as they come, holding the last 32 back, and throws at the end (before the
 *   consumer sees the end) when the footer does not verify: an IPFS add pins nothing until then.
 * The holder's streamed answer ends with a footer too, HMAC(time, nonce, path, "reply " + SHA-256), keyed by the key
 * that verified the call, so the caller knows the bytes came whole from a holder of the deployment, for this call.
 * A footer in the body rather than an HTTP trailer: proxies in front of ENGINE_URL pass bodies, not always trailers.
 */

/** The HMAC of one signed field set; `digest` is a body's SHA-256 in hex, or "stream", or "body …"/"reply …". */
export function linkMac(key: Buffer, time: string, nonce: string, path: string, digest: string): Buffer {
  return createHmac("sha256", key).update(`${time}\n${nonce}\n${path}\n${digest}`).digest();
}

/** What a streamed call's headers sign in place of the body's digest. */
export const STREAM_MARK = "stream";
/** The length of a streamed body's footer (an HMAC-SHA256). */
export const FOOTER_BYTES = 32;

export type StreamSignature = { key: Buffer; time: string; nonce: string; path: string };
export type Direction = "body" | "reply";

/** The bytes of a streamed body or reply that did not come whole or as signed: the call is refused. */
export class LinkBodyRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "LinkBodyRefusedError";
  }
}

/** `source` followed by its footer: what the sender writes. */
export async function* withFooter(
  signed: StreamSignature,
  direction: Direction,
  source: AsyncIterable<Uint8Array> | null,
): AsyncGenerator<Uint8Array> {
  const hash = createHash("sha256");
  if (source)
    for await (const chunk of source) {
      if (!chunk.byteLength) continue;
      hash.update(chunk);
      yield chunk;
    }
  yield footerOf(signed, direction, hash);
}

function footerOf(signed: StreamSignature, direction: Direction, hash: Hash): Buffer {
  return linkMac(signed.key, signed.time, signed.nonce, signed.path, `${direction} ${hash.digest("hex")}`);
}

/**
 * The bytes of `source` without its footer, handed on as they arrive (the last 32 bytes held back); at the end, a
 * LinkBodyRefusedError unless the footer is the sender's signature of exactly those bytes. `cut` turns an error
 * of the connection itself (reset, closed early) into the caller's own.
 */
export async function* verifiedStream(
  signed: StreamSignature,
  direction: Direction,
  source: AsyncIterable<Uint8Array>,
  cut: (error: unknown) => unknown = (error) => error,
): AsyncGenerator<Uint8Array> {
  const hash = createHash("sha256");
  let held: Uint8Array = new Uint8Array(0);
  const iterator = source[Symbol.asyncIterator]();
  for (;;) {
    let next: IteratorResult<Uint8Array>;
    try {
      next = await iterator.next();
    } catch (error) {
      throw cut(error);
    }
    if (next.done) break;
    const chunk = next.value;
    if (!chunk.byteLength) continue;
    if (held.byteLength + chunk.byteLength <= FOOTER_BYTES) {
      held = Buffer.concat([held, chunk]);
      continue;
    }
    // Everything but the last 32 bytes of (held + chunk) is body.
    const keep = Math.min(FOOTER_BYTES, chunk.byteLength);
    const release = held.byteLength - (FOOTER_BYTES - keep);
    const out: Uint8Array[] = [];
    if (release > 0) out.push(held.subarray(0, release));
    if (chunk.byteLength > keep) out.push(chunk.subarray(0, chunk.byteLength - keep));
    held = Buffer.concat([held.subarray(Math.max(0, release)), chunk.subarray(chunk.byteLength - keep)]);
    for (const part of out) {
      hash.update(part);
      yield part;
    }
  }
  if (held.byteLength !== FOOTER_BYTES) throw new LinkBodyRefusedError(`the ${direction} ended before its signature`);
  if (!timingSafeEqual(footerOf(signed, direction, hash), held))
    throw new LinkBodyRefusedError(`the ${direction}'s bytes do not match its signature`);
}
