import { createPrivateKey, generateKeyPairSync, sign, X509Certificate } from "node:crypto";
import { and, asc, eq, like } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { appCas, appJoins, appJoinTransitions, certificates } from "#backend/domains/participation/tables.ts";
import { appVersions, apps } from "#backend/domains/services/tables.ts";
import { bills, ledgerEntries } from "#backend/domains/billing/tables.ts";
import { cityNodes, jobs, messages } from "#backend/db/tables.ts";
import { invitationLink } from "#backend/domains/services/invite.ts";
import { AUDIT_STATES } from "#contract/participation.ts";
import { JOIN_ACTORS, JOIN_EVENTS, JOIN_MACHINE } from "#backend/domains/participation/machine.ts";
import { PASSWORD } from "./client.ts";
import { callVueapi, inProcessVueapi, loginToken, registeredUser, type Reply } from "./in-process.ts";
import { writeCityNode } from "#backend/domains/platform/catalogue.ts";
import { dataOf } from "../support/envelope.ts";

// Participation through the /vueapi protocol, in-process with a movable clock and the job loop off (the
// test runs due jobs itself), like tests/backend/services.test.ts.
let clock = new Date("2026-08-01T00:00:00Z");
const service = inProcessVueapi(
  "participation",
  { TEST_CAPTCHA: "PAR1", DEMO: "1", TEST_FIXTURES: "1", JOBS_INTERVAL_MS: "0" },
  () => clock,
);
const DAY = 24 * 60 * 60 * 1000;

const post = (p: string, body: object = {}, token?: string) => callVueapi(service, p, body, token);
const loginAs = (username: string, password?: string) => loginToken(service, username, password);
async function freshUser() {
  const { userName, password } = await registeredUser(service, "par");
  const token = await loginAs(userName, password);
  const info = await post("/main/getClientInfo", {}, token);
  return { token, userId: info.data.userId as number, userName };
}
const ok = (r: Reply) => dataOf("the reply", r);

/** A publisher with a running service in the given certificate mode, and an invitation link's query. */
async function runningService(mode: 1 | 2 | 3 = 3, extra: { isPublic?: boolean } = {}) {
  const pub = await freshUser();
  const svc = ok(await post("/test/services", { verState: 25, nodeCount: 2 }, pub.token));
  await service.services.db.update(appVersions).set({ certificateMode: mode }).where(eq(appVersions.id, svc.appVerId));
  if (extra.isPublic) await service.services.db.update(apps).set({ isPublic: true }).where(eq(apps.id, svc.appId));
  const link = ok(await post("/sys/chainAppInfo/invite", { appVerId: svc.appVerId, language: "en" }, pub.token));
  const query = new URL(`http://x${link.path}`).searchParams;
  return { pub, appId: svc.appId as number, appVerId: svc.appVerId as number, query };
}
const applyJoin = (query: URLSearchParams, token: string) =>
  post(
    "/sys/chainAppInfo/applyJoinApp",
    { appId: Number(query.get("a")), token: query.get("c"), expiry: query.get("d"), language: query.get("e") },
    token,
  );

function signed(data: string) {
  const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  return {
    publicKey: publicKey.export({ type: "spki", format: "pem" }) as string,
    signature: sign("sha256", Buffer.from(data), privateKey).toString("base64"),
  };
}
async function rolesAndNodes(appId: number, token: string, ticket?: string) {
  const roles = ok(
    await post(
      "/sys/chainAppInfo/queryRolesForAppList",
      { page: { pageSize: 999, pageIndex: 1, condition: { appId, ticket } } },
      token,
    ),
  );
  const cities = ok(
    await post(
      "/sys/chainAppInfo/queryReleaseCitysForAppList",
      { page: { pageSize: 50, pageIndex: 1, condition: { appId, ticket } } },
      token,
    ),
  );
  return { roles: roles.page.rows, cities: cities.page.rows };
}
/** A participant applies with an uploaded public key; `extraNode` adds a node the service does not run on. */
async function applied(svc: Awaited<ReturnType<typeof runningService>>, extraNode = false) {
  const who = await freshUser();
  const joinInfo = ok(await applyJoin(svc.query, who.token));
  const { roles, cities } = await rolesAndNodes(svc.appId, who.token, joinInfo.ticket);
  const released = cities.filter((c: any) => c.released).map((c: any) => c.cityNodeId);
  const other = cities.find((c: any) => !c.released);
  const key = signed("hello fabric");
  const res = ok(
    await post(
      "/sys/chainAppInfo/joinApp",
      {
        appId: svc.appId,
        ticket: joinInfo.ticket,
        roleId: roles[0].roleId,
        cityNodeIds: extraNode ? [released[0], other.cityNodeId] : [released[0]],
        certificateMode: 3,
        publicKey: key.publicKey,
        testData: "hello fabric",
        signature: key.signature,
      },
      who.token,
    ),
  );
  return {
    who,
    joinId: res.appJoinAuditId as number,
    certificateId: res.certificateId as number,
    orderCents: extraNode ? other.orderCents : 0,
  };
}

let operator: string;
beforeAll(async () => {
  operator = await loginAs("demooperator");
});

