import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { appNodes, appVersions } from "#backend/domains/services/tables.ts";
import { bills, ledgerEntries } from "#backend/domains/billing/tables.ts";
import { jobs, users } from "#backend/db/tables.ts";
import { totalsOf } from "#backend/domains/billing/ledger.ts";
import { verifyInvitation } from "#backend/domains/services/invite.ts";
import { callVueapi, DEMO_PASSWORD, inProcessVueapi, loginToken, registeredUser, type Reply } from "./in-process.ts";

// The service lifecycle through the /vueapi protocol, in-process with a movable clock and the job loop
// off: the test runs the due jobs itself (runJobs), like tests/backend/expiry.test.ts.
let clock = new Date("2026-07-01T00:00:00Z");
const service = inProcessVueapi(
  "services",
  { TEST_CAPTCHA: "SVC1", DEMO: "1", TEST_FIXTURES: "1", JOBS_INTERVAL_MS: "0" },
  () => clock,
);
const later = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};
const DAY = 24 * 60 * 60 * 1000;

/** Logins last 12 hours; when the test moves the clock further, a token is quietly renewed. */
const logins = new Map<string, { username: string; password: string; at: number; current: string }>();
async function post(p: string, body: object = {}, given?: string): Promise<Reply> {
  let token = given;
  const known = given ? logins.get(given) : undefined;
  if (known && clock.getTime() - known.at > 11 * 60 * 60 * 1000) {
    known.current = await loginToken(service, known.username, known.password);
    known.at = clock.getTime();
  }
  if (known) token = known.current;
  return callVueapi(service, p, body, token);
}
async function loginAs(username: string, password = DEMO_PASSWORD) {
  const token = await loginToken(service, username, password);
  logins.set(token, { username, password, at: clock.getTime(), current: token });
  return token;
}
let seq = 0;
/** A fresh activated user (registered through the API, activated directly in the database), logged in. */
async function freshUser() {
  seq += 1;
  const { userName, password } = await registeredUser(service, "svc");
  return loginAs(userName, password);
}
const fixture = async (token: string, body: object = {}) => {
  const res = await post("/test/services", body, token);
  expect(res.code, JSON.stringify(res)).toBe(0);
  return res.data as { appId: number; appVerId: number; name: string };
};
const detail = async (token: string, appId: number, appVerId?: number) =>
  (await post("/sys/chainAppInfo/publishedDetail", { appId, appVerId }, token)).data;
const decide = (op: string, appVerId: number, decision: "approve" | "reject", comments?: string) =>
  post("/sys/ops/serviceReviews/decide", { appVerId, decision, comments }, op);
const key = () => `k${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`.padEnd(20, "x");

let operator: string;
beforeAll(async () => {
  operator = await loginAs("demooperator");
});

