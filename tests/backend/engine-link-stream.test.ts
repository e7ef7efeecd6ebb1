import { createHash, randomBytes } from "node:crypto";
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  EngineUnreachableError,
  NotEngineHolderError,
  callLinkedStream,
  linkKeys,
  signedHeaders,
  startEngineLink,
  type EngineLinkServer,
  type StreamAnswer,
} from "#backend/kit/engine-link.ts";
import {
  LinkBodyRefusedError,
  STREAM_MARK,
  verifiedStream,
  withFooter,
  type StreamSignature,
} from "#backend/kit/engine-link-stream.ts";

/**
 * The engine link's streamed calls (docs/decisions/098): a body and an answer of any length carried as streams, the
 * headers signed and checked (in time, never replayed) before any of the body is read, the bytes signed by a footer
 * that the receiver checks before the consumer sees the end; nothing held whole in memory. No database needed.
 */
const MiB = 1024 * 1024;
const keys = linkKeys(["secret-now", "secret-before"]);

async function* chunks(bytes: Uint8Array, size = 64 * 1024) {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}
async function all(source: AsyncIterable<Uint8Array>) {
  const parts: Uint8Array[] = [];
  for await (const p of source) parts.push(p);
  return Buffer.concat(parts);
}
/** A source that records whether anything was read from it. */
function watched(bytes: Uint8Array) {
  const state = { pulled: false };
  const source = (async function* () {
    state.pulled = true;
    yield* chunks(bytes);
  })();
  return { state, source };
}
const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