describe("the audit state machine through the API", () => {
  it("every step of the table, allowed only to its actor, from invitation to participated", async () => {
    const svc = await runningService(3);
    const { who, joinId, orderCents } = await applied(svc, true);
    const view = async () =>
      ok(await post("/sys/chainAppInfo/view", { appId: svc.appId, appJoinAuditId: joinId }, who.token));
    expect((await view()).participation).toMatchObject({ auditState: 0, listStatus: "reviewing" });

    // Refused: the participant confirms, the operator decides, at 0; the participant audits; comments missing.
    expect((await post("/sys/chainAppInfo/confirmJoin", { appJoinAuditId: joinId }, who.token)).message).toBe(
      "MSG_39005",
    );
    expect(
      (await post("/sys/ops/participations/decide", { appJoinAuditId: joinId, decision: "approve" }, operator)).message,
    ).toBe("MSG_39005");
    expect(
      (await post("/sys/chainAppInfo/auditAppJoined", { appJoinAuditId: joinId, auditState: 1 }, who.token)).message,
    ).toBe("MSG_10002");
    expect(
      (await post("/sys/chainAppInfo/auditAppJoined", { appJoinAuditId: joinId, auditState: 2 }, svc.pub.token))
        .message,
    ).toBe("MSG_30014");
    // SPEC §8 "Status error" (valid values 1 approved, 2 unapproved) has its own message (issue 31 item 9).
    const badState = await post(
      "/sys/chainAppInfo/auditAppJoined",
      { appJoinAuditId: joinId, auditState: 3 },
      svc.pub.token,
    );
    expect(badState).toMatchObject({
      code: 1,
      message: "MSG_10422",
      data: { fieldErrors: { auditState: ["errors:MSG_10422"] } },
    });
    expect(
      (await post("/sys/ops/participations/decide", { appJoinAuditId: joinId, decision: "approve" }, svc.pub.token))
        .code,
    ).toBe(4);

    expect(
      ok(await post("/sys/chainAppInfo/auditAppJoined", { appJoinAuditId: joinId, auditState: 1 }, svc.pub.token))
        .auditState,
    ).toBe(1);
    expect(
      (await post("/sys/chainAppInfo/auditAppJoined", { appJoinAuditId: joinId, auditState: 1 }, svc.pub.token))
        .message,
    ).toBe("MSG_39005");
    const queue = ok(await post("/sys/ops/participations/list", {}, operator));
    expect(queue.page.rows.some((r: any) => r.appJoinAuditId === joinId)).toBe(true);
    expect(
      (await post("/sys/ops/participations/decide", { appJoinAuditId: joinId, decision: "reject" }, operator)).message,
    ).toBe("MSG_30014");
    // Approved by the operator: a node outside the service needs an order (3 → 5 at once).
    expect(
      ok(await post("/sys/ops/participations/decide", { appJoinAuditId: joinId, decision: "approve" }, operator))
        .auditState,
    ).toBe(5);
    const atOrder = await view();
    expect(atOrder.participation.order).toMatchObject({ payState: 1, totalCents: orderCents });
    expect(orderCents).toBeGreaterThan(0);
    const [bill] = await service.services.db
      .select()
      .from(bills)
      .where(eq(bills.id, atOrder.participation.order.billId));
    expect(bill).toMatchObject({ billType: 10, userId: who.userId, payCents: orderCents });
    expect(bill.deadline.getTime() - clock.getTime()).toBe(3 * DAY);

    // Access parameters are not there yet.
    expect((await post("/sys/chainAppInfo/getJoinParamList", { appJoinAuditId: joinId }, who.token)).message).toBe(
      "MSG_39008",
    );
    const k = "payorder-key-0000000001";
    expect(
      (await post("/sys/chainAppInfo/payJoinOrder", { appJoinAuditId: joinId, idempotencyKey: k }, who.token)).message,
    ).toBe("MSG_30001");
    ok(await post("/test/fixtures", { grantCents: orderCents + 500 }, who.token));
    const [a, b] = await Promise.all([
      post("/sys/chainAppInfo/payJoinOrder", { appJoinAuditId: joinId, idempotencyKey: k }, who.token),
      post(
        "/sys/chainAppInfo/payJoinOrder",
        { appJoinAuditId: joinId, idempotencyKey: "payorder-key-0000000002" },
        who.token,
      ),
    ]);
    expect([ok(a).replayed, ok(b).replayed].sort()).toEqual([false, true]);
    expect(
      await service.services.db
        .select()
        .from(ledgerEntries)
        .where(and(eq(ledgerEntries.userId, who.userId), eq(ledgerEntries.kind, "bill_payment"))),
    ).toHaveLength(1);
    expect((await view()).participation.auditState).toBe(10);

    await service.runJobs();
    await service.runJobs();
    expect((await view()).participation).toMatchObject({
      auditState: 13,
      listStatus: "toConfirm",
      accessAllowed: true,
    });
    const work = await service.services.db.select().from(jobs).where(eq(jobs.kind, "participation.workOrder"));
    expect(work.filter((j) => (j.payload as any).joinId === joinId)).toHaveLength(1);

    const params = ok(await post("/sys/chainAppInfo/getJoinParamList", { appJoinAuditId: joinId }, who.token));
    expect(params.userCode).toMatch(/^UC[0-9A-F]{12}$/);
    expect(params.gateways).toHaveLength(2);
    // A real endpoint per node on the service's chain, with the participant's own key (docs/decisions/052).
    for (const g of params.gateways)
      expect(g.gatewayUrl).toMatch(/^https?:\/\/[^/]+\/chain\/service\/[a-z0-9-]+\/[A-Za-z0-9_-]{43}$/);
    expect(params.certificate).toMatchObject({ downloadable: true, mode: 3 });

    ok(await post("/sys/chainAppInfo/confirmJoin", { appJoinAuditId: joinId }, who.token));
    expect((await post("/sys/chainAppInfo/confirmJoin", { appJoinAuditId: joinId }, who.token)).message).toBe(
      "MSG_39005",
    );
    const done = await view();
    expect(done.participation).toMatchObject({ auditState: 15, listStatus: "confirmed" });
    expect(done.participation.transitions.map((t: any) => t.event)).toEqual([
      "apply",
      "publisherApprove",
      "operatorApprove",
      "order",
      "pay",
      "workOrderDone",
      "confirm",
    ]);
    expect(done.participation.transitions.map((t: any) => t.actorKind)).toEqual([
      "participant",
      "publisher",
      "operator",
      "system",
      "participant",
      "system",
      "participant",
    ]);
    const list = ok(
      await post(
        "/sys/chainAppInfo/participatedList",
        { page: { pageSize: 10, pageIndex: 1, condition: { status: "confirmed" } } },
        who.token,
      ),
    );
    expect(list.page.rows.map((r: any) => r.appJoinAuditId)).toEqual([joinId]);
    // Everybody concerned was told.
    const texts = (
      await service.services.db.select().from(messages).where(eq(messages.userId, who.userId)).orderBy(asc(messages.id))
    ).map((m) => m.textKey);
    expect(texts).toEqual(
      expect.arrayContaining([
        "messages.participation.submitted",
        "messages.participation.publisherApprove",
        "messages.participation.order",
        "messages.participation.workOrderDone",
      ]),
    );
    const pubTexts = (
      await service.services.db
        .select()
        .from(messages)
        .where(eq(messages.userId, svc.pub.userId))
        .orderBy(asc(messages.id))
    ).map((m) => m.textKey);
    expect(pubTexts).toEqual(
      expect.arrayContaining([
        "messages.participation.applied",
        "messages.participation.operatorApprove",
        "messages.participation.confirm",
      ]),
    );
  });

  it("nodes the service runs on need no order: straight to the work order", async () => {
    const svc = await runningService(3);
    const { joinId } = await applied(svc, false);
    ok(await post("/sys/chainAppInfo/auditAppJoined", { appJoinAuditId: joinId, auditState: 1 }, svc.pub.token));
    expect(
      ok(await post("/sys/ops/participations/decide", { appJoinAuditId: joinId, decision: "approve" }, operator))
        .auditState,
    ).toBe(10);
    await service.runJobs();
    const [last] = (
      await service.services.db.select().from(appJoinTransitions).where(eq(appJoinTransitions.joinId, joinId))
    ).slice(-1);
    expect(last).toMatchObject({ event: "workOrderDone", toState: 13 });
  });

  it("rejections need comments, revoke the certificate and hide the detail; disabling a participant", async () => {
    const svc = await runningService(3);
    const first = await applied(svc);
    expect(
      ok(
        await post(
          "/sys/chainAppInfo/auditAppJoined",
          { appJoinAuditId: first.joinId, auditState: 2, comments: "Unknown company" },
          svc.pub.token,
        ),
      ).auditState,
    ).toBe(2);
    const rejected = ok(
      await post("/sys/chainAppInfo/view", { appId: svc.appId, appJoinAuditId: first.joinId }, first.who.token),
    );
    expect(rejected.participation).toMatchObject({ auditState: 2, listStatus: "rejected" });
    expect(rejected.participation.transitions.at(-1).comments).toBe("Unknown company");
    const [cert] = await service.services.db.select().from(certificates).where(eq(certificates.joinId, first.joinId));
    expect(cert.revokedAt).not.toBeNull();

    const second = await applied(svc);
    ok(await post("/sys/chainAppInfo/auditAppJoined", { appJoinAuditId: second.joinId, auditState: 1 }, svc.pub.token));
    expect(
      ok(
        await post(
          "/sys/ops/participations/decide",
          { appJoinAuditId: second.joinId, decision: "reject", comments: "Missing licence" },
          operator,
        ),
      ).auditState,
    ).toBe(4);

    const third = await applied(svc);
    expect(
      (await post("/sys/chainAppInfo/disableJoin", { appJoinAuditId: third.joinId, comments: "" }, svc.pub.token)).code,
    ).not.toBe(0);
    expect(
      (
        await post(
          "/sys/chainAppInfo/disableJoin",
          { appJoinAuditId: third.joinId, comments: "Left the consortium" },
          third.who.token,
        )
      ).message,
    ).toBe("MSG_10002");
    ok(
      await post(
        "/sys/chainAppInfo/disableJoin",
        { appJoinAuditId: third.joinId, comments: "Left the consortium" },
        svc.pub.token,
      ),
    );
    expect(
      (await post("/sys/chainAppInfo/disableJoin", { appJoinAuditId: third.joinId, comments: "again" }, svc.pub.token))
        .message,
    ).toBe("MSG_39010");
    expect(
      (await post("/sys/chainAppInfo/auditAppJoined", { appJoinAuditId: third.joinId, auditState: 1 }, svc.pub.token))
        .message,
    ).toBe("MSG_39005");
    const managed = ok(
      await post(
        "/sys/chainAppInfo/joinManageList",
        { page: { pageSize: 10, pageIndex: 1, condition: {} } },
        svc.pub.token,
      ),
    );
    expect(managed.page.rows.map((r: any) => r.appJoinAuditId).sort()).toEqual(
      [first.joinId, second.joinId, third.joinId].sort(),
    );
    expect(managed.page.rows.find((r: any) => r.appJoinAuditId === third.joinId).disabled).toBe(true);
  });

  it("the table: every event by every actor from every state", () => {
    // The machine is exercised here as data; tests/unit/participation.test.ts checks joinTransition() itself.
    for (const rule of JOIN_MACHINE) {
      expect(AUDIT_STATES).toContain(rule.from);
      expect(AUDIT_STATES).toContain(rule.to);
      expect(JOIN_ACTORS).toContain(rule.actor);
      expect(JOIN_EVENTS).toContain(rule.event);
    }
  });
});