describe("the lifecycle from submission to running", () => {
  it("initial review, test job, final review, payment and deployment, each job once", async () => {
    const pub = await freshUser();
    const { appId, appVerId } = await fixture(pub, { costCents: 5000 });
    expect((await detail(pub, appId)).verState).toBe(5);

    const queue = await post("/sys/ops/serviceReviews/list", { queue: "initial" }, operator);
    const item = queue.data.page.rows.find((r: any) => r.appVerId === appVerId);
    expect(item.contents.packages).toHaveLength(2);
    expect(item.contents.functions.length).toBeGreaterThan(0);
    expect(item.contents.roles[0].functions.length).toBeGreaterThan(0);
    expect(item.contents.nodes).toHaveLength(2);
    expect(item.costCents).toBe(5000);
    // The queue narrows to a name (part of it, any case); a LIKE wildcard is taken literally.
    const byName = await post(
      "/sys/ops/serviceReviews/list",
      { queue: "initial", name: item.name.slice(1).toUpperCase() },
      operator,
    );
    expect(byName.data.page.rows.map((r: any) => r.appVerId)).toContain(appVerId);
    expect(byName.data.page.total).toBe(byName.data.page.rows.length);
    const wildcard = await post("/sys/ops/serviceReviews/list", { queue: "initial", name: "%" }, operator);
    expect(wildcard.data.page).toMatchObject({ rows: [], total: 0 });

    expect((await decide(operator, appVerId, "approve")).data.verState).toBe(10);
    // Approving again is refused: it was reviewed.
    expect((await decide(operator, appVerId, "approve")).message).toBe("MSG_30013");
    await service.runJobs();
    expect((await detail(pub, appId)).verState).toBe(15);
    const testJobs = await service.services.db.select().from(jobs).where(eq(jobs.kind, "service.test"));
    expect(testJobs.filter((j) => (j.payload as any).verId === appVerId)).toHaveLength(1);

    const final = await post("/sys/ops/serviceReviews/list", { queue: "final" }, operator);
    const finalItem = final.data.page.rows.find((r: any) => r.appVerId === appVerId);
    expect(finalItem.contents.testReport).toMatchObject({ passed: true, reasons: [] });
    expect((await decide(operator, appVerId, "approve")).data.verState).toBe(23);
    const toPay = await detail(pub, appId);
    expect(toPay).toMatchObject({ verState: 23, billState: 1, bill: { payState: 1, totalCents: 5000 } });
    expect(new Date(toPay.bill.deadline).getTime() - clock.getTime()).toBe(3 * DAY);

    // Not enough balance: MSG_30001 and nothing changes.
    const k = key();
    expect((await post("/sys/chainAppInfo/payPublishBill", { appVerId, idempotencyKey: k }, pub)).message).toBe(
      "MSG_30001",
    );
    expect((await detail(pub, appId)).verState).toBe(23);
    expect((await post("/test/fixtures", { grantCents: 8000 }, pub)).code).toBe(0);
    const [paid, again] = await Promise.all([
      post("/sys/chainAppInfo/payPublishBill", { appVerId, idempotencyKey: k }, pub),
      post("/sys/chainAppInfo/payPublishBill", { appVerId, idempotencyKey: key() }, pub),
    ]);
    expect(paid.code, JSON.stringify(paid)).toBe(0);
    expect(again.code, JSON.stringify(again)).toBe(0);
    expect([paid.data.replayed, again.data.replayed].sort()).toEqual([false, true]);
    const userId = (
      await service.services.db
        .select()
        .from(users)
        .where(eq(users.id, (await post("/main/getClientInfo", {}, pub)).data.userId))
    )[0].id;
    expect((await totalsOf(service.services.db, userId)).balanceCents).toBe(3000);
    const payments = await service.services.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.userId, userId), eq(ledgerEntries.kind, "bill_payment")));
    expect(payments).toHaveLength(1);
    const afterPay = await detail(pub, appId);
    expect(afterPay).toMatchObject({ verState: 24, billState: 15, bill: { payState: 15 } });

    await service.runJobs();
    await service.runJobs();
    const running = await detail(pub, appId);
    expect(running.verState).toBe(25);
    expect(running.publishedAt).not.toBeNull();
    expect(running.currentVerId).toBe(appVerId);
    for (const n of running.contents.nodes) expect(n.bookedAt).not.toBeNull();
    // Deployment per node (docs/decisions/052): each node an endpoint on the service's chain, no made-up address.
    for (const n of running.deployment) {
      expect(n).toMatchObject({ status: "running", height: expect.any(Number) });
      expect(n).not.toHaveProperty("contractAddress");
    }
    expect(running.transitions.map((t: any) => t.event)).toEqual([
      "submit",
      "initialApprove",
      "testPass",
      "finalApprove",
      "pay",
      "deploySuccess",
    ]);
    const deployJobs = await service.services.db.select().from(jobs).where(eq(jobs.kind, "service.deploy"));
    expect(deployJobs.filter((j) => (j.payload as any).verId === appVerId)).toHaveLength(1);
    // The expiry job of the paid bill does nothing after 3 days.
    later(3 * DAY + 2000);
    await service.runJobs();
    expect((await detail(pub, appId)).verState).toBe(25);

    // Deactivate, enable; invite only when running.
    expect((await post("/sys/chainAppInfo/enable", { appVerId }, pub)).message).toBe("MSG_36001");
    expect((await post("/sys/chainAppInfo/deactivate", { appVerId }, pub)).code).toBe(0);
    expect((await detail(pub, appId)).verState).toBe(30);
    expect((await post("/sys/chainAppInfo/deactivate", { appVerId }, pub)).message).toBe("MSG_36001");
    expect((await post("/sys/chainAppInfo/invite", { appVerId }, pub)).message).toBe("MSG_38002");
    expect((await post("/sys/chainAppInfo/enable", { appVerId }, pub)).code).toBe(0);
    const link = await post("/sys/chainAppInfo/invite", { appVerId, language: "zh-CN" }, pub);
    expect(link.data.path).toMatch(
      /^\/g\/home\/ParticipatedServices\/JOIN\?a=\d+&b=APP[0-9A-F]+&c=[\w-]{22}&d=\d+&e=zh-CN$/,
    );
    const query = new URL(link.data.path, "http://x").searchParams;
    expect(verifyInvitation(service.services.env, query, clock)).toMatchObject({ appId, language: "zh-CN" });
    query.set("a", String(appId + 1));
    expect(verifyInvitation(service.services.env, query, clock)).toBeNull();

    // Unsubscribe → refund review → uninstalled, bookings released, unused part refunded.
    const unsub = await post("/sys/chainAppInfo/unsubscribe", { appVerId, reason: "No longer needed" }, pub);
    expect(unsub.code, JSON.stringify(unsub)).toBe(0);
    expect((await post("/sys/chainAppInfo/unsubscribe", { appVerId }, pub)).message).toBe("MSG_38001");
    const refunds = await post("/sys/ops/refunds/list", { state: 1 }, operator);
    const refund = refunds.data.page.rows.find((r: any) => r.refundId === unsub.data.refundId);
    expect(refund.amountCents).toBeGreaterThan(0);
    expect(refund.amountCents).toBeLessThan(5000);
    expect(
      (await post("/sys/ops/refunds/decide", { refundId: refund.refundId, decision: "reject" }, operator)).message,
    ).toBe("MSG_30014");
    expect(
      (await post("/sys/ops/refunds/decide", { refundId: refund.refundId, decision: "approve" }, operator)).data.state,
    ).toBe(10);
    expect(
      (await post("/sys/ops/refunds/decide", { refundId: refund.refundId, decision: "approve" }, operator)).message,
    ).toBe("MSG_30013");
    const gone = await detail(pub, appId);
    expect(gone.verState).toBe(35);
    expect(gone.contents.nodes.every((n: any) => n.bookedAt === null)).toBe(true);
    expect((await totalsOf(service.services.db, userId)).balanceCents).toBe(3000 + refund.amountCents);
    const [bill] = await service.services.db.select().from(bills).where(eq(bills.id, gone.bill.billId));
    expect(bill.payState).toBe(25);
  });

  it("rejections need comments, and the publisher sees them in the approval records", async () => {
    const pub = await freshUser();
    const { appId, appVerId } = await fixture(pub);
    expect((await decide(operator, appVerId, "reject")).message).toBe("MSG_30014");
    expect((await decide(operator, appVerId, "reject", "   ")).message).toBe("MSG_30014");
    expect((await decide(operator, appVerId, "reject", "The description is too short.")).data.verState).toBe(20);
    const d = await detail(pub, appId);
    expect(d.transitions.at(-1)).toMatchObject({
      event: "initialReject",
      comments: "The description is too short.",
      actorKind: "operator",
      actorName: null,
    });
    const second = await fixture(pub, { verState: 15 });
    expect((await decide(operator, second.appVerId, "reject", "Roles are unclear.")).data.verState).toBe(22);
    const row = (
      await post("/sys/chainAppInfo/publishedList", { page: { pageSize: 10, pageIndex: 1, condition: {} } }, pub)
    ).data.page.rows.find((r: any) => r.appVerId === second.appVerId);
    expect(row.verState).toBe(22);
  });

  it("a free service skips payment and deploys after the final approval", async () => {
    const pub = await freshUser();
    const { appId, appVerId } = await fixture(pub, { verState: 15, free: true });
    expect((await decide(operator, appVerId, "approve")).data.verState).toBe(24);
    await service.runJobs();
    expect((await detail(pub, appId)).verState).toBe(25);
  });
});

