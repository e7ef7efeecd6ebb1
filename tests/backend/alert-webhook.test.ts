import { createHmac } from "node:crypto";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { Msg } from "#contract/messages.ts";
import { alertWebhooks } from "#backend/domains/alerts/tables.ts";
import { activeUser, call } from "./client.ts";
import { callVueapi, inProcessVueapi, insertedUser, sessionOf } from "./in-process.ts";

/**
 * The account's alert webhook (issue 35 §1, docs/decisions/092), against the suite's server, which trusts this run's
 * test certificate through NODE_EXTRA_CA_CERTS and allows loopback webhooks (WEBHOOK_ALLOW_LOOPBACK=1,
 * tests/backend/global-setup.ts): a local HTTPS receiver gets each alert signed; a failed attempt is retried; a
 * redirect and a slow answer are failures; two attempts at once deliver once; refused addresses are field errors; an
 * account never sees or changes another's. Then an in-process server without the allowance refuses the same address.
 */

type Received = { headers: Record<string, string | string[] | undefined>; body: string; path: string };
let receiver: Server;
let hookUrl = "";
const received: Received[] = [];
/** How the receiver answers the next requests. */
let answer: { status: number; location?: string; delayMs?: number } = { status: 200 };
const hanging = new Set<() => void>();

beforeAll(async () => {
  receiver = createServer({ cert: inject("tlsCert"), key: inject("tlsKey") }, (req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c));
    req.on("end", () => {
      received.push({ headers: req.headers, body, path: req.url ?? "" });
      const { status, location, delayMs } = answer;
      const reply = () => res.writeHead(status, location ? { location } : {}).end("ok");
      if (!delayMs) return reply();
      const timer = setTimeout(reply, delayMs);
      hanging.add(() => clearTimeout(timer));
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  hookUrl = `https://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/bsn`;
});

afterAll(async () => {
  for (const stop of hanging) stop();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

async function ok(p: string, body: object, token: string) {
  const reply = await call(p, body, token);
  expect(reply.code, `${p}: ${JSON.stringify(reply)}`).toBe(0);
  return reply.data;
}

const deliveries = async (token: string) => (await ok("/sys/alerts/webhook/deliveries", {}, token)).page.rows;

/** Waits until the newest delivery satisfies `done` (the server's job loop runs every 200 ms). */
async function until(token: string, done: (row: any) => boolean, ms = 15_000) {
  const end = Date.now() + ms;
  for (;;) {
    const [row] = await deliveries(token);
    if (row && done(row)) return row;
    if (Date.now() > end) throw new Error(`delivery not as expected: ${JSON.stringify(row)}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

function verify(r: Received, secret: string) {
  const header = String(r.headers["x-bsn-signature"]);
  const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header) ?? [];
  expect(t, header).toBeDefined();
  expect(createHmac("sha256", secret).update(`${t}.${r.body}`).digest("hex")).toBe(v1);
}

async function withWebhook() {
  const user = await activeUser("whk");
  await ok("/sys/alerts/webhook/save", { url: hookUrl }, user.token);
  const { webhook } = await ok("/sys/alerts/webhook", {}, user.token);
  return { ...user, secret: webhook.secret as string };
}

describe("alert webhook over HTTPS (issue 35 §1)", () => {
  it("an alert told is POSTed signed with the account's secret, and listed as delivered", async () => {
    answer = { status: 200 };
    const me = await withWebhook();
    const got = await ok("/sys/alerts/webhook", {}, me.token);
    expect(got.webhook.url).toBe(hookUrl);
    expect(got.webhook.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(got.testMode).toBe(true);
    expect(await deliveries(me.token)).toEqual([]);

    await ok("/test/fixtures", { bills: [{ serviceName: "Hooked ledger", totalCents: 1_250 }] }, me.token);
    const before = received.length;
    await ok("/sys/alerts/save", { monthlyBudget: "20" }, me.token);
    const row = await until(me.token, (r) => r.status === "delivered");
    expect(row).toMatchObject({ event: "budget", attempts: 1, lastStatus: 200, lastError: null, nextAt: null });
    const [firing] = (await ok("/sys/alerts/history", {}, me.token)).page.rows;
    expect(row.firingId).toBe(firing.id);

    const mine = received.slice(before).filter((r) => JSON.parse(r.body).firingId === firing.id);
    expect(mine).toHaveLength(1);
    verify(mine[0], me.secret);
    expect(mine[0].path).toBe("/hooks/bsn");
    expect(mine[0].headers["content-type"]).toBe("application/json");
    expect(mine[0].headers["x-bsn-event"]).toBe("budget");
    expect(JSON.parse(mine[0].body)).toMatchObject({
      event: "budget",
      firingId: firing.id,
      threshold: 50,
      value: 1_250,
      limit: 2_000,
      period: firing.period,
      deliveryId: row.id,
      attempt: 1,
      link: `/g/home/userCenter/Alerts?alertId=${firing.id}`,
    });
    // Signed with this account's secret, not another's: a wrong secret does not verify.
    expect(() => verify(mine[0], "whsec_other")).toThrow();
  });

  it("a 500 is retried with backoff and then delivered; a rotated secret signs the retry", async () => {
    const me = await withWebhook();
    answer = { status: 500 };
    const { deliveryId } = await ok("/sys/alerts/webhook/test", {}, me.token);
    const failed = await until(me.token, (r) => r.attempts === 1 && r.lastStatus === 500);
    expect(failed).toMatchObject({ id: deliveryId, event: "test", status: "pending", lastError: "answered HTTP 500" });
    const wait = Date.parse(failed.nextAt) - Date.parse(failed.updatedAt);
    expect(wait).toBeGreaterThanOrEqual(59_000);
    expect(wait).toBeLessThanOrEqual(61_000);

    await ok("/sys/alerts/webhook/rotate", {}, me.token);
    const rotated = (await ok("/sys/alerts/webhook", {}, me.token)).webhook.secret;
    expect(rotated).not.toBe(me.secret);
    answer = { status: 204 };
    const before = received.length;
    expect((await ok("/test/alerts/webhookDue", {}, me.token)).attempted).toBe(1);
    const [row] = await deliveries(me.token);
    expect(row).toMatchObject({ status: "delivered", attempts: 2, lastStatus: 204, lastError: null });
    const retry = received.slice(before).find((r) => JSON.parse(r.body).deliveryId === deliveryId)!;
    verify(retry, rotated);
    expect(JSON.parse(retry.body).attempt).toBe(2);
  });

  it("a redirect is a failure and is not followed", async () => {
    const me = await withWebhook();
    answer = { status: 302, location: `${hookUrl}/elsewhere` };
    const before = received.length;
    const { deliveryId } = await ok("/sys/alerts/webhook/test", {}, me.token);
    // The attempt is counted when it is claimed; its answer is recorded after: wait for the answer.
    const row = await until(me.token, (r) => r.attempts === 1 && r.lastStatus !== null);
    expect(row).toMatchObject({ status: "pending", lastStatus: 302, lastError: "redirect refused (HTTP 302)" });
    const mine = received.slice(before).filter((r) => r.body.includes(`"deliveryId":${deliveryId}`));
    expect(mine.map((r) => r.path)).toEqual(["/hooks/bsn"]);
  });

  it("no answer within 5 s is a failure", async () => {
    const me = await withWebhook();
    answer = { status: 200, delayMs: 8_000 };
    const started = Date.now();
    await ok("/sys/alerts/webhook/test", {}, me.token);
    const row = await until(me.token, (r) => r.attempts === 1 && r.lastError !== null, 20_000);
    expect(row).toMatchObject({ status: "pending", lastStatus: null, lastError: "no answer within 5 s" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_900);
    answer = { status: 200 };
  }, 40_000);

  it("two attempts at once deliver once", async () => {
    const me = await withWebhook();
    answer = { status: 503 };
    const { deliveryId } = await ok("/sys/alerts/webhook/test", {}, me.token);
    await until(me.token, (r) => r.attempts === 1 && r.lastStatus === 503);
    answer = { status: 200 };
    const before = received.length;
    const both = await Promise.all([
      ok("/test/alerts/webhookDue", {}, me.token),
      ok("/test/alerts/webhookDue", {}, me.token),
    ]);
    expect(both.map((b) => b.attempted).sort()).toEqual([0, 1]);
    const [row] = await deliveries(me.token);
    expect(row).toMatchObject({ id: deliveryId, status: "delivered", attempts: 2 });
    expect(received.slice(before).filter((r) => r.body.includes(`"deliveryId":${deliveryId}`))).toHaveLength(1);
  });

  it("refuses http, private, link-local and the portal's own address at the field", async () => {
    const me = await activeUser("whr");
    const portal = new URL(inject("baseUrl"));
    const cases: [string, string][] = [
      ["http://example.com/hook", "validation.webhook.https"],
      ["https://10.1.2.3/hook", "validation.webhook.private"],
      ["https://192.168.0.10/hook", "validation.webhook.private"],
      ["https://169.254.169.254/latest", "validation.webhook.linkLocal"],
      ["https://[fe80::1]/hook", "validation.webhook.linkLocal"],
      [`https://127.0.0.1:${portal.port}/vueapi`, "validation.webhook.own"],
    ];
    for (const [url, key] of cases) {
      const reply = await call("/sys/alerts/webhook/save", { url }, me.token);
      expect(reply.code, url).not.toBe(0);
      expect(reply.data?.fieldErrors?.url, url).toEqual([key]);
    }
    expect((await ok("/sys/alerts/webhook", {}, me.token)).webhook).toBeNull();
    // Nothing to send to: the test event is refused.
    expect((await call("/sys/alerts/webhook/test", {}, me.token)).message).toBe(Msg.NOT_FOUND);
  });

  it("another account never sees or changes mine; deleting fails what was pending", async () => {
    const me = await withWebhook();
    const other = await activeUser("who");
    answer = { status: 500 };
    await ok("/sys/alerts/webhook/test", {}, me.token);
    await until(me.token, (r) => r.attempts === 1 && r.lastStatus !== null);
    expect((await ok("/sys/alerts/webhook", {}, other.token)).webhook).toBeNull();
    expect(await deliveries(other.token)).toEqual([]);
    for (const p of ["/sys/alerts/webhook/rotate", "/sys/alerts/webhook/delete", "/sys/alerts/webhook/test"])
      expect((await call(p, {}, other.token)).message, p).toBe(Msg.NOT_FOUND);
    expect((await ok("/test/alerts/webhookDue", {}, other.token)).attempted).toBe(0);
    expect((await ok("/sys/alerts/webhook", {}, me.token)).webhook.secret).toBe(me.secret);
    expect((await deliveries(me.token))[0]).toMatchObject({ status: "pending", attempts: 1 });

    await ok("/sys/alerts/webhook/delete", {}, me.token);
    expect((await ok("/sys/alerts/webhook", {}, me.token)).webhook).toBeNull();
    expect((await deliveries(me.token))[0]).toMatchObject({ status: "failed", lastError: "the webhook was removed" });
    answer = { status: 200 };
  });
});

describe("without the loopback allowance (production's rule)", () => {
  const service = inProcessVueapi("alert-webhook", {
    DEMO: "0",
    TEST_FIXTURES: "1",
    WEBHOOK_ALLOW_LOOPBACK: undefined,
  });

  it("refuses the same loopback address at save and before an attempt", async () => {
    const id = await insertedUser(service, `whl${Date.now()}`);
    const token = await sessionOf(service, id);
    const post = (p: string, body: object = {}) => callVueapi(service, p, body, token);
    const saved = await post("/sys/alerts/webhook/save", { url: hookUrl });
    expect(saved.data?.fieldErrors?.url).toEqual(["validation.webhook.loopback"]);
    expect((await post("/sys/alerts/webhook")).data).toEqual({ webhook: null, testMode: false });

    // A row written before the rule (or by hand) is still refused when an attempt is made: nothing is sent.
    const now = new Date();
    await service.services.db
      .insert(alertWebhooks)
      .values({ accountId: id, url: hookUrl, secret: "whsec_x", createdAt: now, updatedAt: now });
    const before = received.length;
    expect((await post("/sys/alerts/webhook/test")).code).toBe(0);
    expect((await post("/test/alerts/webhookDue")).data.attempted).toBe(1);
    const [row] = (await post("/sys/alerts/webhook/deliveries")).data.page.rows;
    expect(row).toMatchObject({
      status: "pending",
      attempts: 1,
      lastStatus: null,
      lastError: "address refused: loopback",
    });
    expect(received.length).toBe(before);
  });
});
