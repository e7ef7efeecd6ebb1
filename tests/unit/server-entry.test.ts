import { createServer, request as httpRequest, type Server } from "node:http";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { sendFetchResponse, toFetchRequest, WHOLE_BODY_LIMIT } from "../../server/remix.js";
import { contentSecurityPolicy, createNonce, securityHeaders } from "../../server/security.js";

/** The pieces of the server entry (server/, docs/decisions/016) on a real socket, without a Remix build. */

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  server = undefined;
});

async function serve(app: express.Express): Promise<string> {
  server = createServer(app);
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address !== "object") throw new Error("no address");
  return `http://127.0.0.1:${address.port}`;
}

type Raw = {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  chunks: { at: number; text: string }[];
};
function get(
  url: string,
  init: { method?: string; body?: string; onResponse?: (abort: () => void) => void } = {},
): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const req = httpRequest(url, { method: init.method ?? "GET", agent: false }, (res) => {
      const out: Raw = { status: res.statusCode ?? 0, headers: res.headers, chunks: [] };
      init.onResponse?.(() => req.destroy());
      res.on("data", (chunk: Buffer) => out.chunks.push({ at: Date.now() - started, text: chunk.toString() }));
      res.on("end", () => resolve(out));
      res.on("error", () => resolve(out));
      res.on("close", () => resolve(out));
    });
    req.on("error", reject);
    req.end(init.body);
  });
}

/** A body stream that enqueues `parts`, waiting `gapMs` before each part after the first. */
function slowStream(parts: string[], gapMs: number, onCancel?: () => void) {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (i > 0) await new Promise((r) => setTimeout(r, gapMs));
      if (i >= parts.length) return controller.close();
      controller.enqueue(new TextEncoder().encode(parts[i++]));
    },
    cancel() {
      onCancel?.();
    },
  });
}

describe("sendFetchResponse", () => {
  it("a body complete at once goes in one piece with its Content-Length", async () => {
    const base = await serve(express().get("/", (_req, res) => void sendFetchResponse(res, Response.json({ a: 1 }))));
    const res = await get(base);
    expect(res.status).toBe(200);
    expect(res.headers["content-length"]).toBe(String('{"a":1}'.length));
    expect(res.headers["transfer-encoding"]).toBeUndefined();
    expect(res.chunks.map((c) => c.text).join("")).toBe('{"a":1}');
  });

  it("a body larger than the whole-body limit is streamed", async () => {
    const big = "x".repeat(WHOLE_BODY_LIMIT + 10);
    const base = await serve(
      express().get(
        "/",
        (_req, res) =>
          void sendFetchResponse(
            res,
            new Response(slowStream([big.slice(0, WHOLE_BODY_LIMIT), big.slice(WHOLE_BODY_LIMIT)], 0)),
          ),
      ),
    );
    const res = await get(base);
    expect(res.headers["transfer-encoding"]).toBe("chunked");
    expect(res.chunks.map((c) => c.text).join("")).toBe(big);
  });

  it("a long stream waiting on a slow connection leaves no listener behind per wait", async () => {
    const chunk = new Uint8Array(4 * 1024 * 1024);
    let waits = 0;
    let most = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (waits++ >= 16) return controller.close();
        controller.enqueue(chunk);
      },
    });
    const app = express().get("/", (_req, res) => {
      const sample = setInterval(() => (most = Math.max(most, res.listenerCount("drain"))), 1);
      void sendFetchResponse(res, new Response(body)).finally(() => clearInterval(sample));
    });
    const base = await serve(app);
    let bytes = 0;
    await new Promise<void>((resolve, reject) => {
      httpRequest(base, { agent: false }, (res) => {
        res.on("data", (c: Buffer) => {
          bytes += c.length;
          res.pause();
          setTimeout(() => res.resume(), 1);
        });
        res.on("end", resolve);
      })
        .on("error", reject)
        .end();
    });
    expect(bytes).toBe(16 * chunk.byteLength);
    expect(most).toBeLessThanOrEqual(1);
  });

  it("a streamed body reaches the client as it comes, not at the end", async () => {
    const base = await serve(
      express().get(
        "/",
        (_req, res) => void sendFetchResponse(res, new Response(slowStream(["<p>shell</p>", "<p>later</p>"], 300))),
      ),
    );
    const res = await get(base);
    expect(res.chunks.map((c) => c.text).join("")).toBe("<p>shell</p><p>later</p>");
    expect(res.chunks[0].text).toBe("<p>shell</p>");
    expect(res.chunks.at(-1)!.at - res.chunks[0].at).toBeGreaterThanOrEqual(200);
  });

  it("the route's headers replace the server's defaults; several Set-Cookie are all sent", async () => {
    const app = express();
    app.use((_req, res, next) => {
      res.setHeader("Referrer-Policy", "same-origin");
      res.setHeader("X-Frame-Options", "DENY");
      next();
    });
    app.get("/", (_req, res) => {
      const headers = new Headers({ "Referrer-Policy": "no-referrer" });
      headers.append("Set-Cookie", "a=1; Path=/");
      headers.append("Set-Cookie", "b=2; Path=/");
      void sendFetchResponse(res, new Response("ok", { status: 201, headers }));
    });
    const res = await get(await serve(app));
    expect(res.status).toBe(201);
    expect(res.headers["referrer-policy"]).toBe("no-referrer");
    expect(res.headers["x-frame-options"]).toBe("DENY");
    expect(res.headers["set-cookie"]).toEqual(["a=1; Path=/", "b=2; Path=/"]);
  });

  it("a response without a body ends at once (a redirect)", async () => {
    const base = await serve(
      express().get(
        "/",
        (_req, res) => void sendFetchResponse(res, new Response(null, { status: 302, headers: { Location: "/x" } })),
      ),
    );
    const res = await get(base);
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe("/x");
  });

  it("the client going away mid-stream cancels the body stream", async () => {
    let cancelled!: () => void;
    const wasCancelled = new Promise<void>((resolve) => (cancelled = resolve));
    const parts = Array.from({ length: 50 }, (_, i) => `<p>${i}</p>`);
    const base = await serve(
      express().get("/", (_req, res) => void sendFetchResponse(res, new Response(slowStream(parts, 50, cancelled)))),
    );
    await get(base, { onResponse: (abort) => setTimeout(abort, 120) });
    await wasCancelled;
  });

  it("a body that fails before anything was sent goes to the error handler; after, the connection is cut", async () => {
    const failing = (afterFirst: boolean) =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          if (afterFirst) controller.enqueue(new TextEncoder().encode("start"));
          setTimeout(() => controller.error(new Error("producer failed")), 20);
        },
      });
    const app = express();
    app.get("/before", async (_req, res, next) => sendFetchResponse(res, new Response(failing(false))).catch(next));
    app.get("/after", async (_req, res, next) => sendFetchResponse(res, new Response(failing(true))).catch(next));
    app.use((_error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      res.status(500).end("handled");
    });
    const base = await serve(app);
    const before = await get(`${base}/before`);
    expect(before.status).toBe(500);
    expect(before.chunks.map((c) => c.text).join("")).toBe("handled");
    const after = await get(`${base}/after`);
    expect(after.status).toBe(200);
    expect(after.chunks.map((c) => c.text).join("")).toBe("start");
  });
});