describe("the test job checks the packages for real", () => {
  const cases = [
    ["zip", "report.zipInvalid"],
    ["mainPath", "report.mainPathMissing"],
    ["language", "report.languageMismatch"],
    ["func", "report.funcMissing"],
    ["size", "report.zipTooLarge"],
  ] as const;
  for (const [badPackage, reason] of cases) {
    it(`a ${badPackage} problem fails the test with ${reason} and a suggestion`, async () => {
      const pub = await freshUser();
      const { appId } = await fixture(pub, { verState: 10, badPackage });
      await service.runJobs();
      const d = await detail(pub, appId);
      expect(d.verState).toBe(11);
      expect(d.contents.testReport.passed).toBe(false);
      expect(d.contents.testReport.reasons.map((r: any) => r.key)).toContain(reason);
      expect(d.contents.testReport.suggestion.key).toMatch(/^report\.suggest\./);
      if (badPackage === "func") expect(d.contents.testReport.reasons[0].params.funcs).toContain("ReadAsset");
    });
  }
});

describe("deployment books node resources", () => {
  it("fails with Insufficient resources and books nothing when a node has too little left", async () => {
    const pub = await freshUser();
    const { appId, appVerId } = await fixture(pub, { verState: 23, tps: 2800, nodeCount: 2 });
    expect((await post("/test/fixtures", { grantCents: 20_000 }, pub)).code).toBe(0);
    expect((await post("/sys/chainAppInfo/payPublishBill", { appVerId, idempotencyKey: key() }, pub)).code).toBe(0);
    await service.runJobs();
    const d = await detail(pub, appId);
    expect(d.verState).toBe(26);
    expect(d.contents.deployReport.reasons[0].key).toBe("report.insufficientResources");
    expect(d.contents.deployReport.reasons.map((r: any) => r.params.node)).toContain("Shanghai");
    expect(d.contents.deployReport.suggestion.key).toBe("report.suggest.resources");
    const booked = await service.services.db.select().from(appNodes).where(eq(appNodes.verId, appVerId));
    expect(booked.every((n) => n.bookedAt === null)).toBe(true);
    // Edit is offered at 26 (the wizard's mod2); the publisher may not pay or deactivate.
    expect((await post("/sys/chainAppInfo/deactivate", { appVerId }, pub)).message).toBe("MSG_36001");
  });

  it("counts what running versions booked", async () => {
    const pub = await freshUser();
    // Beijing has 3000 TPS; earlier tests leave some booked. Take most of what is left, then ask again.
    const first = await fixture(pub, { verState: 25, free: false, tps: 1000, nodeCount: 1 });
    expect((await detail(pub, first.appId)).verState).toBe(25);
    const second = await fixture(pub, { verState: 25, tps: 2500, nodeCount: 1 });
    const d = await detail(pub, second.appId);
    expect(d.verState).toBe(26);
    const left = Number(d.contents.deployReport.reasons[0].params.tpsLeft);
    expect(left).toBeLessThanOrEqual(2000);
    expect(left).toBeGreaterThan(0);
  });
});