describe("joining: tokens, keys and certificates", () => {
  it("tokens invalid: bad HMAC, expired link, not public without a token; a public service by its appCode", async () => {
    const svc = await runningService(3);
    const who = await freshUser();
    const bad = new URLSearchParams(svc.query);
    bad.set("c", `${bad.get("c")!.slice(0, -1)}${bad.get("c")!.endsWith("A") ? "B" : "A"}`);
    expect((await applyJoin(bad, who.token)).message).toBe("MSG_39001");
    const longer = new URLSearchParams(svc.query);
    longer.set("d", String(Number(longer.get("d")) + 3600));
    expect((await applyJoin(longer, who.token)).message).toBe("MSG_39001");
    const code = ok(await post("/sys/chainAppInfo/view", { appId: svc.appId }, svc.pub.token)).appCode;
    expect((await post("/sys/chainAppInfo/applyJoinApp", { appId: svc.appId, token: code }, who.token)).message).toBe(
      "MSG_39001",
    );
    // Without a ticket nothing of a private service is visible, and applying needs one.
    expect((await post("/sys/chainAppInfo/view", { appId: svc.appId }, who.token)).message).toBe("MSG_10002");
    expect(
      (
        await post(
          "/sys/chainAppInfo/joinApp",
          { appId: svc.appId, roleId: 1, cityNodeIds: [1], certificateMode: 3 },
          who.token,
        )
      ).code,
    ).not.toBe(0);
    // The publisher cannot join their own service.
    expect((await applyJoin(svc.query, svc.pub.token)).message).toBe("MSG_39007");
    // A valid link answers a ticket; a link made 8 days ago has expired (7 days).
    expect(ok(await applyJoin(svc.query, who.token))).toMatchObject({
      participatedYn: 0,
      appJoinAuditId: null,
      ticket: expect.any(String),
    });
    const old = invitationLink(service.services.env, {
      appId: svc.appId,
      appCode: code,
      language: "en",
      now: new Date(clock.getTime() - 8 * DAY),
    });
    expect((await applyJoin(new URL(`http://x${old.path}`).searchParams, who.token)).message).toBe("MSG_39001");

    const pub2 = await runningService(1, { isPublic: true });
    const code2 = ok(await post("/sys/chainAppInfo/view", { appId: pub2.appId }, pub2.pub.token)).appCode;
    expect(
      ok(await post("/sys/chainAppInfo/applyJoinApp", { appId: pub2.appId, token: code2 }, who.token)).participatedYn,
    ).toBe(0);
    expect(ok(await post("/sys/chainAppInfo/view", { appId: pub2.appId }, who.token)).canApply).toBe(true);
  });

  it("upload public key: a real ECDSA P-256 signature verifies; tampered data or a wrong key is 'Public key test failed'", async () => {
    const svc = await runningService(3);
    const who = await freshUser();
    const { ticket } = ok(await applyJoin(svc.query, who.token));
    const { roles, cities } = await rolesAndNodes(svc.appId, who.token, ticket);
    const base = {
      appId: svc.appId,
      ticket,
      roleId: roles[0].roleId,
      cityNodeIds: [cities[0].cityNodeId],
      certificateMode: 3,
    };
    const good = signed("test data 123");
    const other = signed("test data 123");
    expect(
      (
        await post(
          "/sys/chainAppInfo/joinApp",
          { ...base, publicKey: good.publicKey, testData: "test data 124", signature: good.signature },
          who.token,
        )
      ).message,
    ).toBe("MSG_39002");
    expect(
      (
        await post(
          "/sys/chainAppInfo/joinApp",
          { ...base, publicKey: other.publicKey, testData: "test data 123", signature: good.signature },
          who.token,
        )
      ).message,
    ).toBe("MSG_39002");
    const notPem = await post(
      "/sys/chainAppInfo/joinApp",
      { ...base, publicKey: "not a key", testData: "x", signature: good.signature },
      who.token,
    );
    expect(notPem.data.fieldErrors.publicKey).toEqual(["participation:validation.publicKeyFormat"]);
    const rsa = generateKeyPairSync("rsa", { modulusLength: 1024 }).publicKey.export({
      type: "spki",
      format: "pem",
    }) as string;
    expect(
      (
        await post(
          "/sys/chainAppInfo/joinApp",
          { ...base, publicKey: rsa, testData: "x", signature: good.signature },
          who.token,
        )
      ).data.fieldErrors.publicKey,
    ).toBeDefined();
    const missing = await post("/sys/chainAppInfo/joinApp", { ...base }, who.token);
    expect(Object.keys(missing.data.fieldErrors).sort()).toEqual(["publicKey", "signature", "testData"]);

    const res = ok(
      await post(
        "/sys/chainAppInfo/joinApp",
        { ...base, publicKey: good.publicKey, testData: "test data 123", signature: good.signature },
        who.token,
      ),
    );
    expect(
      (
        await post(
          "/sys/chainAppInfo/joinApp",
          { ...base, publicKey: good.publicKey, testData: "test data 123", signature: good.signature },
          who.token,
        )
      ).message,
    ).toBe("MSG_39004");
    // X.509: the issued certificate carries the uploaded key and verifies against the service CA.
    const [row] = await service.services.db.select().from(certificates).where(eq(certificates.id, res.certificateId));
    const [ca] = await service.services.db.select().from(appCas).where(eq(appCas.appId, svc.appId));
    const issued = new X509Certificate(row.certificatePem);
    const caCert = new X509Certificate(ca.certificatePem);
    expect(issued.verify(caCert.publicKey)).toBe(true);
    expect(issued.checkIssued(caCert)).toBe(true);
    expect(caCert.ca).toBe(true);
    expect(issued.publicKey.export({ type: "spki", format: "pem" })).toBe(good.publicKey);
    expect(row.encryptedKeyPem).toBeNull();
    // The CA key is stored encrypted, never as a plain PEM.
    expect(ca.encryptedKey).not.toContain("PRIVATE KEY");
  });

  it("key trust: password rules, the key downloads encrypted with it; a participant certificate's key downloads once", async () => {
    const svc = await runningService(2);
    const who = await freshUser();
    const { ticket } = ok(await applyJoin(svc.query, who.token));
    const { roles, cities } = await rolesAndNodes(svc.appId, who.token, ticket);
    const base = {
      appId: svc.appId,
      ticket,
      roleId: roles[0].roleId,
      cityNodeIds: [cities[0].cityNodeId],
      certificateMode: 2,
    };
    expect(
      (await post("/sys/chainAppInfo/joinApp", { ...base, password: "abc12", confirmPassword: "abc12" }, who.token))
        .data.fieldErrors.password,
    ).toEqual(["validation.shortSecret.format"]);
    expect(
      (await post("/sys/chainAppInfo/joinApp", { ...base, password: "abc12!x", confirmPassword: "abc12!x" }, who.token))
        .data.fieldErrors.password,
    ).toBeDefined();
    expect(
      (await post("/sys/chainAppInfo/joinApp", { ...base, password: "abc123", confirmPassword: "abc124" }, who.token))
        .data.fieldErrors.confirmPassword,
    ).toEqual(["validation.confirmMismatch"]);
    expect(
      (
        await post(
          "/sys/chainAppInfo/joinApp",
          { ...base, password: "a".repeat(21), confirmPassword: "a".repeat(21) },
          who.token,
        )
      ).data.fieldErrors.password,
    ).toBeDefined();
    // The mode is the service's, whatever the form says.
    expect(
      (await post("/sys/chainAppInfo/joinApp", { ...base, certificateMode: 1 }, who.token)).data.fieldErrors
        .certificateMode,
    ).toBeDefined();
    const res = ok(
      await post(
        "/sys/chainAppInfo/joinApp",
        { ...base, password: "Secret42", confirmPassword: "Secret42" },
        who.token,
      ),
    );
    // Not approved yet: no download.
    expect(
      (
        await post(
          "/sys/chainAppInfo/certificateFile",
          { certificateId: res.certificateId, kind: "certificate" },
          who.token,
        )
      ).message,
    ).toBe("MSG_39008");
    ok(
      await post(
        "/sys/chainAppInfo/auditAppJoined",
        { appJoinAuditId: res.appJoinAuditId, auditState: 1 },
        svc.pub.token,
      ),
    );
    ok(
      await post(
        "/sys/ops/participations/decide",
        { appJoinAuditId: res.appJoinAuditId, decision: "approve" },
        operator,
      ),
    );
    await service.runJobs();
    const keyFile = ok(
      await post("/sys/chainAppInfo/certificateFile", { certificateId: res.certificateId, kind: "key" }, who.token),
    );
    expect(keyFile.pem).toContain("BEGIN ENCRYPTED PRIVATE KEY");
    expect(() => createPrivateKey({ key: keyFile.pem, passphrase: "wrong1" })).toThrow();
    const priv = createPrivateKey({ key: keyFile.pem, passphrase: "Secret42" });
    const certFile = ok(
      await post(
        "/sys/chainAppInfo/certificateFile",
        { certificateId: res.certificateId, kind: "certificate" },
        who.token,
      ),
    );
    expect(new X509Certificate(certFile.pem).checkPrivateKey(priv)).toBe(true);
    // Key trust: downloadable again (it is encrypted).
    expect(
      ok(await post("/sys/chainAppInfo/certificateFile", { certificateId: res.certificateId, kind: "key" }, who.token))
        .pem,
    ).toBe(keyFile.pem);

    const svc1 = await runningService(1);
    const { ticket: t1 } = ok(await applyJoin(svc1.query, who.token));
    const rn = await rolesAndNodes(svc1.appId, who.token, t1);
    const r1 = ok(
      await post(
        "/sys/chainAppInfo/joinApp",
        {
          appId: svc1.appId,
          ticket: t1,
          roleId: rn.roles[0].roleId,
          cityNodeIds: [rn.cities[0].cityNodeId],
          certificateMode: 1,
        },
        who.token,
      ),
    );
    ok(
      await post(
        "/sys/chainAppInfo/auditAppJoined",
        { appJoinAuditId: r1.appJoinAuditId, auditState: 1 },
        svc1.pub.token,
      ),
    );
    ok(
      await post(
        "/sys/ops/participations/decide",
        { appJoinAuditId: r1.appJoinAuditId, decision: "approve" },
        operator,
      ),
    );
    await service.runJobs();
    const mine = ok(await post("/sys/chainAppInfo/myCertificates", {}, who.token));
    expect(mine.page.rows.find((c: any) => c.certificateId === r1.certificateId)).toMatchObject({
      mode: 1,
      keyAvailable: true,
      downloadable: true,
    });
    const once = ok(
      await post("/sys/chainAppInfo/certificateFile", { certificateId: r1.certificateId, kind: "key" }, who.token),
    );
    expect(once.pem).toContain("BEGIN PRIVATE KEY");
    const c1 = ok(
      await post(
        "/sys/chainAppInfo/certificateFile",
        { certificateId: r1.certificateId, kind: "certificate" },
        who.token,
      ),
    );
    expect(new X509Certificate(c1.pem).checkPrivateKey(createPrivateKey(once.pem))).toBe(true);
    expect(
      (await post("/sys/chainAppInfo/certificateFile", { certificateId: r1.certificateId, kind: "key" }, who.token))
        .message,
    ).toBe("MSG_39009");
  });

  it("a participant never sees another's access parameters, certificates or participations", async () => {
    const svc = await runningService(3);
    const a = await applied(svc);
    ok(await post("/sys/chainAppInfo/auditAppJoined", { appJoinAuditId: a.joinId, auditState: 1 }, svc.pub.token));
    ok(await post("/sys/ops/participations/decide", { appJoinAuditId: a.joinId, decision: "approve" }, operator));
    await service.runJobs();
    ok(await post("/sys/chainAppInfo/getJoinParamList", { appJoinAuditId: a.joinId }, a.who.token));
    const b = await applied(await runningService(3));
    expect((await post("/sys/chainAppInfo/getJoinParamList", { appJoinAuditId: a.joinId }, b.who.token)).message).toBe(
      "MSG_10002",
    );
    expect(
      (
        await post(
          "/sys/chainAppInfo/certificateFile",
          { certificateId: a.certificateId, kind: "certificate" },
          b.who.token,
        )
      ).message,
    ).toBe("MSG_10002");
    expect(
      (await post("/sys/chainAppInfo/view", { appId: svc.appId, appJoinAuditId: a.joinId }, b.who.token)).message,
    ).toBe("MSG_10002");
    expect(
      (
        await post(
          "/sys/chainAppInfo/queryReleaseRolesForAppList",
          { page: { pageSize: 10, pageIndex: 1, condition: { appId: svc.appId, joinAuditId: a.joinId } } },
          b.who.token,
        )
      ).message,
    ).toBe("MSG_10002");
    expect((await post("/sys/chainAppInfo/joinManageView", { appJoinAuditId: a.joinId }, b.who.token)).message).toBe(
      "MSG_10002",
    );
    const theirs = ok(await post("/sys/chainAppInfo/myCertificates", {}, b.who.token));
    expect(theirs.page.rows.map((r: any) => r.certificateId)).toEqual([b.certificateId]);
    const list = ok(
      await post(
        "/sys/chainAppInfo/participatedList",
        { page: { pageSize: 10, pageIndex: 1, condition: {} } },
        b.who.token,
      ),
    );
    expect(list.page.rows.map((r: any) => r.appJoinAuditId)).toEqual([b.joinId]);
    // The service deactivated: access parameters are withdrawn (§4 verState 30).
    await service.services.db.update(appVersions).set({ verState: 30 }).where(eq(appVersions.id, svc.appVerId));
    expect((await post("/sys/chainAppInfo/getJoinParamList", { appJoinAuditId: a.joinId }, a.who.token)).message).toBe(
      "MSG_39008",
    );
    await service.services.db.update(appVersions).set({ verState: 25 }).where(eq(appVersions.id, svc.appVerId));
  });

  it("demo data: demoperson participates with a certificate and democompany has demopartner's request to review", async () => {
    const person = await loginAs("demoperson");
    const company = await loginAs("democompany");
    const list = ok(
      await post("/sys/chainAppInfo/participatedList", { page: { pageSize: 10, pageIndex: 1, condition: {} } }, person),
    );
    expect(list.page.rows.map((r: any) => r.listStatus)).toEqual(["confirmed"]);
    const certs = ok(await post("/sys/chainAppInfo/myCertificates", {}, person));
    expect(certs.page.rows).toHaveLength(1);
    expect(certs.page.rows[0]).toMatchObject({ mode: 1, keyAvailable: true, downloadable: true });
    const params = ok(
      await post("/sys/chainAppInfo/getJoinParamList", { appJoinAuditId: list.page.rows[0].appJoinAuditId }, person),
    );
    expect(params.gateways).toHaveLength(2);
    const managed = ok(
      await post(
        "/sys/chainAppInfo/joinManageList",
        { page: { pageSize: 10, pageIndex: 1, condition: { auditState: 0 } } },
        company,
      ),
    );
    expect(managed.page.total).toBe(1);
    expect(managed.page.rows[0].applicant).toBe("demopartner");
    await loginAs("demopartner");
  });
});

