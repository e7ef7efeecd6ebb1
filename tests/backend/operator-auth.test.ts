import { and, count, eq, gt, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { AUDIT_RULES, type OperatorPath } from "#contract/audit-rules.ts";
import { paths, type VueapiPath } from "#contract/paths.ts";
import { DEMO_OPERATOR_TOTP_SECRET } from "#backend/domains/accounts/demo-totp.ts";
import { operatorSecondFactors, recoveryCodes } from "#backend/domains/accounts/tables.ts";
import { auditLog, messages, users } from "#backend/db/tables.ts";
import { ApiError } from "#backend/http/errors.ts";
import { createRouter, type CallContext, type Caller, type Handlers } from "#backend/http/router.ts";
import { stepOf, totpAt } from "../support/second-factor.ts";
import { callVueapi, DEMO_PASSWORD, inProcessVueapi, loginToken, registeredUser, type Reply } from "./in-process.ts";

/**
 * Operators' second factor and the audit log (docs/decisions/022), in-process with a clock the test moves
 * (TOTP steps follow it) and direct access to the database (sealed secrets, hashed recovery codes, the
 * append-only trigger).
 */
let clock = new Date("2026-08-03T02:00:00Z");
const service = inProcessVueapi(
  "operator-auth",
  { TEST_CAPTCHA: "OPS1", SEED_DEMO: "1", TEST_FIXTURES: "1", JOBS_INTERVAL_MS: "0" },
  () => clock,
);
const later = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};
const MINUTE = 60_000;
const post = <T = any>(p: string, body: object = {}, token?: string) => callVueapi<T>(service, p, body, token);
const codeNow = (secret: string, offset = 0) => totpAt(secret, stepOf(clock.getTime()) + offset);

/** The password step only: answers the token and what login says about the second step. */
async function passwordStep(username: string, password = DEMO_PASSWORD) {
  const captchaKey = (await post("/anon/captcha/create")).data.captchaKey;
  const res = await post("/main/user/login", { username, password, captchaKey, captcha: "OPS1" });
  expect(res.code, JSON.stringify(res)).toBe(0);
  return res.data as { token: string; secondFactor: "enrol" | "verify" | null; user: { userId: number } };
}

const entriesOf = async (actorId: number, action?: string) =>
  service.services.db
    .select()
    .from(auditLog)
    .where(action ? and(eq(auditLog.actorId, actorId), eq(auditLog.action, action)) : eq(auditLog.actorId, actorId))
    .orderBy(auditLog.id);
const totalEntries = async () => (await service.services.db.select({ n: count() }).from(auditLog))[0].n;
const lastEntryId = async () =>
  Number(
    (await service.services.db.select({ id: sql<string>`coalesce(max(${auditLog.id}), 0)` }).from(auditLog))[0].id,
  );
/** The database's refusal of a statement (Drizzle wraps the driver's error), or null when it ran. */
const refusal = (query: PromiseLike<unknown>) =>
  Promise.resolve(query).then(
    () => null,
    (error: { message?: string; cause?: { message?: string } }) =>
      `${error.message ?? ""} ${error.cause?.message ?? ""}`,
  );

/** A new operator (registered, promoted in the database) who has not enrolled yet. */
async function newOperator() {
  const { userName, password } = await registeredUser(service, "ops", { role: "operator" });
  return { userName, password };
}

/** Enrols an operator through the paths; answers its secret and recovery codes. */
async function enrol(userName: string, password: string) {
  const { token, secondFactor } = await passwordStep(userName, password);
  expect(secondFactor).toBe("enrol");
  const enrolment = await post("/main/mfa/enrolment", {}, token);
  expect(enrolment.code, JSON.stringify(enrolment)).toBe(0);
  const confirmed = await post("/main/mfa/confirm", { code: codeNow(enrolment.data.secret) }, token);
  expect(confirmed.code, JSON.stringify(confirmed)).toBe(0);
  later(MINUTE);
  return { secret: enrolment.data.secret as string, recoveryCodes: confirmed.data.recoveryCodes as string[], token };
}

