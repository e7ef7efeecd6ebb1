import { afterAll, beforeAll, expect, it } from "vitest";
import { startFakeVueapi, startPortal, type FakeVueapi } from "./support.ts";
import { waitFor } from "../support/wait.ts";

/**
 * SIGTERM (docs/decisions/016): the server stops accepting connections, lets the request under way
 * finish with its full answer, and the process then ends by itself with code 0.
 */

let fake: FakeVueapi;
beforeAll(async () => {
  fake = await startFakeVueapi();
});
afterAll(async () => {
  await fake?.close();
});

it("SIGTERM: no new connections, the request under way completes, then the process exits with 0", async () => {
  const portal = await startPortal({ VUEAPI_URL: fake.url });
  try {
    fake.setFault({ kind: "late", afterMs: 800 });
    const call = fake.nextCall();
    const underWay = fetch(`${portal.base}/g/main/index`).then(async (res) => ({
      status: res.status,
      html: await res.text(),
    }));
    await call;
    const signalled = Date.now();
    portal.child.kill("SIGTERM");
    // The listener closes once the process has handled the signal: wait for that (on a loaded machine it may take
    // longer than a fixed pause), well within the 5 s the whole shutdown is given below.
    const healthz = () => fetch(`${portal.base}/healthz`, { headers: { Connection: "close" } });
    await waitFor(
      "the listener closed",
      () =>
        healthz().then(
          () => "open",
          () => "closed",
        ),
      (state) => state === "closed",
      4_000,
      50,
    );
    await expect(healthz()).rejects.toThrow();

    const answer = await underWay;
    expect(answer.status).toBe(200);
    expect(answer.html).toContain("Fake City");
    expect(answer.html).toMatch(/<\/html>$/);

    expect(await portal.exited).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(5_000);
    expect(portal.output()).toMatch(/SIGTERM: not accepting connections/);
  } finally {
    await portal.stop();
  }
});

it("SIGTERM on an idle server: it exits at once", async () => {
  const portal = await startPortal({ VUEAPI_URL: fake.url });
  fake.setFault({ kind: "ok" });
  expect((await fetch(`${portal.base}/g/main/index`)).status).toBe(200);
  const signalled = Date.now();
  portal.child.kill("SIGTERM");
  expect(await portal.exited).toBe(0);
  // The render's abort timer (ten seconds) once kept it alive that long.
  expect(Date.now() - signalled).toBeLessThan(2_000);
});

it("a port already in use: not started, exit 1 and a plain sentence, no unhandled 'error' event", async () => {
  const portal = await startPortal({ VUEAPI_URL: fake.url });
  try {
    const port = new URL(portal.base).port;
    const second = startPortal({ VUEAPI_URL: fake.url, PORT: port });
    await expect(second).rejects.toThrow(`[server] not started: 127.0.0.1 port ${port} is already in use`);
    await expect(second).rejects.not.toThrow(/Unhandled 'error' event|\n\s+at /);
    // The first server is untouched.
    expect((await fetch(`${portal.base}/healthz`)).ok).toBe(true);
  } finally {
    await portal.stop();
  }
});