describe("the node order: expired, re-issued, or paid from My Bills (docs/decisions/013)", () => {
  /** A participation approved by both with a node to order (audit 5), its order bill and its node. */
  async function atOrder() {
    const svc = await runningService(3);
    const join = await applied(svc, true);
    ok(await post("/sys/chainAppInfo/auditAppJoined", { appJoinAuditId: join.joinId, auditState: 1 }, svc.pub.token));
    expect(
      ok(await post("/sys/ops/participations/decide", { appJoinAuditId: join.joinId, decision: "approve" }, operator))
        .auditState,
    ).toBe(5);
    const [bill] = await service.services.db
      .select()
      .from(bills)
      .where(eq(bills.id, (await joinRow(join.joinId)).orderBillId!));
    const [node] = await service.services.db
      .select()
      .from(cityNodes)
      .where(eq(cityNodes.code, bill.detail.resources![0].nodeCode));
    return { ...join, svc, bill, node };
  }
  const joinRow = async (joinId: number) =>
    (await service.services.db.select().from(appJoins).where(eq(appJoins.id, joinId)))[0];
  const orderBills = (joinId: number) =>
    service.services.db
      .select()
      .from(bills)
      .where(like(bills.dedupeKey, `join-order:${joinId}%`))
      .orderBy(asc(bills.id));

  it("is expired by the job; paying re-issues it at today's prices, pays once, and the participation goes on", async () => {
    const start = clock;
    const order = await atOrder();
    const { who, joinId, node } = order;
    try {
      // Past the 3 days: the hourly bill-expiry job expires the order bill; the participation stays at 5.
      clock = new Date(start.getTime() + 3 * DAY + 60 * 60 * 1000);
      await service.runJobs();
      const [expired] = await service.services.db.select().from(bills).where(eq(bills.id, order.bill.id));
      expect(expired.payState).toBe(10);
      expect((await joinRow(joinId)).auditState).toBe(5);
      // The catalogue price of the node changed meanwhile: the new order costs today's price.
      await writeCityNode(service.services, node.id, { tpsPricePerMonthCents: node.tpsPricePerMonthCents + 7 });
      const newCents = order.orderCents + 70;

      const token = await loginAs(who.userName, PASSWORD);
      const view = async () =>
        ok(await post("/sys/chainAppInfo/view", { appId: order.svc.appId, appJoinAuditId: joinId }, token));
      expect((await view()).participation.order).toMatchObject({
        billId: order.bill.id,
        payState: 10,
        expired: true,
        reissueCents: newCents,
      });

      // Not enough balance: refused, and nothing is re-issued.
      expect(
        (
          await post(
            "/sys/chainAppInfo/payJoinOrder",
            { appJoinAuditId: joinId, idempotencyKey: "reorder-key-00000000001" },
            token,
          )
        ).message,
      ).toBe("MSG_30001");
      expect(await orderBills(joinId)).toHaveLength(1);
      expect((await joinRow(joinId)).orderBillId).toBe(order.bill.id);

      ok(await post("/test/fixtures", { grantCents: newCents + 300 }, token));
      const [a, b] = await Promise.all([
        post(
          "/sys/chainAppInfo/payJoinOrder",
          { appJoinAuditId: joinId, idempotencyKey: "reorder-key-00000000001" },
          token,
        ),
        post(
          "/sys/chainAppInfo/payJoinOrder",
          { appJoinAuditId: joinId, idempotencyKey: "reorder-key-00000000002" },
          token,
        ),
      ]);
      const answers = [ok(a), ok(b)].sort((x, y) => Number(x.replayed) - Number(y.replayed));
      expect(answers[0]).toMatchObject({ replayed: false, reissued: true });
      expect(answers[1]).toMatchObject({ replayed: true, billId: answers[0].billId });
      // The same key again is a replay too.
      expect(
        ok(
          await post(
            "/sys/chainAppInfo/payJoinOrder",
            { appJoinAuditId: joinId, idempotencyKey: "reorder-key-00000000001" },
            token,
          ),
        ).replayed,
      ).toBe(true);

      const [old, fresh] = await orderBills(joinId);
      expect(old).toMatchObject({ id: order.bill.id, payState: 10, payCents: order.orderCents });
      expect(fresh).toMatchObject({
        id: answers[0].billId,
        billType: 10,
        userId: who.userId,
        payState: 15,
        totalCents: newCents,
        payCents: newCents,
      });
      expect(fresh.deadline.getTime() - clock.getTime()).toBe(3 * DAY);
      expect(await joinRow(joinId)).toMatchObject({ auditState: 10, orderBillId: fresh.id });
      const payments = await service.services.db
        .select()
        .from(ledgerEntries)
        .where(and(eq(ledgerEntries.userId, who.userId), eq(ledgerEntries.kind, "bill_payment")));
      expect(payments.map((p) => [p.refId, p.balanceDelta])).toEqual([[fresh.id, -newCents]]);
      // My Bills keeps the expired bill beside the paid one.
      const mine = ok(
        await post(
          "/sys/system/clientInfo/h5billList",
          { page: { pageSize: 50, pageIndex: 1, condition: { billType: 10 } } },
          token,
        ),
      );
      expect(mine.page.rows.map((r: any) => [r.billId, r.payState]).sort()).toEqual(
        [
          [old.id, 10],
          [fresh.id, 15],
        ].sort(),
      );

      const after = await view();
      expect(after.participation.order).toMatchObject({
        billId: fresh.id,
        payState: 15,
        expired: false,
        reissueCents: null,
      });
      const steps = after.participation.transitions.map((t: any) => [t.event, t.actorKind, t.fromState, t.toState]);
      expect(steps.slice(-3)).toEqual([
        ["order", "system", 3, 5],
        ["reorder", "participant", 5, 5],
        ["pay", "participant", 5, 10],
      ]);
      const texts = (
        await service.services.db
          .select()
          .from(messages)
          .where(eq(messages.userId, who.userId))
          .orderBy(asc(messages.id))
      ).map((m) => m.textKey);
      expect(texts).toEqual(
        expect.arrayContaining([
          "messages.billExpired",
          "messages.participation.reorder",
          "messages.participation.pay",
        ]),
      );

      await service.runJobs();
      expect((await view()).participation.auditState).toBe(13);
      const operatorNow = await loginAs("demooperator");
      expect(ok(await post("/ops/ledger/verify", { userId: who.userId }, operatorNow)).consistent).toBe(true);
    } finally {
      clock = start;
      await writeCityNode(service.services, node.id, { tpsPricePerMonthCents: node.tpsPricePerMonthCents });
    }
  });

  it("an unpaid order past its deadline is re-issued even before the hourly job has expired it", async () => {
    const order = await atOrder();
    // The deadline passed a moment ago; the expiry job has not come round yet.
    await service.services.db
      .update(bills)
      .set({ deadline: new Date(clock.getTime() - 1) })
      .where(eq(bills.id, order.bill.id));
    const before = ok(
      await post("/sys/chainAppInfo/view", { appId: order.svc.appId, appJoinAuditId: order.joinId }, order.who.token),
    );
    expect(before.participation.order).toMatchObject({ payState: 1, expired: true, reissueCents: order.orderCents });
    ok(await post("/test/fixtures", { grantCents: order.orderCents }, order.who.token));
    const paid = ok(
      await post(
        "/sys/chainAppInfo/payJoinOrder",
        { appJoinAuditId: order.joinId, idempotencyKey: "reorder-key-00000000003" },
        order.who.token,
      ),
    );
    expect(paid).toMatchObject({ replayed: false, reissued: true });
    const [old, fresh] = await orderBills(order.joinId);
    expect(old).toMatchObject({ id: order.bill.id, payState: 10 });
    expect(old.releaseTime).not.toBeNull();
    expect(fresh).toMatchObject({ id: paid.billId, payState: 15, payCents: order.orderCents });
    expect((await joinRow(order.joinId)).auditState).toBe(10);
    // An order still within its deadline is paid as it is, never re-issued.
    const current = await atOrder();
    ok(await post("/test/fixtures", { grantCents: current.orderCents }, current.who.token));
    expect(
      ok(
        await post(
          "/sys/chainAppInfo/payJoinOrder",
          { appJoinAuditId: current.joinId, idempotencyKey: "reorder-key-00000000004" },
          current.who.token,
        ),
      ),
    ).toMatchObject({ billId: current.bill.id, reissued: false });
    expect(await orderBills(current.joinId)).toHaveLength(1);
  });

  it("paying the order bill on BillDetail (h5billPay) moves the participation on as well, once", async () => {
    const order = await atOrder();
    ok(await post("/test/fixtures", { grantCents: order.orderCents }, order.who.token));
    const k = "billdetail-order-key-0001";
    const paid = ok(
      await post("/sys/system/clientInfo/h5billPay", { billId: order.bill.id, idempotencyKey: k }, order.who.token),
    );
    expect(paid).toMatchObject({ billId: order.bill.id, payState: 15, paidCents: order.orderCents, replayed: false });
    expect(
      ok(await post("/sys/system/clientInfo/h5billPay", { billId: order.bill.id, idempotencyKey: k }, order.who.token))
        .replayed,
    ).toBe(true);
    expect(
      ok(
        await post(
          "/sys/chainAppInfo/payJoinOrder",
          { appJoinAuditId: order.joinId, idempotencyKey: "billdetail-order-key-0002" },
          order.who.token,
        ),
      ).replayed,
    ).toBe(true);
    expect((await joinRow(order.joinId)).auditState).toBe(10);
    const payments = await service.services.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.userId, order.who.userId), eq(ledgerEntries.kind, "bill_payment")));
    expect(payments).toHaveLength(1);
    const steps = ok(
      await post("/sys/chainAppInfo/view", { appId: order.svc.appId, appJoinAuditId: order.joinId }, order.who.token),
    ).participation.transitions;
    expect(steps.at(-1)).toMatchObject({ event: "pay", actorKind: "participant", toState: 10 });
    // Another user cannot pay it.
    const other = await freshUser();
    expect(
      (
        await post(
          "/sys/system/clientInfo/h5billPay",
          { billId: order.bill.id, idempotencyKey: "billdetail-order-key-0003" },
          other.token,
        )
      ).message,
    ).toBe("MSG_10002");
  });
});