describe("operators' second factor", () => {
  it("an operator's token opens only the second step until a code is given", async () => {
    const { token, secondFactor, user } = await passwordStep("demooperator");
    expect(secondFactor).toBe("verify");
    for (const p of ["/sys/ops/services/list", "/main/getClientInfo", "/sys/account/summary"]) {
      expect(await post(p, {}, token), p).toMatchObject({ code: 3, message: "MSG_21001" });
    }
    expect(await post("/main/mfa/enrolment", {}, token)).toMatchObject({ code: 0, data: { enrolled: true } });
    const wrong = await post("/main/mfa/verify", { code: codeNow(DEMO_OPERATOR_TOTP_SECRET, 5) }, token);
    expect(wrong).toMatchObject({
      code: 1,
      message: "MSG_21002",
      data: { fieldErrors: { code: ["errors:MSG_21002"] } },
    });
    const passed = await post("/main/mfa/verify", { code: codeNow(DEMO_OPERATOR_TOTP_SECRET) }, token);
    expect(passed).toMatchObject({ code: 0, data: { method: "totp" } });
    expect((await post("/sys/ops/services/list", {}, token)).code).toBe(0);
    expect((await entriesOf(user.userId, "mfa.verify")).at(-1)).toMatchObject({
      decision: "totp",
      targetType: "operator",
      targetId: String(user.userId),
    });

    const person = await passwordStep("demoperson");
    expect(person.secondFactor).toBeNull();
    expect((await post("/sys/account/summary", {}, person.token)).code).toBe(0);
    expect(await post("/main/mfa/verify", { code: "123456" }, person.token)).toMatchObject({ code: 4 });
  });

  it("a code opens one login: the same step again, or an earlier one, is refused without counting", async () => {
    later(5 * MINUTE);
    const first = await passwordStep("demooperator");
    expect((await post("/main/mfa/verify", { code: codeNow(DEMO_OPERATOR_TOTP_SECRET) }, first.token)).code).toBe(0);
    const second = await passwordStep("demooperator");
    expect(await post("/main/mfa/verify", { code: codeNow(DEMO_OPERATOR_TOTP_SECRET) }, second.token)).toMatchObject({
      code: 1,
      message: "MSG_21003",
    });
    expect(
      await post("/main/mfa/verify", { code: codeNow(DEMO_OPERATOR_TOTP_SECRET, -1) }, second.token),
    ).toMatchObject({ code: 1, message: "MSG_21003" });
    expect(await post("/sys/ops/services/list", {}, second.token)).toMatchObject({ code: 3, message: "MSG_21001" });
    // One step ahead is within the drift window and later than the last: accepted.
    expect((await post("/main/mfa/verify", { code: codeNow(DEMO_OPERATOR_TOTP_SECRET, 1) }, second.token)).code).toBe(
      0,
    );
    const [row] = await service.services.db
      .select()
      .from(operatorSecondFactors)
      .where(eq(operatorSecondFactors.userId, second.user.userId));
    expect(row.failedAttempts).toBe(0);
    expect(row.lastStep).toBe(stepOf(clock.getTime()) + 1);
  });

  it("wrong codes lock the second factor for 15 minutes, and the lock is logged", async () => {
    const { userName, password } = await newOperator();
    const { secret } = await enrol(userName, password);
    const { token, user } = await passwordStep(userName, password);
    for (let i = 1; i <= 4; i++) {
      expect(await post("/main/mfa/verify", { code: codeNow(secret, 4) }, token), `attempt ${i}`).toMatchObject({
        message: "MSG_21002",
      });
    }
    expect(await post("/main/mfa/verify", { code: "zzzzz-zzzzz" }, token)).toMatchObject({ message: "MSG_21004" });
    expect(await post("/main/mfa/verify", { code: codeNow(secret) }, token)).toMatchObject({ message: "MSG_21004" });
    expect(await entriesOf(user.userId, "mfa.lockout")).toHaveLength(1);
    later(16 * MINUTE);
    expect(await post("/main/mfa/verify", { code: codeNow(secret) }, token)).toMatchObject({
      code: 0,
      data: { method: "totp" },
    });
  });

  it("an operator without a second factor enrols first: a sealed secret, one code, ten recovery codes shown once", async () => {
    const { userName, password } = await newOperator();
    const { token, secondFactor, user } = await passwordStep(userName, password);
    expect(secondFactor).toBe("enrol");
    expect(await post("/main/mfa/verify", { code: "123456" }, token)).toMatchObject({ code: 1, message: "MSG_21006" });
    expect(await post("/main/mfa/confirm", { code: "123456" }, token)).toMatchObject({ code: 1, message: "MSG_21006" });
    expect(await post("/sys/ops/products/list", {}, token)).toMatchObject({ code: 3, message: "MSG_21001" });

    const enrolment = await post("/main/mfa/enrolment", {}, token);
    expect(enrolment.data).toMatchObject({ enrolled: false, secret: expect.stringMatching(/^[A-Z2-7]{32}$/) });
    const { secret } = enrolment.data;
    expect(enrolment.data.otpauthUri).toBe(
      `otpauth://totp/BSN%20Portal:${userName}?issuer=BSN%20Portal&secret=${secret}&algorithm=SHA1&digits=6&period=30`,
    );
    expect(enrolment.data.qrImage).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(enrolment.data.qrImage.split(",")[1], "base64").toString()).toContain("<svg");
    expect((await post("/main/mfa/enrolment", {}, token)).data.secret).toBe(secret);
    const [row] = await service.services.db
      .select()
      .from(operatorSecondFactors)
      .where(eq(operatorSecondFactors.userId, user.userId));
    expect(row.sealedSecret).toMatch(/^v1:/);
    expect(row.sealedSecret).not.toContain(secret);
    expect(row.enrolledAt).toBeNull();

    expect(await post("/main/mfa/confirm", { code: codeNow(secret, 3) }, token)).toMatchObject({
      code: 1,
      message: "MSG_21002",
    });
    const confirmed = await post("/main/mfa/confirm", { code: codeNow(secret) }, token);
    expect(confirmed.code, JSON.stringify(confirmed)).toBe(0);
    const codes: string[] = confirmed.data.recoveryCodes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    const stored = await service.services.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.userId));
    expect(stored).toHaveLength(10);
    for (const r of stored)
      expect(codes.some((c) => r.codeHash.includes(c) || r.codeHash.includes(c.replace("-", "")))).toBe(false);

    expect((await post("/sys/ops/products/list", {}, token)).code).toBe(0);
    expect(await post("/main/mfa/enrolment", {}, token)).toMatchObject({ code: 0, data: { enrolled: true } });
    expect(await post("/main/mfa/confirm", { code: codeNow(secret, 1) }, token)).toMatchObject({
      code: 1,
      message: "MSG_21005",
    });
    expect((await entriesOf(user.userId, "mfa.enrolment")).map((e) => e.decision)).toEqual(["start", "confirm"]);
    later(MINUTE);
    expect((await passwordStep(userName, password)).secondFactor).toBe("verify");
  });

  it("a recovery code opens one login, once, whatever its case and dashes", async () => {
    const { userName, password } = await newOperator();
    const { recoveryCodes: codes } = await enrol(userName, password);
    const first = await passwordStep(userName, password);
    const typed = ` ${codes[3].toUpperCase().replace("-", " - ")} `;
    expect(await post("/main/mfa/verify", { code: typed }, first.token)).toMatchObject({
      code: 0,
      data: { method: "recovery", recoveryCodesLeft: 9 },
    });
    expect((await post("/sys/ops/products/list", {}, first.token)).code).toBe(0);
    const second = await passwordStep(userName, password);
    expect(await post("/main/mfa/verify", { code: codes[3] }, second.token)).toMatchObject({
      code: 1,
      message: "MSG_21002",
    });
    expect(await post("/main/mfa/verify", { code: codes[4] }, second.token)).toMatchObject({
      code: 0,
      data: { method: "recovery", recoveryCodesLeft: 8 },
    });
    expect((await entriesOf(first.user.userId, "mfa.verify")).map((e) => [e.decision, e.details])).toEqual([
      ["recoveryCode", { recoveryCodesLeft: 9 }],
      ["recoveryCode", { recoveryCodesLeft: 8 }],
    ]);
  });

  it("refuses malformed codes at the contract and lets a half-logged-in operator log out", async () => {
    const { token } = await passwordStep("demooperator");
    expect((await post("/main/mfa/verify", { code: "12345" }, token)).data.fieldErrors.code).toEqual([
      "auth:twoFactor.validation.format",
    ]);
    expect((await post("/main/mfa/verify", { code: "" }, token)).data.fieldErrors.code).toEqual([
      "validation.required",
    ]);
    expect((await post("/main/user/logout", {}, token)).code).toBe(0);
    expect(await post("/main/mfa/verify", { code: codeNow(DEMO_OPERATOR_TOTP_SECRET, 1) }, token)).toMatchObject({
      code: 3,
      message: "MSG_10009",
    });
  });
});

