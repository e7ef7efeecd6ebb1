import { describe, expect, it } from "vitest";
import { errorText, portalWithFakeBackend } from "./support.ts";

/**
 * A form sent from another site's page (docs/decisions/024): the real built server answers the error page
 * with 403 (Remix alone answered an empty 500) and the action never runs: the backend gets no call.
 */

const started = portalWithFakeBackend();
const EVIL = "https://evil.example";

/** Whether the fake backend gets a call while `during` runs (and a little after). */
async function backendCalled(during: () => Promise<unknown>): Promise<boolean> {
  let called = false;
  void started.fake.nextCall().then(() => (called = true));
  await during();
  await new Promise((r) => setTimeout(r, 100));
  return called;
}

const login = (headers: Record<string, string>, query = "") =>
  fetch(`${started.portal.base}/g/main/Login/Logins${query}`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams({ username: "demoperson", password: "Demo12!@pass", captchaKey: "k", captcha: "abcd" }),
  });

describe("a form posted from another site", () => {
  it("is a 403 page with the translated message, and the backend is never asked", async () => {
    let res: Response | undefined;
    const called = await backendCalled(async () => {
      res = await login({ Origin: EVIL });
    });
    expect(res!.status).toBe(403);
    expect(res!.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await res!.text();
    expect(html).toContain(errorText("errors:http.403"));
    expect(html).toMatch(/<html lang="en"/);
    expect(called).toBe(false);
  });

  it("speaks the visitor's language", async () => {
    const lng = (
      await fetch(`${started.portal.base}/g/lang?lng=zh-CN&redirectTo=/g/main/index`, { redirect: "manual" })
    ).headers
      .getSetCookie()
      .find((c) => c.startsWith("lng="))!;
    const res = await login({ Origin: EVIL, Cookie: lng.split(";")[0] });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("拒绝访问。");
  });

  it("an Origin of null or a malformed one is another site; a forwarded host is honoured", async () => {
    for (const origin of ["null", "not a url"]) expect((await login({ Origin: origin })).status, origin).toBe(403);
    const proxied = await login({ Origin: "https://portal.example", "X-Forwarded-Host": "portal.example" });
    expect(proxied.status).toBe(400);
  });

  it("a Remix data request from another site is a 403 thrown Response", async () => {
    const res = await login({ Origin: EVIL }, "?_data=routes%2Fg.main.Login.Logins");
    expect(res.status).toBe(403);
    expect(res.headers.get("x-remix-catch")).toBe("yes");
    expect(await res.json()).toEqual({ messageKey: "errors:http.403" });
  });

  it("the same form from this site, or without an Origin, reaches the action as before", async () => {
    for (const headers of [{ Origin: started.portal.base }, {}] as Record<string, string>[]) {
      const res = await login(headers);
      // The fake backend answers data that is not a login's: the form shows the empty-data error.
      expect(res.status).toBe(400);
      expect(await res.text()).toContain(errorText("errors:empty.dataError"));
    }
  });

  it("resource routes are left to guard themselves (the /healthz route has no action: 405)", async () => {
    const res = await fetch(`${started.portal.base}/healthz`, { method: "POST", headers: { Origin: EVIL } });
    expect(res.status).toBe(405);
  });
});
