import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawGet, startFakeVueapi, startPortal, type FakeVueapi, type Portal } from "./support.ts";

/**
 * Compression and caching of the server entry (docs/decisions/016): gzip only when the client asks for
 * it, never brotli, nothing for small answers; the build's assets cached for a year and sent from the
 * gzip twins written at build time.
 */

let fake: FakeVueapi;
let portal: Portal;
beforeAll(async () => {
  fake = await startFakeVueapi();
  portal = await startPortal({ VUEAPI_URL: fake.url });
});
afterAll(async () => {
  await portal?.stop();
  await fake?.close();
});

const BROWSER = "gzip, deflate, br, zstd";

describe("pages and data", () => {
  it("a page is gzipped when the client accepts gzip (a browser's offer gets gzip, not brotli)", async () => {
    const res = await rawGet(`${portal.base}/g/main/index`, { "Accept-Encoding": BROWSER });
    expect(res.status).toBe(200);
    expect(res.headers["content-encoding"]).toBe("gzip");
    expect(res.headers.vary).toMatch(/Accept-Encoding/i);
    const html = gunzipSync(res.body).toString("utf8");
    expect(html).toContain("Fake City");
    expect(html).toMatch(/<\/html>$/);
  });

  it("no Accept-Encoding, brotli only, or gzip refused: sent as it is, with its length", async () => {
    for (const headers of [
      {},
      { "Accept-Encoding": "br" },
      { "Accept-Encoding": "gzip;q=0, br" },
      { "Accept-Encoding": "identity" },
    ] as Record<string, string>[]) {
      const res = await rawGet(`${portal.base}/g/main/index`, headers);
      expect(res.headers["content-encoding"], JSON.stringify(headers)).toBeUndefined();
      expect(Number(res.headers["content-length"])).toBe(res.body.length);
      expect(res.body.toString("utf8")).toContain("Fake City");
    }
  });

  it("a small answer is not compressed even when gzip is accepted", async () => {
    const res = await rawGet(`${portal.base}/healthz`, { "Accept-Encoding": BROWSER });
    // The readiness answer of a portal in front of another backend is a few bytes of JSON.
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect(JSON.parse(res.body.toString())).toEqual({ status: "ok" });
    expect(res.headers["content-length"]).toBe(String(res.body.byteLength));
  });
});

describe("static files", () => {
  it("a build asset: cached for a year as immutable; the gzip twin when accepted, the same bytes unpacked", async () => {
    const html = (await rawGet(`${portal.base}/g/main/index`)).body.toString("utf8");
    const asset = html.match(/\/build\/[^"]+\.js/)?.[0];
    expect(asset).toBeTruthy();
    const plain = await rawGet(portal.base + asset, {});
    const zipped = await rawGet(portal.base + asset, { "Accept-Encoding": BROWSER });
    for (const res of [plain, zipped]) {
      expect(res.status).toBe(200);
      expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      expect(res.headers["content-type"]).toMatch(/^application\/javascript/);
      expect(res.headers.vary).toMatch(/Accept-Encoding/i);
    }
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(zipped.headers["content-encoding"]).toBe("gzip");
    expect(zipped.body.length).toBeLessThan(plain.body.length);
    expect(gunzipSync(zipped.body).equals(plain.body)).toBe(true);
  });

  it("other public files are cached for an hour", async () => {
    const res = await rawGet(`${portal.base}/favicon.svg`);
    expect(res.status).toBe(200);
    expect(res.headers["cache-control"]).toBe("public, max-age=3600");
  });
});
