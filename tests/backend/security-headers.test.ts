import { describe, expect, inject, it } from "vitest";
import { raw } from "./client.ts";

/**
 * Hardening item 13 on the server with its embedded backend: the security headers are the server
 * entry's (server/app.js), so the /vueapi service, resource routes and error answers carry them like
 * pages do, and every script of a page carries the nonce of its response's CSP.
 */

const base = () => inject("baseUrl");
const nonceOf = (csp: string | null) => csp?.match(/script-src 'self' 'nonce-([^']+)'/)?.[1];

function expectSecurityHeaders(res: Response) {
  const csp = res.headers.get("content-security-policy");
  expect(csp, res.url).toMatch(/^default-src 'self'; script-src 'self' 'nonce-[^']+';/);
  expect(csp, res.url).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  expect(res.headers.get("x-content-type-options"), res.url).toBe("nosniff");
  expect(res.headers.get("referrer-policy"), res.url).toBe("same-origin");
  expect(res.headers.get("x-frame-options"), res.url).toBe("DENY");
  // A test server: HSTS is for production (tests/server/headers.test.ts checks it there).
  expect(res.headers.get("strict-transport-security"), res.url).toBeNull();
}

describe("security headers on every kind of answer", () => {
  it("a page", async () => {
    const res = await fetch(`${base()}/g/main/index`);
    expect(res.status).toBe(200);
    expectSecurityHeaders(res);
  });

  it("/vueapi paths: success, protocol errors and a wrong method", async () => {
    const ok = await raw("/anon/platform/cityNodes");
    expect(ok.status).toBe(200);
    expectSecurityHeaders(ok);
    const unknown = await raw("/no/such/path");
    expect(unknown.status).toBe(404);
    expectSecurityHeaders(unknown);
    const bad = await raw("/anon/platform/cityNodes", "{not json");
    expect(bad.status).toBe(400);
    expectSecurityHeaders(bad);
    const get = await fetch(`${base()}/vueapi/anon/platform/cityNodes`);
    expect(get.status).toBe(405);
    expectSecurityHeaders(get);
  });

  it("resource routes: the readiness check, a locale file, the bills CSV export (a redirect to login when anonymous)", async () => {
    for (const p of ["/healthz", "/locales/zh-CN/common.json", "/g/home/userCenter/MyBills/export.csv"]) {
      const res = await fetch(base() + p, { redirect: "manual" });
      expect(res.status, p).toBeLessThan(400);
      expectSecurityHeaders(res);
    }
  });
});

describe("the page's scripts carry the CSP nonce", () => {
  it("every <script> of a page has the nonce of its response's header, and the nonce is new each time", async () => {
    const seen = new Set<string>();
    for (const p of ["/g/main/index", "/g/main/Login/Logins", "/g/main/index"]) {
      const res = await fetch(base() + p);
      const nonce = nonceOf(res.headers.get("content-security-policy"));
      expect(nonce).toBeTruthy();
      const tags = (await res.text()).match(/<script\b[^>]*>/g) ?? [];
      expect(tags.length).toBeGreaterThanOrEqual(2);
      for (const tag of tags) expect(tag).toContain(`nonce="${nonce}"`);
      seen.add(nonce!);
    }
    expect(seen.size).toBe(3);
  });
});