describe("the engine link's streamed calls", () => {
  let link: EngineLinkServer;
  let address: string;
  /** What the /count route kept: only bodies that verified to their end. */
  const committed: string[] = [];
  let holdOpen: (() => void) | null = null;

  beforeAll(async () => {
    link = await startEngineLink(keys, "127.0.0.1", 0);
    address = `http://127.0.0.1:${link.port}`;
    link.serve(
      "demo",
      async () => ({}),
      async (path, body): Promise<StreamAnswer> => {
        if (path === "/count") {
          const hash = createHash("sha256");
          let size = 0;
          for await (const chunk of body) {
            hash.update(chunk);
            size += chunk.byteLength;
          }
          const digest = hash.digest("hex");
          committed.push(digest);
          return { json: { size, sha: digest } };
        }
        if (path === "/echo") return { bytes: body };
        if (path.startsWith("/bytes?")) {
          const n = Number(new URL(path, "http://x").searchParams.get("n"));
          const block = Buffer.alloc(MiB, 7);
          return {
            bytes: (async function* () {
              for (let i = 0; i < n; i++) yield block;
            })(),
          };
        }
        if (path === "/stall") {
          // Reads a little of the body, then waits until the test ends the holder.
          const it = body[Symbol.asyncIterator]();
          await it.next();
          await new Promise<void>((resolve) => (holdOpen = resolve));
          return { json: {} };
        }
        if (path === "/missing") throw Object.assign(new Error("bafy is not pinned here"), { name: "NotPinnedError" });
        throw new Error(`no ${path}`);
      },
    );
  });
  afterAll(async () => {
    holdOpen?.();
    await link.close();
  });

  it("carries a body and an answer of several MiB both ways, signed, with the route's JSON or bytes", async () => {
    const bytes = randomBytes(3 * MiB + 17);
    const counted = await callLinkedStream(keys, address, "demo", "/count", chunks(bytes));
    expect(counted).toEqual({ json: { size: bytes.length, sha: sha(bytes) } });
    const echoed = await callLinkedStream(keys, address, "demo", "/echo", chunks(bytes));
    expect("bytes" in echoed && (await all(echoed.bytes)).equals(bytes)).toBe(true);
    // An older secret of the deployment still signs (rotation); the answer is signed with the caller's key.
    const older = await callLinkedStream([keys[1]!], address, "demo", "/count", chunks(bytes.subarray(0, 10)));
    expect(older).toMatchObject({ json: { size: 10 } });
    // The engine's error, by name, before any byte of an answer.
    const missing = await callLinkedStream(keys, address, "demo", "/missing", null).catch((e: Error) => e);
    expect(missing).toMatchObject({ name: "NotPinnedError", message: "bafy is not pinned here" });
  });

  it("refuses a call of another key, or to an engine this process does not run, before reading any of its body", async () => {
    const other = watched(randomBytes(1000));
    const refused = await callLinkedStream(linkKeys(["not-ours"]), address, "demo", "/count", other.source).catch(
      (e: Error) => e,
    );
    expect(String(refused)).toContain("bad signature");
    expect(other.state.pulled).toBe(false);
    const elsewhere = watched(randomBytes(1000));
    const notHere = await callLinkedStream(keys, address, "other", "/count", elsewhere.source).catch((e) => e);
    expect(notHere).toBeInstanceOf(NotEngineHolderError);
    expect(elsewhere.state.pulled).toBe(false);
    // The same body, still whole, goes to the right place.
    expect(await callLinkedStream(keys, address, "demo", "/count", elsewhere.source)).toMatchObject({
      json: { size: 1000 },
    });
    const closed = await startEngineLink(keys, "127.0.0.1", 0);
    const port = closed.port;
    await closed.close();
    const gone = watched(randomBytes(10));
    const unreachable = await callLinkedStream(keys, `http://127.0.0.1:${port}`, "demo", "/count", gone.source).catch(
      (e) => e,
    );
    expect(unreachable).toBeInstanceOf(EngineUnreachableError);
    expect((unreachable as EngineUnreachableError).sent).toBe(false);
    expect(gone.state.pulled).toBe(false);
  });

  /** A streamed call written by hand: headers signed for `path`, then `body` as given (footer included or not). */
  const raw = (path: string, headers: Record<string, string>, body: Buffer) =>
    new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(
        `${address}${path}`,
        { method: "POST", agent: false, headers: { "x-engine-stream": "1", ...headers } },
        (res) => {
          const parts: Buffer[] = [];
          res.on("data", (c: Buffer) => parts.push(c));
          res.on("end", () => resolve({ status: res.statusCode!, text: Buffer.concat(parts).toString() }));
        },
      );
      req.on("error", reject);
      req.end(body);
    });
  const signedBody = async (path: string, bytes: Buffer) => {
    const headers = signedHeaders(keys[0]!, path, STREAM_MARK);
    const signed: StreamSignature = {
      key: keys[0]!,
      time: headers["x-engine-time"]!,
      nonce: headers["x-engine-nonce"]!,
      path,
    };
    return { headers, body: await all(withFooter(signed, "body", chunks(bytes))) };
  };

  it("refuses an unsigned call, a replayed one, one outside 30 s, and a body changed, cut or unsigned", async () => {
    const bytes = randomBytes(200_000);
    const before = committed.length;
    expect((await raw("/demo/count", {}, bytes)).status).toBe(401);
    const good = await signedBody("/demo/count", bytes);
    expect(await raw("/demo/count", good.headers, good.body)).toMatchObject({ status: 200 });
    expect(committed.length).toBe(before + 1);
    // The same request again: its nonce was seen.
    expect(await raw("/demo/count", good.headers, good.body)).toMatchObject({
      status: 401,
      text: expect.stringContaining("replayed"),
    });
    const old = signedHeaders(keys[0]!, "/demo/count", STREAM_MARK, Date.now() - 31_000);
    expect((await raw("/demo/count", old, good.body)).text).toContain("outside the replay window");
    // Signed for another path.
    const moved = await signedBody("/demo/echo", bytes);
    expect((await raw("/demo/count", moved.headers, moved.body)).text).toContain("bad signature");
    // One byte of the body changed on the way: read to its end, refused there, nothing kept.
    const changed = await signedBody("/demo/count", bytes);
    changed.body[1000] ^= 0xff;
    expect(await raw("/demo/count", changed.headers, changed.body)).toMatchObject({
      status: 401,
      text: expect.stringContaining("do not match its signature"),
    });
    // Cut short (the footer lost), or with a JSON call's signature.
    const cut = await signedBody("/demo/count", bytes);
    expect((await raw("/demo/count", cut.headers, cut.body.subarray(0, 100_000))).status).toBe(401);
    const json = signedHeaders(keys[0]!, "/demo/count", bytes);
    expect((await raw("/demo/count", json, bytes)).text).toContain("bad signature");
    expect(committed.length).toBe(before + 1);
  });

  it("a caller refuses an answer changed, cut or signed for another call", async () => {
    const signed: StreamSignature = { key: keys[0]!, time: "1", nonce: "a".repeat(24), path: "/demo/echo" };
    const bytes = randomBytes(100_000);
    const sent = await all(withFooter(signed, "reply", chunks(bytes)));
    expect((await all(verifiedStream(signed, "reply", chunks(sent, 999)))).equals(bytes)).toBe(true);
    const changed = Buffer.from(sent);
    changed[5] ^= 1;
    await expect(all(verifiedStream(signed, "reply", chunks(changed)))).rejects.toBeInstanceOf(LinkBodyRefusedError);
    await expect(all(verifiedStream(signed, "reply", chunks(sent.subarray(0, 50_000))))).rejects.toBeInstanceOf(
      LinkBodyRefusedError,
    );
    await expect(all(verifiedStream({ ...signed, nonce: "b".repeat(24) }, "reply", chunks(sent)))).rejects.toThrow(
      /do not match/,
    );
    // A body's footer is not a reply's.
    await expect(all(verifiedStream(signed, "body", chunks(sent)))).rejects.toThrow(/do not match/);
  });

  it("a holder that ends while a body is under way: the caller learns the body was sent in part", async () => {
    const stalling = await startEngineLink(keys, "127.0.0.1", 0);
    let reached!: () => void;
    const inRoute = new Promise<void>((resolve) => (reached = resolve));
    stalling.serve(
      "demo",
      async () => ({}),
      async (_path, body) => {
        await body[Symbol.asyncIterator]().next();
        reached();
        await new Promise(() => undefined);
        return { json: {} };
      },
    );
    const pending = callLinkedStream(
      keys,
      `http://127.0.0.1:${stalling.port}`,
      "demo",
      "/stall",
      chunks(randomBytes(8 * MiB)),
    );
    await inRoute;
    await stalling.close();
    const error = await pending.catch((e) => e);
    expect(error).toBeInstanceOf(EngineUnreachableError);
    expect((error as EngineUnreachableError).sent).toBe(true);
  });

  it("streams 256 MiB each way without holding it: memory grows by far less than the bytes carried", async () => {
    const block = Buffer.alloc(MiB, 3);
    const total = 256;
    let peak = 0;
    const base = process.memoryUsage();
    const sample = setInterval(() => {
      const now = process.memoryUsage();
      peak = Math.max(peak, now.arrayBuffers - base.arrayBuffers, now.rss - base.rss);
    }, 10);
    try {
      const up = await callLinkedStream(
        keys,
        address,
        "demo",
        "/count",
        (async function* () {
          for (let i = 0; i < total; i++) yield block;
        })(),
      );
      expect(up).toMatchObject({ json: { size: total * MiB } });
      const down = await callLinkedStream(keys, address, "demo", `/bytes?n=${total}`, null);
      let size = 0;
      if ("bytes" in down) for await (const chunk of down.bytes) size += chunk.byteLength;
      expect(size).toBe(total * MiB);
    } finally {
      clearInterval(sample);
    }
    console.info(`engine link: 2 × ${total} MiB streamed, memory grew by at most ${Math.round(peak / MiB)} MiB`);
    expect(peak).toBeLessThan(64 * MiB);
  }, 120_000);
});
