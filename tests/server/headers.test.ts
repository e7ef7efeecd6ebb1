import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cspNonce, rawGet, scriptTags, startFakeVueapi, startPortal, type FakeVueapi, type Portal } from "./support.ts";

/**
 * Hardening item 13 on the real built server: the security headers on every kind of response (page,
 * resource route, public file, build asset, not-found), a CSP whose script nonce is fresh per response and
 * carried by every script tag of the page, HSTS in production only, and the language cookie Secure by the
 * session cookie's rule. (The /vueapi service mounted in the portal is checked in tests/backend/.)
 */

let fake: FakeVueapi;
let testing: Portal;
let production: Portal;

beforeAll(async () => {
  fake = await startFakeVueapi();
  [testing, production] = await Promise.all([
    startPortal({ VUEAPI_URL: fake.url }),
    startPortal({ VUEAPI_URL: fake.url, NODE_ENV: "production" }),
  ]);
});
afterAll(async () => {
  await Promise.all([testing?.stop(), production?.stop()]);
  await fake?.close();
});

/** A content-hashed asset of the build, as the landing page links it. */
async function buildAsset(base: string): Promise<string> {
  const html = await (await fetch(`${base}/g/main/index`)).text();
  const src = html.match(/\/build\/[^"]+\.js/)?.[0];
  if (!src) throw new Error("no build asset on the landing page");
  return src;
}

function expectSecurityHeaders(headers: Headers, { hsts }: { hsts: boolean }) {
  const csp = headers.get("content-security-policy");
  expect(csp).toMatch(/default-src 'self'/);
  expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{20,}'(;|$)/);
  expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  expect(csp).not.toMatch(/'unsafe-eval'/);
  expect(csp).toMatch(/object-src 'none'/);
  expect(csp).toMatch(/frame-ancestors 'none'/);
  expect(csp).toMatch(/base-uri 'self'/);
  expect(headers.get("x-content-type-options")).toBe("nosniff");
  expect(headers.get("referrer-policy")).toBe("same-origin");
  expect(headers.get("x-frame-options")).toBe("DENY");
  if (hsts) expect(headers.get("strict-transport-security")).toMatch(/^max-age=\d{7,}/);
  else expect(headers.get("strict-transport-security")).toBeNull();
  expect(headers.get("x-powered-by")).toBeNull();
}

describe("security headers on every response", () => {
  for (const [name, hsts] of [
    ["test", false],
    ["production", true],
  ] as const) {
    it(`${name}: page, resource routes, public file, build asset and not-found all carry them${hsts ? ", with HSTS" : ", without HSTS"}`, async () => {
      const portal = name === "test" ? testing : production;
      const paths = [
        "/g/main/index",
        "/healthz",
        "/locales/en/common.json",
        "/favicon.svg",
        await buildAsset(portal.base),
        "/no/such/page",
      ];
      for (const p of paths) {
        const res = await fetch(portal.base + p, { redirect: "manual" });
        await res.arrayBuffer();
        expectSecurityHeaders(res.headers, { hsts });
      }
      // A redirect, too.
      const redirect = await fetch(`${portal.base}/`, { redirect: "manual" });
      expect(redirect.status).toBe(302);
      expectSecurityHeaders(redirect.headers, { hsts });
    });
  }

  it("robots.txt is a crawler's file, not a redirect to the landing page: public pages allowed, the console not", async () => {
    const res = await fetch(`${production.base}/robots.txt`, { redirect: "manual" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text).toMatch(/^User-agent: \*$/m);
    expect(text).toMatch(/^Disallow: \/g\/home\/$/m);
    expect(text).not.toMatch(/^Disallow: \/$/m);
  });

  it("each header is sent once (a route's own value replaces the default, never doubles it)", async () => {
    const res = await rawGet(`${testing.base}/g/main/index`);
    for (const name of ["content-security-policy", "x-frame-options", "referrer-policy", "x-content-type-options"]) {
      expect(typeof res.headers[name], name).toBe("string");
      expect(String(res.headers[name]), name).not.toContain(", ");
    }
  });
});

describe("the CSP nonce", () => {
  for (const name of ["test", "production"] as const) {
    it(`${name}: every script tag of a page carries the header's nonce, and there are inline scripts to carry it`, async () => {
      const portal = name === "test" ? testing : production;
      for (const p of ["/g/main/index", "/g/main/Login/Logins", "/no/such/page"]) {
        const res = await fetch(portal.base + p);
        const nonce = cspNonce(res.headers.get("content-security-policy"));
        expect(nonce, p).toBeTruthy();
        const html = await res.text();
        const tags = scriptTags(html);
        expect(tags.length, p).toBeGreaterThanOrEqual(2);
        // The inline ones (Remix's context and module loader, the scroll restoration) and the module script.
        expect(
          tags.some((t) => !/\ssrc=/.test(t)),
          p,
        ).toBe(true);
        for (const tag of tags) expect(tag, p).toContain(`nonce="${nonce}"`);
      }
    });
  }

  it("is fresh for every response", async () => {
    const nonces = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${testing.base}/g/main/index`);
      const nonce = cspNonce(res.headers.get("content-security-policy"))!;
      expect(scriptTags(await res.text())[0]).toContain(`nonce="${nonce}"`);
      nonces.add(nonce);
    }
    expect(nonces.size).toBe(5);
  });
});

describe("the language cookie follows the session cookie's Secure rule", () => {
  const lngCookie = async (portal: Portal) => {
    const res = await fetch(`${portal.base}/g/lang?lng=zh-CN&redirectTo=/g/main/index`, { redirect: "manual" });
    expect(res.status).toBe(302);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("lng="));
    expect(cookie).toBeTruthy();
    return cookie!;
  };

  it("Secure in production", async () => {
    expect(await lngCookie(production)).toMatch(/;\s*Secure/i);
  });

  it("not Secure outside production", async () => {
    expect(await lngCookie(testing)).not.toMatch(/;\s*Secure/i);
  });

  it("not Secure in production with COOKIE_SECURE=0 (plain HTTP on a trusted network)", async () => {
    const plain = await startPortal({ VUEAPI_URL: fake.url, NODE_ENV: "production", COOKIE_SECURE: "0" });
    try {
      expect(await lngCookie(plain)).not.toMatch(/;\s*Secure/i);
    } finally {
      await plain.stop();
    }
  });
});