describe("payment expiry", () => {
  it("an unpaid publish bill expires after 3 days: bill 10, version back to 1, paying is refused", async () => {
    const pub = await freshUser();
    const { appId, appVerId } = await fixture(pub, { verState: 23 });
    later(3 * DAY - 60_000);
    await service.runJobs();
    expect((await detail(pub, appId, appVerId)).verState).toBe(23);
    later(2 * 60_000);
    expect((await post("/sys/chainAppInfo/payPublishBill", { appVerId, idempotencyKey: key() }, pub)).message).toBe(
      "MSG_30006",
    );
    await service.runJobs();
    const d = await detail(pub, appId, appVerId);
    expect(d.verState).toBe(1);
    expect(d.billState).toBe(10);
    expect(d.bill.payState).toBe(10);
    expect(d.transitions.at(-1).event).toBe("expire");
    // A draft again (1): the list no longer shows it, the detail by version still does.
    const list = await post(
      "/sys/chainAppInfo/publishedList",
      { page: { pageSize: 50, pageIndex: 1, condition: {} } },
      pub,
    );
    expect(list.data.page.rows.some((r: any) => r.appVerId === appVerId)).toBe(false);
  });
});

describe("who may do what", () => {
  it("operator paths answer code 4 to users", async () => {
    const pub = await freshUser();
    for (const p of [
      "/sys/ops/serviceReviews/list",
      "/sys/ops/serviceReviews/decide",
      "/sys/ops/refunds/list",
      "/sys/ops/refunds/decide",
    ]) {
      const res = await post(p, { queue: "initial", appVerId: 1, refundId: 1, decision: "approve" }, pub);
      expect(res.code, p).toBe(4);
    }
  });

  it("a publisher never sees or changes another's service", async () => {
    const owner = await freshUser();
    const other = await freshUser();
    const { appId, appVerId } = await fixture(owner, { verState: 25, comments: ["Nice service"] });
    expect((await post("/sys/chainAppInfo/publishedDetail", { appId }, other)).message).toBe("MSG_10002");
    for (const p of [
      "/sys/chainAppInfo/deactivate",
      "/sys/chainAppInfo/enable",
      "/sys/chainAppInfo/unsubscribe",
      "/sys/chainAppInfo/invite",
    ]) {
      expect((await post(p, { appVerId }, other)).message, p).toBe("MSG_10002");
    }
    expect((await post("/sys/chainAppInfo/payPublishBill", { appVerId, idempotencyKey: key() }, other)).message).toBe(
      "MSG_10002",
    );
    const list = await post("/sys/chainAppInfo/publishedList", {}, other);
    expect(list.data.page.total).toBe(0);
    const commentId = (await detail(owner, appId)).comments[0].commentId;
    expect((await post("/sys/chainAppInfo/replyComment", { appId, commentId, reply: "Thanks" }, other)).message).toBe(
      "MSG_10002",
    );
    expect((await post("/sys/chainAppInfo/replyComment", { appId, commentId, reply: "" }, owner)).message).toBe(
      "MSG_10001",
    );
    expect((await post("/sys/chainAppInfo/replyComment", { appId, commentId, reply: "Thanks!" }, owner)).code).toBe(0);
    expect((await post("/sys/chainAppInfo/replyComment", { appId, commentId, reply: "Again" }, owner)).message).toBe(
      "MSG_38003",
    );
    expect((await detail(owner, appId)).comments[0].reply).toBe("Thanks!");
  });

  it("the list searches by name and pages", async () => {
    const pub = await freshUser();
    await fixture(pub, { name: `Alpha ${seq}x` });
    await fixture(pub, { name: `Beta ${seq}x` });
    const found = await post(
      "/sys/chainAppInfo/publishedList",
      { page: { pageSize: 1, pageIndex: 1, condition: { name: "alpha" } } },
      pub,
    );
    expect(found.data.page.total).toBe(1);
    const paged = await post(
      "/sys/chainAppInfo/publishedList",
      { page: { pageSize: 1, pageIndex: 2, condition: {} } },
      pub,
    );
    expect(paged.data.page).toMatchObject({ total: 2, pageIndex: 2 });
    expect(paged.data.page.rows).toHaveLength(1);
  });

  it("the demo company has a running service with booked nodes and comments, one to be paid and one suspended", async () => {
    const company = await loginAs("democompany");
    const rows = (await post("/sys/chainAppInfo/publishedList", {}, company)).data.page.rows;
    expect(rows.map((r: any) => r.verState).sort()).toEqual([23, 25, 40]);
    const running = await detail(company, rows.find((r: any) => r.verState === 25).appId);
    expect(running.contents.nodes).toHaveLength(2);
    expect(running.contents.nodes.every((n: any) => n.bookedAt)).toBe(true);
    // The market's supply_trace on Fabric, its chaincode installed on the embedded peer (docs/decisions/064, 070):
    // each booked node serves the service's channel.
    expect(running.framework).toBe("fabric");
    expect(running.deployment.every((n: any) => n.status === "running" && n.height > 0 && n.endpoint)).toBe(true);
    expect(running.comments.length).toBeGreaterThan(0);
    expect(running.transitions.length).toBe(6);
    const suspended = await detail(company, rows.find((r: any) => r.verState === 40).appId);
    expect(suspended.transitions.at(-1)).toMatchObject({ event: "suspend", actorKind: "operator" });
    expect(suspended.transitions.at(-1).comments).toBeTruthy();
    expect(suspended.enableRequestedAt).toBeNull();
  });

  it("a version at 1 is not deployed or paid by a stray job", async () => {
    const rows = await service.services.db.select().from(appVersions).where(eq(appVersions.verState, 1));
    expect(rows.every((r) => r.publishedAt === null)).toBe(true);
  });
});

