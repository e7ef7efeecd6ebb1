import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeVueapi, startPortal, type FakeVueapi, type Portal } from "./support.ts";

/**
 * Hardening 10 (docs/decisions/021) on the real built server with VUEAPI_URL set: the end user's address
 * reaches the other /vueapi server as X-Forwarded-For, and it is the address the server entry saw — the
 * socket's, or the one a proxy named by TRUST_PROXY put in X-Forwarded-For — never one the browser chose.
 */

let fake: FakeVueapi;
let direct: Portal;
let proxied: Portal;

beforeAll(async () => {
  fake = await startFakeVueapi();
  [direct, proxied] = await Promise.all([
    startPortal({ VUEAPI_URL: fake.url }),
    startPortal({ VUEAPI_URL: fake.url, TRUST_PROXY: "loopback" }),
  ]);
});
afterAll(async () => {
  await Promise.all([direct?.stop(), proxied?.stop()]);
  await fake?.close();
});

/** The headers of the /vueapi call the landing page makes when fetched with `headers`. */
async function backendHeadersFor(portal: Portal, headers: Record<string, string>) {
  const call = fake.nextCall();
  const page = await fetch(`${portal.base}/g/main/index`, { headers });
  expect(page.status).toBe(200);
  await page.text();
  return (await call).headers;
}

const spoofing = { "X-Forwarded-For": "203.0.113.5", "X-Portal-Client-Address": "198.51.100.66" };

describe("the end user's address on calls to another /vueapi server", () => {
  it("without TRUST_PROXY: the socket's address; the browser's X-Forwarded-For and client-address header are ignored", async () => {
    const headers = await backendHeadersFor(direct, spoofing);
    expect(headers["x-forwarded-for"]).toBe("127.0.0.1");
    expect(headers["x-portal-client-address"]).toBeUndefined();
  });

  it("with TRUST_PROXY naming the proxy: the address the proxy saw", async () => {
    const headers = await backendHeadersFor(proxied, spoofing);
    expect(headers["x-forwarded-for"]).toBe("203.0.113.5");
    expect(headers["x-portal-client-address"]).toBeUndefined();
  });

  it("refuses to start with TRUST_PROXY=true", async () => {
    await expect(startPortal({ VUEAPI_URL: fake.url, TRUST_PROXY: "true" })).rejects.toThrow(/TRUST_PROXY=true/);
  });
});