/** A valid payload for every operator path (the map must list them all: a new operator path needs one). */
const SAMPLES = {
  "/sys/ops/serviceReviews/list": { queue: "initial" },
  "/sys/ops/serviceReviews/decide": { appVerId: 900011, decision: "reject", comments: "The licence is missing." },
  "/sys/ops/configUpgrades/list": { queue: "pending" },
  "/sys/ops/configUpgrades/decide": { upgradeId: 900019, decision: "reject", comments: "Not now." },
  "/sys/ops/prices/list": {},
  "/sys/ops/prices/history": {},
  "/sys/ops/prices/set": { area: "cityNode", itemId: 1, prices: { peerPricePerMonthCents: 5 } },
  "/sys/ops/refunds/list": {},
  "/sys/ops/refunds/decide": { refundId: 900012, decision: "approve" },
  "/sys/ops/services/list": {},
  "/sys/ops/services/decide": { appVerId: 900013, decision: "suspend", comments: "Abuse report." },
  "/sys/ops/participations/list": {},
  "/sys/ops/participations/decide": { appJoinAuditId: 900014, decision: "approve", comments: "Fine." },
  "/sys/ops/products/list": {},
  "/sys/ops/products/decide": { productId: 900015, decision: "reject", comments: '=HYPERLINK("http://x")' },
  "/sys/operations/invoices/list": {},
  "/sys/operations/invoices/detail": { invoiceId: 900016 },
  "/sys/operations/invoices/approve": { invoiceId: "900016", comments: "Checked." },
  "/sys/operations/invoices/reject": { invoiceId: "900017", comments: "Wrong title." },
  "/sys/operations/invoices/deliver": { invoiceId: "900016", courierName: "SF Express", courierNo: "SF12345678" },
  "/ops/remittances/list": {},
  "/ops/remittances/review": { paymentNo: "RC20260803A", decision: "confirm" },
  "/ops/paymentReviews/list": {},
  "/ops/paymentReviews/review": {
    paymentNo: "PAY900018",
    decision: "credit",
    comments: "The bank confirms the amount.",
  },
  "/ops/withdrawals/list": {},
  "/ops/withdrawals/review": { withdrawalNo: "WD20260803B", decision: "confirm", comments: "Paid out." },
  "/ops/ledger/verify": { userId: 1 },
  "/sys/ops/jobs/failedList": {},
  "/sys/ops/queues/waiting": {},
  "/sys/ops/jobs/retry": { jobId: 41 },
  "/sys/ops/audit/list": {},
  "/sys/ops/audit/export": { action: "service.review" },
  "/sys/ops/testNetwork/status": {},
  "/sys/ops/testNetwork/reset": { confirmName: "test-network" },
  "/sys/ops/chainNodes/list": {},
  "/sys/ops/chainNodes/move": {
    chain: "open-alliance",
    nodeUrl: "http://127.0.0.1:8545",
    confirmName: "open-alliance",
  },
  "/sys/ops/ipfsUpgrades/list": {},
  "/sys/ops/ipfsUpgrades/take": { ipfsUpgradeId: 900020 },
  "/sys/ops/ipfsUpgrades/decide": { ipfsUpgradeId: 900020, decision: "reject", comments: "No room." },
  "/sys/ops/crossChain/pending": {},
  "/sys/ops/crossChain/review": { appId: 900021, decision: "reject", comments: "Not now." },
  "/sys/ops/certifications/list": {},
  "/sys/ops/certifications/review": { userId: 900040, decision: "reject", comments: "Unreadable licence." },
  "/sys/ops/community/posts": { kind: "news" },
  "/sys/ops/community/post": { postId: 900030 },
  "/sys/ops/community/savePost": { postId: 900030, kind: "news", titleEn: "Audited news" },
  "/sys/ops/community/publishPost": { postId: 900030, decision: "publish" },
  "/sys/ops/community/deletePost": { postId: 900030 },
  "/sys/ops/community/signups": { eventId: 900031 },
  "/sys/ops/community/partners": {},
  "/sys/ops/community/savePartner": { partner: { nameEn: "Audited partner", sortOrder: 1 } },
  "/sys/ops/community/deletePartner": { partnerId: 900032 },
  "/sys/ops/tickets/list": {},
  "/sys/ops/tickets/detail": { ticketId: 900021 },
  "/sys/ops/tickets/reply": { ticketId: 900021, content: "We have restarted your node." },
  "/sys/ops/tickets/close": { ticketId: 900021 },
  "/sys/ops/newsletter/list": {},
  "/sys/ops/newsletter/send": { subjectEn: "News", subjectZh: "新闻", bodyEn: "# Hello", bodyZh: "# 你好" },
  "/sys/ops/docs/list": {},
  "/sys/ops/docs/detail": { docId: 900021 },
  "/sys/ops/docs/save": { docId: 900021, form: { slug: "nothing-here", titleEn: "T", bodyEn: "B" } },
  "/sys/ops/docs/move": { docId: 900021, direction: "up" },
  "/sys/ops/docs/publish": { docId: 900021, published: false },
  "/sys/ops/docs/delete": { docId: 900021 },
  "/sys/ops/legal/list": {},
  "/sys/ops/legal/detail": { page: "privacy" },
  "/sys/ops/legal/save": {
    page: "privacy",
    form: { titleEn: "T", titleZh: "标", introEn: "I", introZh: "简", bodyEn: "B", bodyZh: "正" },
  },
  "/sys/ops/legal/contact": { form: { supportEmail: "help@portal.test", partnersEmail: "" } },
  "/sys/ops/market/list": {},
  "/sys/ops/market/save": {
    marketPackageId: 900022,
    form: {
      name: "nothing_here",
      language: "go",
      version: "1.0.0",
      descriptionEn: "d",
      descriptionZh: "d",
      mainPath: "main.go",
      functions: "f | F",
    },
  },
  "/sys/ops/market/withdraw": { marketPackageId: 900022, withdrawn: true },
  "/sys/ops/did/credentials": {},
  "/sys/ops/did/revoke": { credentialId: 900040 },
  "/main/mfa/enrolment": null,
  "/main/mfa/confirm": null,
  "/main/mfa/verify": null,
} satisfies Record<OperatorPath, Record<string, unknown> | null>;

