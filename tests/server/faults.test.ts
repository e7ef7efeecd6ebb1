import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { errorText, startFakeVueapi, startPortal, type FakeVueapi, type Portal } from "./support.ts";

/**
 * Hardening item 3: the real built server (server/index.js) with VUEAPI_URL pointing at a fake /vueapi
 * backend on a real socket that fails on purpose. After every fault the process is still running, wrote
 * no uncaught error, and answers the next request. The landing page's loader makes one call
 * (/anon/platform/cityNodes) and shows a failure through the error boundary (SPEC §8); the public layout also
 * reads the announcements banner, which a failing backend leaves empty (the page's status is its own call's).
 */

const TIMEOUT_MS = 600;
/** SPEC §8 "HTTP": the statuses with a message of their own. */
const SPEC_STATUSES = [400, 401, 403, 404, 500, 502, 503, 504];
let fake: FakeVueapi;
let portal: Portal;

beforeAll(async () => {
  fake = await startFakeVueapi();
  portal = await startPortal({ VUEAPI_URL: fake.url, VUEAPI_TIMEOUT_MS: String(TIMEOUT_MS) });
});
afterAll(async () => {
  await portal?.stop();
  await fake?.close();
});
beforeEach(() => fake.setFault({ kind: "ok" }));

const landing = () => fetch(`${portal.base}/g/main/index`, { redirect: "manual" });

/** The process survived: it is running, logged nothing uncaught, and serves the next page normally. */
async function expectAliveAndServing() {
  // Give an error thrown outside any request (the old crash) the time to end the process.
  await new Promise((r) => setTimeout(r, 300));
  expect(portal.alive()).toBe(true);
  expect(portal.output()).not.toMatch(/Cannot cancel a stream|Uncaught|unhandled/i);
  fake.setFault({ kind: "ok" });
  const next = await landing();
  expect(next.status).toBe(200);
  expect(await next.text()).toContain("Fake City");
}

describe("the server survives every backend fault and answers the next request", () => {
  it("serves the landing page from the fake backend", async () => {
    const res = await landing();
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Fake City");
  });

  it("an answer that comes after VUEAPI_TIMEOUT_MS: the time-out message (504), after about that time", async () => {
    fake.setFault({ kind: "late", afterMs: TIMEOUT_MS * 3 });
    const started = Date.now();
    const res = await landing();
    const took = Date.now() - started;
    expect(res.status).toBe(504);
    expect(await res.text()).toContain(errorText("errors:http.timeout"));
    expect(took).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(took).toBeLessThan(TIMEOUT_MS * 3);
    // The late answer arrives at a connection the portal has closed.
    await new Promise((r) => setTimeout(r, TIMEOUT_MS * 2));
    await expectAliveAndServing();
  });

  it("a body that stops half-way and stays open past the timeout: the time-out message (504)", async () => {
    fake.setFault({ kind: "stall-body" });
    const call = fake.nextCall();
    const res = await landing();
    expect(res.status).toBe(504);
    expect(await res.text()).toContain(errorText("errors:http.timeout"));
    // The portal gave up on the call and closed its connection.
    expect(await (await call).closed).toBe(true);
    await expectAliveAndServing();
  });

  it("the browser going away while the backend has not answered: the call is aborted", async () => {
    fake.setFault({ kind: "late", afterMs: 5_000 });
    const call = fake.nextCall();
    const browser = new AbortController();
    const page = fetch(`${portal.base}/g/main/index`, { signal: browser.signal }).catch((error: unknown) => error);
    const received = await call;
    browser.abort();
    expect(await page).toBeInstanceOf(Error);
    // The abort reached the backend call: the portal closed the connection long before the answer.
    expect(await received.closed).toBe(true);
    await expectAliveAndServing();
  });

  it("the browser going away while the backend's answer is half sent: the call is aborted", async () => {
    fake.setFault({ kind: "stall-body" });
    const call = fake.nextCall();
    const browser = new AbortController();
    const page = fetch(`${portal.base}/g/main/index`, { signal: browser.signal }).catch((error: unknown) => error);
    const received = await call;
    await new Promise((r) => setTimeout(r, 50));
    browser.abort();
    expect(await page).toBeInstanceOf(Error);
    expect(await received.closed).toBe(true);
    await expectAliveAndServing();
  });

  it("a connection reset by the backend: the network message (502)", async () => {
    fake.setFault({ kind: "reset" });
    const res = await landing();
    expect(res.status).toBe(502);
    expect(await res.text()).toContain(errorText("errors:http.network"));
    await expectAliveAndServing();
  });

  it("a backend that is not listening at all: the network message (502)", async () => {
    const closed = await startFakeVueapi();
    const url = closed.url;
    await closed.close();
    const other = await startPortal({ VUEAPI_URL: url, VUEAPI_TIMEOUT_MS: String(TIMEOUT_MS) });
    try {
      const res = await fetch(`${other.base}/g/main/index`);
      expect(res.status).toBe(502);
      expect(await res.text()).toContain(errorText("errors:http.network"));
      expect(other.alive()).toBe(true);
    } finally {
      await other.stop();
    }
  });

  it("malformed JSON: 'Data is empty or returned data is error'", async () => {
    fake.setFault({ kind: "malformed" });
    const res = await landing();
    expect(res.status).toBe(500);
    expect(await res.text()).toContain(errorText("errors:empty.dataError"));
    await expectAliveAndServing();
  });

  for (const status of SPEC_STATUSES.filter((s) => s !== 401)) {
    it(`HTTP ${status} from the backend: the §8 message of ${status}, with that status`, async () => {
      fake.setFault({ kind: "status", status });
      const res = await landing();
      expect(res.status).toBe(status);
      expect(await res.text()).toContain(errorText(`errors:http.${status}`));
      await expectAliveAndServing();
    });
  }

  it("HTTP 401 from the backend: to the login page (§8: login invalid or expired)", async () => {
    fake.setFault({ kind: "status", status: 401 });
    const res = await landing();
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/g/main/Login/Logins");
    expect(res.headers.getSetCookie().join("\n")).toMatch(/^__flash=/m);
    await expectAliveAndServing();
  });

  it("every fault again, at once on parallel requests: still alive", async () => {
    const faults = [
      { kind: "late", afterMs: TIMEOUT_MS * 2 },
      { kind: "stall-body" },
      { kind: "reset" },
      { kind: "malformed" },
      { kind: "status", status: 503 },
    ] as const;
    const pages: Promise<number>[] = [];
    for (const fault of faults) {
      fake.setFault(fault);
      // The page's own call: the layout's banner read may reach the fake first, under the same fault.
      const call = fake.nextCall("/anon/platform/cityNodes");
      pages.push(landing().then(async (res) => (await res.arrayBuffer(), res.status)));
      await call;
    }
    expect((await Promise.all(pages)).sort()).toEqual([500, 502, 503, 504, 504]);
    await expectAliveAndServing();
  });
});