describe("toFetchRequest", () => {
  it("keeps the method, the URL with its query, the headers and a streamed body", async () => {
    let seen: { method: string; url: string; type: string | null; body: string } | undefined;
    const app = express();
    app.all("*", async (req, res) => {
      const request = toFetchRequest(req, res);
      seen = {
        method: request.method,
        url: request.url,
        type: request.headers.get("content-type"),
        body: await request.text(),
      };
      res.end();
    });
    const base = await serve(app);
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest(
        `${base}/a/b?x=1&y=%20`,
        { method: "POST", agent: false, headers: { "Content-Type": "text/plain" } },
        (res) => res.resume().on("end", resolve),
      );
      req.on("error", reject);
      req.end("hello body");
    });
    expect(seen).toEqual({ method: "POST", url: `${base}/a/b?x=1&y=%20`, type: "text/plain", body: "hello body" });
  });

  it("a Host header that is not a host name cannot change the path", async () => {
    const urls: string[] = [];
    const app = express();
    app.all("*", (req, res) => {
      urls.push(toFetchRequest(req, res).url);
      res.end();
    });
    const base = await serve(app);
    const port = new URL(base).port;
    for (const host of [`127.0.0.1:${port}`, "portal.example:8080", "[::1]:3000", "evil/b?", "a b"]) {
      await new Promise<void>((resolve, reject) => {
        const req = httpRequest(
          `${base}/g/main/index?x=1`,
          { agent: false, setHost: false, headers: { Host: host } },
          (res) => res.resume().on("end", resolve),
        );
        req.on("error", reject);
        req.end();
      });
    }
    expect(urls).toEqual([
      `http://127.0.0.1:${port}/g/main/index?x=1`,
      "http://portal.example:8080/g/main/index?x=1",
      "http://[::1]:3000/g/main/index?x=1",
      "http://localhost/g/main/index?x=1",
      "http://localhost/g/main/index?x=1",
    ]);
  });

  it("its signal aborts when the client goes away before the answer", async () => {
    let aborted!: () => void;
    const wasAborted = new Promise<void>((resolve) => (aborted = resolve));
    const app = express();
    app.get("/", (req, res) => {
      const request = toFetchRequest(req, res);
      request.signal.addEventListener("abort", () => aborted());
    });
    const base = await serve(app);
    const req = httpRequest(base, { agent: false });
    req.on("error", () => undefined);
    req.end();
    setTimeout(() => req.destroy(), 100);
    await wasAborted;
  });
});

describe("security headers", () => {
  it("scripts: 'self' and the nonce only; styles may be inline (apexcharts)", () => {
    const csp = contentSecurityPolicy({ nonce: "abc" });
    expect(csp).toContain("script-src 'self' 'nonce-abc';");
    expect(csp).toContain("style-src 'self' 'unsafe-inline';");
    expect(csp).toContain("connect-src 'self';");
    expect(csp).not.toMatch(/unsafe-eval|ws:/);
    // remix dev's reload socket, in development only.
    expect(contentSecurityPolicy({ nonce: "abc", development: true })).toContain("connect-src 'self' ws: wss:;");
  });

  it("HSTS in production only", () => {
    expect(securityHeaders({ nonce: "n", production: true, development: false })["Strict-Transport-Security"]).toMatch(
      /^max-age=31536000/,
    );
    expect(securityHeaders({ nonce: "n", production: false, development: false })).not.toHaveProperty(
      "Strict-Transport-Security",
    );
  });

  it("nonces are 128-bit, base64, and never repeat", () => {
    const nonces = new Set(Array.from({ length: 1000 }, createNonce));
    expect(nonces.size).toBe(1000);
    for (const nonce of nonces) expect(Buffer.from(nonce, "base64")).toHaveLength(16);
  });
});