describe("operator suspension and the publisher's request to enable (docs/decisions/015)", () => {
  const ops = (appVerId: number, decision: "suspend" | "enable" | "decline", comments?: string, token = operator) =>
    post("/sys/ops/services/decide", { appVerId, decision, comments }, token);
  const request = (appVerId: number, token: string, note?: string) =>
    post("/sys/chainAppInfo/requestEnable", { appVerId, note }, token);
  const queue = async (filter: string, name: string) =>
    (await post("/sys/ops/services/list", { filter, name }, operator)).data.page;
  const inbox = async (token: string) =>
    (await post("/sys/system/message/list", { page: { pageSize: 50, pageIndex: 1, condition: {} } }, token)).data.page
      .rows;

  it("suspend with comments, one request at a time, decline with comments, enable; each recorded and messaged", async () => {
    const pub = await freshUser();
    const other = await freshUser();
    const { appId, appVerId, name } = await fixture(pub, { verState: 25 });
    const publisherName = (await post("/main/getClientInfo", {}, pub)).data.userName;

    // Operators only.
    expect((await post("/sys/ops/services/list", {}, pub)).code).toBe(4);
    expect((await ops(appVerId, "suspend", "Spam.", pub)).code).toBe(4);
    expect((await detail(pub, appId)).verState).toBe(25);

    const listed = await queue("running", name);
    expect(listed.rows).toHaveLength(1);
    expect(listed.rows[0]).toMatchObject({
      appVerId,
      name,
      verState: 25,
      publisher: publisherName,
      suspendComments: null,
      enableRequestedAt: null,
    });
    expect(Date.parse(listed.rows[0].since)).toBeLessThanOrEqual(clock.getTime());

    // Suspending needs comments; the publisher may not ask before there is a suspension.
    expect((await ops(appVerId, "suspend")).message).toBe("MSG_30014");
    expect((await ops(appVerId, "suspend", "   ")).message).toBe("MSG_30014");
    expect((await request(appVerId, pub)).message).toBe("MSG_36001");
    later(60_000);
    expect((await ops(appVerId, "suspend", "Reported for spam transactions.")).data.verState).toBe(40);
    expect((await ops(appVerId, "suspend", "Again.")).message).toBe("MSG_36001");
    const suspended = await detail(pub, appId);
    expect(suspended.verState).toBe(40);
    expect(suspended.transitions.at(-1)).toMatchObject({
      event: "suspend",
      fromState: 25,
      toState: 40,
      actorKind: "operator",
      actorName: null,
      comments: "Reported for spam transactions.",
    });
    expect((await queue("suspended", name)).rows[0]).toMatchObject({
      verState: 40,
      suspendComments: "Reported for spam transactions.",
      since: clock.toISOString(),
    });
    expect((await queue("running", name)).total).toBe(0);

    // At 40 the publisher's Enable is a request; their old immediate path stays refused.
    expect((await post("/sys/chainAppInfo/enable", { appVerId }, pub)).message).toBe("MSG_36002");
    expect((await ops(appVerId, "decline", "Nothing to decline.")).message).toBe("MSG_36005");
    expect((await request(appVerId, other)).message).toBe("MSG_10002");
    expect((await request(appVerId, pub, "x".repeat(201))).message).toBe("MSG_10001");
    later(60_000);
    expect((await request(appVerId, pub, "  We removed the spam accounts.  ")).code).toBe(0);
    expect((await request(appVerId, pub, "Please hurry.")).message).toBe("MSG_36004");
    const requested = await detail(pub, appId);
    expect(requested).toMatchObject({
      verState: 40,
      enableRequestedAt: clock.toISOString(),
      enableRequestNote: "We removed the spam accounts.",
    });
    expect(requested.transitions.filter((t: any) => t.event === "requestEnable")).toHaveLength(1);
    expect(requested.transitions.at(-1)).toMatchObject({
      event: "requestEnable",
      actorKind: "publisher",
      actorName: publisherName,
      comments: "We removed the spam accounts.",
    });
    const pending = await queue("requested", name);
    expect(pending.rows).toHaveLength(1);
    expect(pending.rows[0]).toMatchObject({
      appVerId,
      enableRequestedAt: clock.toISOString(),
      enableRequestNote: "We removed the spam accounts.",
      suspendComments: "Reported for spam transactions.",
    });
    // The request does not restart "suspended since".
    expect(Date.parse(pending.rows[0].since)).toBe(clock.getTime() - 60_000);

    // Declining needs comments, keeps 40 and closes the request; a new request may follow.
    expect((await ops(appVerId, "decline")).message).toBe("MSG_30014");
    expect((await ops(appVerId, "decline", "Some spam accounts remain.")).data.verState).toBe(40);
    const declined = await detail(pub, appId);
    expect(declined).toMatchObject({ verState: 40, enableRequestedAt: null, enableRequestNote: null });
    expect(declined.transitions.at(-1)).toMatchObject({
      event: "declineEnable",
      fromState: 40,
      toState: 40,
      actorKind: "operator",
      comments: "Some spam accounts remain.",
    });
    expect((await queue("requested", name)).total).toBe(0);
    expect((await request(appVerId, pub)).code).toBe(0);

    // Enabling needs no comments, lifts the suspension and closes the request.
    later(60_000);
    expect((await ops(appVerId, "enable")).data.verState).toBe(25);
    expect((await ops(appVerId, "enable")).message).toBe("MSG_36001");
    const running = await detail(pub, appId);
    expect(running).toMatchObject({ verState: 25, enableRequestedAt: null });
    expect(running.transitions.slice(-5).map((t: any) => t.event)).toEqual([
      "suspend",
      "requestEnable",
      "declineEnable",
      "requestEnable",
      "enable",
    ]);
    expect((await queue("running", name)).rows[0].since).toBe(clock.toISOString());

    const messages = await inbox(pub);
    const keys = messages.map((m: any) => m.textKey);
    for (const k of ["suspend", "requestEnable", "declineEnable", "enable"])
      expect(keys).toContain(`messages.service.${k}`);
    expect(messages.find((m: any) => m.textKey === "messages.service.suspend").params).toMatchObject({
      name,
      comments: "Reported for spam transactions.",
    });
    expect(messages.find((m: any) => m.textKey === "messages.service.declineEnable").params).toMatchObject({
      name,
      comments: "Some spam accounts remain.",
    });
    expect((await inbox(other)).some((m: any) => m.params.name === name)).toBe(false);
  });

  it("the queue filters by status, searches by name and pages", async () => {
    const pub = await freshUser();
    const tag = `Q${Date.now().toString(36)}`;
    const a = await fixture(pub, { verState: 25, name: `${tag} alpha`, tps: 10, nodeCount: 1 });
    const b = await fixture(pub, { verState: 25, name: `${tag} beta`, tps: 10, nodeCount: 1 });
    const c = await fixture(pub, { verState: 25, name: `${tag} gamma`, tps: 10, nodeCount: 1 });
    await fixture(pub, { verState: 30, name: `${tag} deactivated`, tps: 10, nodeCount: 1 });
    expect((await ops(b.appVerId, "suspend", "Check the roles.")).code).toBe(0);
    expect((await ops(c.appVerId, "suspend", "Check the nodes.")).code).toBe(0);
    expect((await request(c.appVerId, pub)).code).toBe(0);
    const names = async (filter: string, name = tag) => (await queue(filter, name)).rows.map((r: any) => r.name);
    expect(await names("running")).toEqual([`${tag} alpha`]);
    // A pending request comes first.
    expect(await names("suspended")).toEqual([`${tag} gamma`, `${tag} beta`]);
    expect(await names("requested")).toEqual([`${tag} gamma`]);
    expect(await names("all")).toEqual([`${tag} gamma`, `${tag} alpha`, `${tag} beta`]);
    expect(await names("all", `${tag} BET`)).toEqual([`${tag} beta`]);
    // Wildcards are searched for as text.
    expect(await names("all", `${tag}%`)).toEqual([]);
    const second = (
      await post("/sys/ops/services/list", { filter: "all", name: tag, pageSize: 2, pageIndex: 2 }, operator)
    ).data.page;
    expect(second).toMatchObject({ total: 3, pageIndex: 2, pageSize: 2 });
    expect(second.rows.map((r: any) => r.appVerId)).toEqual([b.appVerId]);
    expect(a.appVerId).toBeGreaterThan(0);
  });
});