/** POSTs through a router, with the client's address as the server entry hands it over. */
async function routed(
  route: (r: Request, caller?: Caller) => Promise<Response>,
  p: string,
  body: object,
  token: string,
): Promise<Reply> {
  const res = await route(
    new Request(`http://test.invalid/vueapi${p}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    }),
    { clientAddress: "203.0.113.9" },
  );
  return res.json() as Promise<Reply>;
}

describe("the audit log", () => {
  it("lists every operator path of the contract in its rules", () => {
    const operatorPaths = (Object.keys(paths) as VueapiPath[]).filter((p) => paths[p].auth === "operator").sort();
    expect(Object.keys(AUDIT_RULES).sort()).toEqual(operatorPaths);
    expect(Object.keys(SAMPLES).sort()).toEqual(operatorPaths);
  });

  it("every operator path that changes something writes exactly one entry, from the path and its payload", async () => {
    // The real router and contract with handlers that succeed without looking: what is logged comes from the rules alone.
    const calls: string[] = [];
    const fake = Object.fromEntries(
      Object.keys(paths).map((p) => [
        p,
        async (_payload: unknown, ctx: CallContext) => {
          calls.push(ctx.path);
          return { status: 7 };
        },
      ]),
    ) as Handlers;
    const route = createRouter(service.services, fake);
    later(MINUTE);
    const operator = await loginToken(service, "demooperator");
    let audited = 0;
    for (const [p, sample] of Object.entries(SAMPLES) as [OperatorPath, Record<string, unknown> | null][]) {
      const rule = AUDIT_RULES[p];
      if (rule === "handler") continue; // the second factor's own entries: tested above with the real handlers
      const before = await lastEntryId();
      const res = await routed(route, p, sample ?? {}, operator);
      expect(res.code, `${p} ${JSON.stringify(res)}`).toBe(0);
      const added = await service.services.db.select().from(auditLog).where(gt(auditLog.id, before));
      if (rule === "read") {
        expect(added, p).toHaveLength(0);
        continue;
      }
      audited += 1;
      expect(added, p).toHaveLength(1);
      const s = sample as Record<string, unknown>;
      expect(added[0], p).toMatchObject({
        path: p,
        actorName: "demooperator",
        action: rule.action,
        targetType: rule.target,
        targetId: "id" in rule && rule.id ? String(s[rule.id]) : null,
        decision: ("decision" in rule ? rule.decision : undefined) ?? (s.decision as string | undefined) ?? null,
        comments: (s.comments as string | undefined) ?? null,
        clientIp: "203.0.113.9",
        at: clock,
      });
      if ("outcome" in rule && rule.outcome) expect(added[0].details.outcome, p).toEqual({ status: 7 });
    }
    expect(audited).toBe(Object.values(AUDIT_RULES).filter((r) => typeof r === "object").length);
    expect(audited).toBe(35);
    expect(calls.length).toBeGreaterThan(audited);
  });

  it("a refused decision writes nothing, and a decision that fails takes its own changes back", async () => {
    later(MINUTE);
    const operator = await loginToken(service, "demooperator");
    const [me] = await service.services.db.select().from(users).where(eq(users.userName, "demooperator"));
    const failing = {
      "/sys/ops/refunds/decide": async (_payload: unknown, ctx: CallContext) => {
        await ctx.deps.db
          .insert(messages)
          .values({ userId: me.id, textKey: "messages.welcome", params: {}, createdAt: clock });
        throw new ApiError("MSG_30013");
      },
    } as unknown as Handlers;
    const route = createRouter(service.services, failing);
    const before = {
      entries: await totalEntries(),
      messages: (await service.services.db.select({ n: count() }).from(messages))[0].n,
    };
    expect(
      await routed(route, "/sys/ops/refunds/decide", { refundId: 99, decision: "approve" }, operator),
    ).toMatchObject({ code: 1, message: "MSG_30013" });
    expect(await totalEntries()).toBe(before.entries);
    expect((await service.services.db.select({ n: count() }).from(messages))[0].n).toBe(before.messages);
  });

  it("logs a real decision with its outcome and the client's address; a refused one logs nothing", async () => {
    const { userName, password } = await registeredUser(service, "pub");
    const publisher = await loginToken(service, userName, password);
    const created = await post("/test/services", { verState: 25 }, publisher);
    expect(created.code, JSON.stringify(created)).toBe(0);
    later(MINUTE);
    const operator = await loginToken(service, "demooperator");
    const suspend = { appVerId: created.data.appVerId, decision: "suspend", comments: "Reported for spam." };
    expect((await routed(service.handle, "/sys/ops/services/decide", suspend, operator)).code).toBe(0);
    const [entry] = await service.services.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "service.suspension"), eq(auditLog.targetId, String(created.data.appVerId))));
    expect(entry).toMatchObject({
      actorName: "demooperator",
      targetType: "serviceVersion",
      decision: "suspend",
      comments: "Reported for spam.",
      clientIp: "203.0.113.9",
      details: { outcome: { verState: 40 } },
    });
    const before = await totalEntries();
    expect((await routed(service.handle, "/sys/ops/services/decide", suspend, operator)).code).not.toBe(0);
    expect(await totalEntries()).toBe(before);
  });

  it("is append-only: the database refuses UPDATE, DELETE and TRUNCATE", async () => {
    const { db } = service.services;
    const before = await db.select().from(auditLog).orderBy(auditLog.id);
    expect(before.length).toBeGreaterThan(0);
    expect(await refusal(db.execute(sql`UPDATE audit_log SET comments = 'rewritten'`))).toMatch(
      /append-only: UPDATE refused/,
    );
    expect(
      await refusal(db.update(auditLog).set({ decision: "approve" }).where(eq(auditLog.id, before[0].id))),
    ).toMatch(/append-only: UPDATE refused/);
    expect(await refusal(db.execute(sql`DELETE FROM audit_log`))).toMatch(/append-only: DELETE refused/);
    expect(await refusal(db.delete(auditLog).where(eq(auditLog.id, before[0].id)))).toMatch(
      /append-only: DELETE refused/,
    );
    expect(await refusal(db.execute(sql`TRUNCATE audit_log`))).toMatch(/append-only: TRUNCATE refused/);
    expect(await db.select().from(auditLog).orderBy(auditLog.id)).toEqual(before);
  });

  it("operators filter, page and export it (the export is logged); nobody else reads it", async () => {
    later(MINUTE);
    const operator = await loginToken(service, "demooperator");
    const all = await post("/sys/ops/audit/list", { pageSize: 100 }, operator);
    expect(all.code).toBe(0);
    expect(all.data.page.total).toBe(await totalEntries());
    const times = all.data.page.rows.map((r: { at: string }) => r.at);
    expect([...times].sort().reverse()).toEqual(times);

    const mine = await post("/sys/ops/audit/list", { actor: "DemoOperator", pageSize: 100 }, operator);
    expect(mine.data.page.total).toBeGreaterThan(0);
    expect(mine.data.page.rows.every((r: { actorName: string }) => r.actorName === "demooperator")).toBe(true);
    expect(mine.data.page.total).toBeLessThan(all.data.page.total);

    const suspensions = await post(
      "/sys/ops/audit/list",
      { action: "service.suspension", targetType: "serviceVersion", targetId: "900013" },
      operator,
    );
    expect(suspensions.data.page.rows.map((r: { decision: string }) => r.decision)).toEqual(["suspend"]);

    const today = new Date(clock.getTime() + 8 * 3600_000).toISOString().slice(0, 10);
    const yesterday = new Date(clock.getTime() + 8 * 3600_000 - 86_400_000).toISOString().slice(0, 10);
    expect((await post("/sys/ops/audit/list", { dateFrom: today, dateTo: today }, operator)).data.page.total).toBe(
      all.data.page.total,
    );
    expect((await post("/sys/ops/audit/list", { dateTo: yesterday }, operator)).data.page.total).toBe(0);
    expect((await post("/sys/ops/audit/list", { dateFrom: "2026-02-30" }, operator)).message).toBe("MSG_10001");

    const page2 = await post("/sys/ops/audit/list", { pageSize: 2, pageIndex: 2 }, operator);
    expect(page2.data.page.rows.map((r: { id: number }) => r.id)).toEqual(
      all.data.page.rows.slice(2, 4).map((r: { id: number }) => r.id),
    );

    const exported = await post("/sys/ops/audit/export", { action: "mfa.enrolment" }, operator);
    expect(exported.data).toMatchObject({ truncated: false, total: exported.data.rows.length });
    expect(exported.data.rows.every((r: { action: string }) => r.action === "mfa.enrolment")).toBe(true);
    const [logged] = (await post("/sys/ops/audit/list", { action: "audit.export", pageSize: 1 }, operator)).data.page
      .rows;
    expect(logged).toMatchObject({
      actorName: "demooperator",
      targetType: "auditLog",
      details: { action: "mfa.enrolment" },
    });

    const person = await loginToken(service, "demoperson");
    expect((await post("/sys/ops/audit/list", {}, person)).code).toBe(4);
    expect((await post("/sys/ops/audit/export", {}, person)).code).toBe(4);
    const pending = await passwordStep("demooperator");
    expect(await post("/sys/ops/audit/list", {}, pending.token)).toMatchObject({ code: 3, message: "MSG_21001" });
  });
});
