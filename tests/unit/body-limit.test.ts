import { describe, expect, it } from "vitest";
import {
  BodyTooLargeError,
  declaredLength,
  declaresMoreThan,
  discardRest,
  limitRequest,
  limitStream,
  readLimited,
} from "#backend/kit/body-limit.ts";

/** A body of `chunks` chunks of `size` bytes, made only when read; `pulled()` says how many were read so far. */
function source(chunks: number, size: number) {
  let pulled = 0;
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled === chunks) return controller.close();
      pulled += 1;
      controller.enqueue(new Uint8Array(size).fill(pulled % 256));
    },
    cancel() {
      cancelled = true;
    },
  });
  return { stream, pulled: () => pulled, cancelled: () => cancelled };
}

const post = (body: ReadableStream<Uint8Array> | string, headers: Record<string, string> = {}) =>
  new Request("http://test.invalid/x", { method: "POST", body, headers, duplex: "half" } as RequestInit);

async function readAll(stream: ReadableStream<Uint8Array>) {
  let bytes = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return bytes;
    bytes += value.byteLength;
  }
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe("the byte-limit helpers (backend/kit/body-limit.ts)", () => {
  it("reads Content-Length only when it is a plain number", () => {
    expect(declaredLength(post("abc", { "Content-Length": "3" }))).toBe(3);
    expect(declaredLength(new Request("http://test.invalid/x"))).toBeNull();
    expect(declaresMoreThan(post("a", { "Content-Length": "2048" }), 1024)).toBe(true);
    expect(declaresMoreThan(post("a", { "Content-Length": "1024" }), 1024)).toBe(false);
    // Garbage is not trusted either way: the body is counted while it arrives.
    expect(declaresMoreThan(post("a", { "Content-Length": "-5" }), 1024)).toBe(false);
  });

  it("limitStream passes a body within the limit whole, byte for byte", async () => {
    const body = source(4, 256);
    expect(await readAll(limitStream(body.stream, 1024))).toBe(1024);
  });

  it("limitStream errors on the chunk past the limit, and reads nothing of the source after it", async () => {
    const body = source(100, 1000);
    let exceeded = false;
    const limited = limitStream(body.stream, 2500, () => (exceeded = true));
    await expect(readAll(limited)).rejects.toBeInstanceOf(BodyTooLargeError);
    expect(exceeded).toBe(true);
    await tick();
    // 3 chunks: the third is the one that passed 2500 bytes.
    expect(body.pulled()).toBeLessThanOrEqual(4);
  });

  it("readLimited answers a body of at most the limit", async () => {
    const bytes = await readLimited(post(JSON.stringify({ a: "x".repeat(100) })), 1024);
    expect(JSON.parse(new TextDecoder().decode(bytes))).toEqual({ a: "x".repeat(100) });
  });

  it("readLimited refuses a body that lies about its length, stopping at the limit", async () => {
    const body = source(1000, 64 * 1024);
    // Says 10 bytes; is 64 MB, made as it is read.
    const request = post(body.stream, { "Content-Length": "10" });
    // (Nothing of the rest is drained here, so what was read is what the limit let through.)
    await expect(readLimited(request, 1024 * 1024, { bytes: 0, ms: 0 })).rejects.toBeInstanceOf(BodyTooLargeError);
    await tick();
    // 17 chunks of 64 KB read (the 17th passes 1 MB), not 1000 (a prefetch or two aside).
    expect(body.pulled()).toBeLessThanOrEqual(20);
    expect(body.cancelled()).toBe(true);
  });

  it("readLimited refuses a declared oversize body before reading it", async () => {
    const body = source(10, 1024);
    const request = post(body.stream, { "Content-Length": String(10 * 1024) });
    await expect(readLimited(request, 1024)).rejects.toBeInstanceOf(BodyTooLargeError);
  });

  it("limitRequest hands on a request whose body stops at the limit, and tells it afterwards", async () => {
    const body = source(50, 1000);
    const limited = limitRequest(post(body.stream), 10_000);
    await expect(limited.request.text()).rejects.toThrow();
    expect(limited.exceeded()).toBe(true);
    expect(limited.rest()).not.toBeNull();

    const small = limitRequest(post("hello"), 10_000);
    expect(await small.request.text()).toBe("hello");
    expect(small.exceeded()).toBe(false);
    expect(small.rest()).toBeNull();
  });

  it("discardRest reads what is left and throws it away, up to its bound, then cancels", async () => {
    const all = source(20, 1000);
    discardRest(all.stream);
    await expect.poll(() => all.pulled()).toBe(20);
    expect(all.cancelled()).toBe(false);

    const endless = source(1_000_000, 1000);
    discardRest(endless.stream, { bytes: 50_000, ms: 10_000 });
    await expect.poll(() => endless.cancelled()).toBe(true);
    expect(endless.pulled()).toBeLessThan(60);
  });
});
