import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { hashPassword } from "#backend/domains/accounts/passwords.ts";
import { derivedTotals, post as ledgerPost, totalsOf } from "#backend/domains/billing/ledger.ts";
import {
  cards,
  paymentReviews,
  payments,
  providerEvents,
  sandboxCheckouts,
  withdrawals,
} from "#backend/domains/payments/tables.ts";
import { ledgerEntries } from "#backend/domains/billing/tables.ts";
import { messages, users } from "#backend/db/tables.ts";
import { issueToken } from "#backend/http/auth.ts";
import paymentsDomain from "#backend/domains/payments/index.ts";
import { jobRegistry } from "#backend/jobs/runner.ts";

const handleSandboxPay = paymentsDomain.endpoints[0].handle;
/** The domain's job kinds as the runner sees them (a handler, or a handler with `ownerOf`). */
const paymentJobs = jobRegistry(Object.entries(paymentsDomain.jobs));
import { eventFor, signCallback, type CheckoutState } from "#backend/domains/payments/checkout.ts";
import { expectedArrival } from "#backend/domains/payments/handlers/shared.ts";
import { callVueapi, inProcessVueapi, type Vueapi } from "./in-process.ts";
import { Secret } from "otpauth";
import { operatorSecondFactors } from "#backend/domains/accounts/tables.ts";
import { sealTotpSecret } from "#backend/domains/accounts/mfa.ts";
import { passSecondFactor } from "../support/second-factor.ts";

/**
 * Payments, recharge, card and withdrawals, in-process (a clock the test can move, direct access to the
 * ledger to check the wallet against its entries). On PGlite by default; on the PostgreSQL of
 * DATABASE_URL when it is set (CI), where the concurrency test runs with real parallel transactions.
 */
const SECRET = "payments-test-webhook-secret-0123456789";
let clock = new Date();
const service = inProcessVueapi(
  "payments",
  {
    DATABASE_URL: process.env.DATABASE_URL,
    TEST_CAPTCHA: "PAY1",
    DEMO: "1",
    PAYMENT_WEBHOOK_SECRET: SECRET,
    PUBLIC_URL: "http://merchant.test",
    JOBS_INTERVAL_MS: "0",
  },
  () => clock,
);
let services: Vueapi["services"];
let operatorToken: string;

const call = (p: string, body: object = {}, token?: string) => callVueapi(service, p, body, token);

let counter = 0;
async function newUser(role: "user" | "operator" = "user") {
  counter += 1;
  const userName = `pay${Date.now().toString(36)}${counter}${Math.random().toString(36).slice(2, 6)}`.slice(0, 25);
  const [row] = await services.db
    .insert(users)
    .values({
      userName,
      passwordHash: await hashPassword("Gd47!@kw"),
      realName: "测试",
      email: `${userName}@example.com`,
      userType: 1,
      role,
      activatedAt: clock,
      createdAt: clock,
    })
    .returning();
  const token = await issueToken(services, row.id);
  if (role === "operator") {
    // An operator's token opens operator paths only after the second factor (docs/decisions/022).
    const secret = new Secret({ size: 20 }).base32;
    await services.db.insert(operatorSecondFactors).values({
      userId: row.id,
      sealedSecret: sealTotpSecret(services.env, secret),
      enrolledAt: clock,
      createdAt: clock,
    });
    await passSecondFactor(
      secret,
      (code) => call("/main/mfa/verify", { code }, token),
      () => clock.getTime(),
      false,
    );
  }
  return { id: row.id, token };
}

const key = () => `k${Date.now().toString(36)}${Math.random().toString(36).slice(2, 12)}xxxxxxxx`.slice(0, 32);

/** Pays a sandbox checkout with a card through the sandbox's own page (POST of its form). */
async function payAtSandbox(redirectUrl: string, number: string, action = "pay") {
  const form = new URLSearchParams({ action, number, expiry: "12/39", cvc: "123", name: "Test Payer" });
  const url = new URL(redirectUrl);
  return handleSandboxPay(
    new Request(`http://test.invalid${url.pathname}`, {
      method: "POST",
      body: form,
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    }),
    services,
  );
}

/**
 * The signed callback the sandbox would send for a checkout, as the body the provider POSTs; `change` makes
 * it say something else, still signed (a provider that took another amount or currency).
 */
async function signedCallbackFor(reference: string, secret = SECRET, at = clock, change: Partial<CheckoutState> = {}) {
  const [row] = await services.db.select().from(sandboxCheckouts).where(eq(sandboxCheckouts.id, reference));
  const state: CheckoutState = {
    reference: row.id,
    mode: row.mode as "payment",
    merchantRef: row.merchantRef,
    status: row.status as "succeeded",
    amountCents: row.amountCents,
    currency: row.mode === "setup" ? null : row.currency,
    card: row.cardLast4
      ? { brand: row.cardBrand!, last4: row.cardLast4, expMonth: row.cardExpMonth, expYear: row.cardExpYear }
      : null,
    reason: row.declineReason,
    ...change,
  };
  const event = JSON.stringify(eventFor(state, `evt_${row.id}`, Math.floor(at.getTime() / 1000)));
  const timestamp = Math.floor(at.getTime() / 1000);
  return { event, timestamp, signature: signCallback(secret, timestamp, event) };
}

async function recharge(token: string, amount: string, payType = "GT0002", extra: object = {}) {
  return call("/sys/account/recharge", { payType, amount, idempotencyKey: key(), ...extra }, token);
}

async function paymentRow(paymentNo: string) {
  const [row] = await services.db.select().from(payments).where(eq(payments.paymentNo, paymentNo));
  return row;
}

async function expectLedgerAgrees(userId: number) {
  const [wallet, derived] = await Promise.all([totalsOf(services.db, userId), derivedTotals(services.db, userId)]);
  expect(derived).toEqual(wallet);
  expect(wallet.balanceCents).toBeGreaterThanOrEqual(0);
  expect(wallet.withdrawableCents).toBeGreaterThanOrEqual(0);
  expect(wallet.withdrawableCents).toBeLessThanOrEqual(wallet.balanceCents);
  return wallet;
}

beforeAll(async () => {
  services = service.services;
  operatorToken = (await newUser("operator")).token;
  // The sandbox's callback job talks to the merchant over HTTP: here, straight into this service.
  vi.stubGlobal("fetch", async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(typeof input === "string" || input instanceof URL ? input : input.url);
    return service.handle(new Request(`http://test.invalid${url.pathname}`, init));
  });
});
afterAll(() => {
  vi.unstubAllGlobals();
});

describe("recharge through the sandbox provider", () => {
  it("pays with 4242…, the callback credits the balance once however often it is delivered", async () => {
    const me = await newUser();
    const created = await recharge(me.token, "25.50");
    expect(created.code, JSON.stringify(created)).toBe(0);
    expect(created.data.payment).toMatchObject({ status: 2, amountCents: 2550, payType: "GT0002" });
    expect(created.data.redirectUrl).toMatch(/^http:\/\/merchant\.test\/sandbox-pay\/checkout\/cs_/);

    const page = await handleSandboxPay(
      new Request(`http://test.invalid${new URL(created.data.redirectUrl).pathname}`),
      services,
    );
    const html = await page.text();
    expect(html).toContain("BSN Portal");
    expect(html).toContain("$25.50");
    expect(html).toContain("4242 4242 4242 4242");

    const paid = await payAtSandbox(created.data.redirectUrl, "4242 4242 4242 4242");
    expect(paid.status).toBe(303);
    expect(paid.headers.get("Location")).toBe(
      `http://merchant.test/g/home/userCenter/MyAccount/Recharge/Return?paymentNo=${created.data.payment.paymentNo}`,
    );
    const payment = await paymentRow(created.data.payment.paymentNo);
    const [checkout] = await services.db
      .select()
      .from(sandboxCheckouts)
      .where(eq(sandboxCheckouts.id, payment.providerRef!));
    expect(checkout).toMatchObject({ status: "succeeded", cardBrand: "Visa", cardLast4: "4242" });
    // The sandbox never keeps a full card number.
    expect(JSON.stringify(checkout)).not.toContain("4242424242424242");

    const body = await signedCallbackFor(payment.providerRef!);
    for (let i = 0; i < 10; i++) {
      const res = await call("/pay/callback", body);
      expect(res, JSON.stringify(res)).toMatchObject({ code: 0, data: { received: true, duplicate: i > 0 } });
    }
    expect((await paymentRow(payment.paymentNo)).status).toBe(15);
    const [logged] = await services.db
      .select()
      .from(providerEvents)
      .where(eq(providerEvents.eventId, `evt_${payment.providerRef}`));
    expect(logged.timesReceived).toBe(10);
    const entries = await services.db.select().from(ledgerEntries).where(eq(ledgerEntries.userId, me.id));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ kind: "recharge", balanceDelta: 2550, idempotencyKey: `payment:${payment.id}` });
    expect(await expectLedgerAgrees(me.id)).toMatchObject({ balanceCents: 2550, withdrawableCents: 2550 });
    const notes = await services.db.select().from(messages).where(eq(messages.userId, me.id)).orderBy(asc(messages.id));
    expect(notes.map((m) => m.textKey)).toEqual(["messages.rechargePaid"]);

    // The sandbox's own durable callback job delivers the same event again: still credited once.
    await paymentJobs.get("sandbox.callback")!.run({ checkoutId: payment.providerRef }, services);
    expect(await expectLedgerAgrees(me.id)).toMatchObject({ balanceCents: 2550 });
    const [delivered] = await services.db
      .select()
      .from(sandboxCheckouts)
      .where(eq(sandboxCheckouts.id, payment.providerRef!));
    expect(delivered.callbackDeliveredAt).not.toBeNull();

    const list = await call("/sys/account/rechargeList", { page: { pageSize: 10, pageIndex: 1 } }, me.token);
    expect(list.data.page.rows).toHaveLength(1);
    expect(list.data.totals.balanceCents).toBe(2550);
  });

  it("refuses a forged or stale callback and changes nothing", async () => {
    const me = await newUser();
    const created = await recharge(me.token, "10");
    await payAtSandbox(created.data.redirectUrl, "4242424242424242");
    const payment = await paymentRow(created.data.payment.paymentNo);
    const forged = await signedCallbackFor(payment.providerRef!, "not-the-shared-secret-at-all-000");
    expect(await call("/pay/callback", forged)).toMatchObject({ code: 1, message: "MSG_33001" });
    const good = await signedCallbackFor(payment.providerRef!);
    const tampered = { ...good, event: good.event.replace('"amountCents":1000', '"amountCents":99999') };
    expect(tampered.event).not.toBe(good.event);
    expect(await call("/pay/callback", tampered)).toMatchObject({ code: 1, message: "MSG_33001" });
    const stale = await signedCallbackFor(payment.providerRef!, SECRET, new Date(clock.getTime() - 10 * 60 * 1000));
    expect(await call("/pay/callback", stale)).toMatchObject({ code: 1, message: "MSG_33001" });
    expect(await call("/pay/callback", { event: "{}", timestamp: 1, signature: "zz" })).toMatchObject({
      code: 1,
      message: "MSG_10001",
    });
    expect((await paymentRow(payment.paymentNo)).status).toBe(2);
    expect(
      await services.db.select().from(providerEvents).where(eq(providerEvents.reference, payment.providerRef!)),
    ).toHaveLength(0);
    expect(await totalsOf(services.db, me.id)).toMatchObject({ balanceCents: 0 });
  });

  it("a declined card fails the payment with its reason and a message", async () => {
    const me = await newUser();
    for (const [number, reason] of [
      ["4000 0000 0000 0002", "card_declined"],
      ["4000000000009995", "insufficient_funds"],
    ]) {
      const created = await recharge(me.token, "12");
      const res = await payAtSandbox(created.data.redirectUrl, number);
      expect(res.status).toBe(303);
      const payment = await paymentRow(created.data.payment.paymentNo);
      expect(await call("/pay/callback", await signedCallbackFor(payment.providerRef!))).toMatchObject({ code: 0 });
      expect(await paymentRow(payment.paymentNo)).toMatchObject({ status: 5, failureReason: reason });
    }
    expect(await totalsOf(services.db, me.id)).toMatchObject({ balanceCents: 0 });
    const notes = await services.db.select().from(messages).where(eq(messages.userId, me.id)).orderBy(asc(messages.id));
    // SPEC §8 "Payment failed" on a declined provider payment (issue 31 item 9).
    expect(notes.map((m) => m.textKey)).toEqual(["messages.paymentFailed", "messages.paymentFailed"]);
    expect(notes[0].params).toMatchObject({ reason: "card_declined" });
  });

  it("the status refresh learns the outcome from the provider without a callback; cancel fails the payment", async () => {
    const me = await newUser();
    const created = await recharge(me.token, "7.25");
    await payAtSandbox(created.data.redirectUrl, "5555555555554444");
    const refreshed = await call(
      "/sys/account/payment",
      { paymentNo: created.data.payment.paymentNo, refresh: true },
      me.token,
    );
    expect(refreshed.data.payment.status).toBe(15);
    expect(refreshed.data.totals.balanceCents).toBe(725);

    const canceled = await recharge(me.token, "3");
    const back = await payAtSandbox(canceled.data.redirectUrl, "", "cancel");
    expect(back.status).toBe(303);
    const after = await call(
      "/sys/account/payment",
      { paymentNo: canceled.data.payment.paymentNo, refresh: true },
      me.token,
    );
    expect(after.data.payment).toMatchObject({ status: 5, failureReason: "canceled" });
    await expectLedgerAgrees(me.id);
  });

  it("a payment left open expires after 30 minutes (status 10) and its checkout closes", async () => {
    const me = await newUser();
    const created = await recharge(me.token, "9");
    const payment = await paymentRow(created.data.payment.paymentNo);
    // The 5-minute poll finds it still open.
    clock = new Date(clock.getTime() + 5 * 60 * 1000);
    await paymentJobs.get("payments.poll")!.run({ paymentId: payment.id }, services);
    expect((await paymentRow(payment.paymentNo)).status).toBe(2);
    clock = new Date(clock.getTime() + 26 * 60 * 1000);
    await paymentJobs.get("payments.expire")!.run({ paymentId: payment.id }, services);
    expect(await paymentRow(payment.paymentNo)).toMatchObject({ status: 10, failureReason: "expired" });
    const late = await payAtSandbox(created.data.redirectUrl, "4242424242424242");
    expect(late.status).toBe(409);
    expect(await totalsOf(services.db, me.id)).toMatchObject({ balanceCents: 0 });
    const notes = await services.db.select().from(messages).where(eq(messages.userId, me.id)).orderBy(asc(messages.id));
    expect(notes.map((m) => m.textKey)).toEqual(["messages.rechargeExpired"]);
  });

  it("the same idempotency key makes one payment", async () => {
    const me = await newUser();
    const idempotencyKey = key();
    const [a, b] = await Promise.all([
      call("/sys/account/recharge", { payType: "GT0002", amount: "5", idempotencyKey }, me.token),
      call("/sys/account/recharge", { payType: "GT0002", amount: "5", idempotencyKey }, me.token),
    ]);
    expect(a.data.payment.paymentNo).toBe(b.data.payment.paymentNo);
    expect(await services.db.select().from(payments).where(eq(payments.userId, me.id))).toHaveLength(1);
  });
});

describe("a signed callback whose amount or currency differs from the checkout goes to review", () => {
  /** A card recharge of `amount` paid at the sandbox, and its payment row. */
  async function paidRecharge(token: string, amount: string) {
    const created = await recharge(token, amount);
    await payAtSandbox(created.data.redirectUrl, "4242424242424242");
    return paymentRow(created.data.payment.paymentNo);
  }
  const reviewQueue = async (status: "open" | "all" = "open") =>
    (
      await call(
        "/ops/paymentReviews/list",
        { page: { pageSize: 100, pageIndex: 1, condition: { status } } },
        operatorToken,
      )
    ).data.page.rows as {
      paymentNo: string;
      inReview: boolean;
      review: {
        reason: string;
        reportedAmountCents: number | null;
        reportedCurrency: string | null;
        decision: string | null;
        comments: string | null;
      };
    }[];

  it("another amount: no 500 and nothing credited; the user sees it in review; an operator credits the checkout's amount once", async () => {
    const me = await newUser();
    const payment = await paidRecharge(me.token, "10");
    const body = await signedCallbackFor(payment.providerRef!, SECRET, clock, { amountCents: 99_999 });
    for (let i = 0; i < 3; i++)
      expect(await call("/pay/callback", body)).toMatchObject({ code: 0, data: { received: true, duplicate: i > 0 } });
    expect(await totalsOf(services.db, me.id)).toMatchObject({ balanceCents: 0 });
    const records = (await call("/sys/account/rechargeList", { page: { pageSize: 10, pageIndex: 1 } }, me.token)).data
      .page.rows;
    expect(records[0]).toMatchObject({ paymentNo: payment.paymentNo, status: 2, inReview: true });
    expect(
      (await call("/sys/account/payment", { paymentNo: payment.paymentNo, refresh: true }, me.token)).data.payment,
    ).toMatchObject({ status: 2, inReview: true });
    const held = (await reviewQueue()).find((r) => r.paymentNo === payment.paymentNo);
    expect(held).toMatchObject({
      inReview: true,
      review: { reason: "amount_mismatch", reportedAmountCents: 99_999, reportedCurrency: "USD", decision: null },
    });
    expect(
      await services.db.select().from(paymentReviews).where(eq(paymentReviews.paymentId, payment.id)),
    ).toHaveLength(1);

    // Neither the provider's correct word now nor the clock decides it any more: the operator does.
    expect(await call("/pay/callback", await signedCallbackFor(payment.providerRef!))).toMatchObject({ code: 0 });
    clock = new Date(clock.getTime() + 31 * 60 * 1000);
    await paymentJobs.get("payments.expire")!.run({ paymentId: payment.id }, services);
    expect(await paymentRow(payment.paymentNo)).toMatchObject({ status: 2 });
    expect(await totalsOf(services.db, me.id)).toMatchObject({ balanceCents: 0 });

    const credited = await call(
      "/ops/paymentReviews/review",
      { paymentNo: payment.paymentNo, decision: "credit", comments: "Checked at the provider" },
      operatorToken,
    );
    expect(credited, JSON.stringify(credited)).toMatchObject({ code: 0 });
    expect(await paymentRow(payment.paymentNo)).toMatchObject({
      status: 15,
      reviewComments: "Checked at the provider",
    });
    expect(await expectLedgerAgrees(me.id)).toMatchObject({ balanceCents: 1000, withdrawableCents: 1000 });
    expect(
      await call("/ops/paymentReviews/review", { paymentNo: payment.paymentNo, decision: "credit" }, operatorToken),
    ).toMatchObject({ code: 1, message: "MSG_30013" });
    // The provider delivers its event again (signed now): still credited once.
    expect(
      await call(
        "/pay/callback",
        await signedCallbackFor(payment.providerRef!, SECRET, clock, { amountCents: 99_999 }),
      ),
    ).toMatchObject({ code: 0, data: { duplicate: true } });
    expect(await expectLedgerAgrees(me.id)).toMatchObject({ balanceCents: 1000 });
    const [decided] = await services.db.select().from(paymentReviews).where(eq(paymentReviews.paymentId, payment.id));
    expect(decided).toMatchObject({ decision: "credit", comments: "Checked at the provider" });
    expect(decided.decidedBy).not.toBeNull();
    expect((await reviewQueue()).some((r) => r.paymentNo === payment.paymentNo)).toBe(false);
    expect((await reviewQueue("all")).find((r) => r.paymentNo === payment.paymentNo)).toMatchObject({
      inReview: false,
      review: { decision: "credit" },
    });
    const notes = await services.db.select().from(messages).where(eq(messages.userId, me.id)).orderBy(asc(messages.id));
    expect(notes.map((m) => m.textKey).sort()).toEqual([
      "messages.rechargeInReview",
      "messages.rechargeReviewCredited",
    ]);
  });

  it("another currency: held; an operator rejects it with required comments and the user is told", async () => {
    const me = await newUser();
    const payment = await paidRecharge(me.token, "12.34");
    expect(
      await call("/pay/callback", await signedCallbackFor(payment.providerRef!, SECRET, clock, { currency: "EUR" })),
    ).toMatchObject({ code: 0 });
    expect((await reviewQueue()).find((r) => r.paymentNo === payment.paymentNo)).toMatchObject({
      review: { reason: "currency_mismatch", reportedAmountCents: 1234, reportedCurrency: "EUR" },
    });
    const noComments = await call(
      "/ops/paymentReviews/review",
      { paymentNo: payment.paymentNo, decision: "reject" },
      operatorToken,
    );
    expect(noComments).toMatchObject({
      code: 1,
      message: "MSG_30014",
      data: { fieldErrors: { comments: ["payments:validation.commentsRequired"] } },
    });
    expect(
      await call(
        "/ops/paymentReviews/review",
        { paymentNo: payment.paymentNo, decision: "reject", comments: "Charged in EUR: refunded at the provider" },
        operatorToken,
      ),
    ).toMatchObject({ code: 0 });
    expect(await paymentRow(payment.paymentNo)).toMatchObject({
      status: 5,
      failureReason: "review_rejected",
      reviewComments: "Charged in EUR: refunded at the provider",
    });
    expect(await totalsOf(services.db, me.id)).toMatchObject({ balanceCents: 0 });
    const notes = await services.db.select().from(messages).where(eq(messages.userId, me.id)).orderBy(asc(messages.id));
    expect(notes.map((m) => [m.textKey, m.params.comments])).toEqual([
      ["messages.rechargeInReview", undefined],
      ["messages.rechargeReviewRejected", "Charged in EUR: refunded at the provider"],
    ]);
    // A payment that never went to review is not in the queue to decide.
    const plain = await paidRecharge(me.token, "1");
    expect(
      await call("/ops/paymentReviews/review", { paymentNo: plain.paymentNo, decision: "credit" }, operatorToken),
    ).toMatchObject({ code: 1, message: "MSG_10002" });
  });
});

describe("amount rules (SPEC §5 Money)", () => {
  it("refuses missing, zero, negative and non-numeric amounts, for recharge and withdrawal", async () => {
    const me = await newUser();
    const cases: [unknown, string][] = [
      ["0", "validation.amount.positive"],
      ["0.00", "validation.amount.positive"],
      ["-5", "validation.amount.format"],
      ["abc", "validation.amount.format"],
      ["1.234", "validation.amount.format"],
      ["", "validation.amount.required"],
      [undefined, "validation.amount.required"],
      [12, "validation.amount.format"],
    ];
    for (const [amount, message] of cases) {
      const r = await call("/sys/account/recharge", { payType: "GT0002", amount, idempotencyKey: key() }, me.token);
      expect(r, String(amount)).toMatchObject({
        code: 1,
        message: "MSG_10001",
        data: { fieldErrors: { amount: expect.arrayContaining([message]) } },
      });
      const w = await call("/sys/account/h5cashOutAmount", { amount, idempotencyKey: key() }, me.token);
      expect(w, String(amount)).toMatchObject({
        code: 1,
        message: "MSG_10001",
        data: { fieldErrors: { amount: expect.arrayContaining([message]) } },
      });
    }
    expect(await services.db.select().from(payments).where(eq(payments.userId, me.id))).toHaveLength(0);
  });

  it("refuses a withdrawal above the withdrawable amount: MSG_30008 (grants are not withdrawable)", async () => {
    const me = await newUser();
    await services.db.transaction((tx) =>
      ledgerPost(tx, { userId: me.id, kind: "grant", amountCents: 5000, refType: "grant", refId: me.id }, clock),
    );
    const r = await call("/sys/account/h5cashOutAmount", { amount: "0.01", idempotencyKey: key() }, me.token);
    expect(r).toMatchObject({
      code: 1,
      message: "MSG_30008",
      data: { fieldErrors: { amount: ["errors:MSG_30008"] }, withdrawableCents: 0 },
    });
    expect(await services.db.select().from(withdrawals).where(eq(withdrawals.userId, me.id))).toHaveLength(0);
  });

  it("an offline remittance needs the payer's bank reference", async () => {
    const me = await newUser();
    const r = await recharge(me.token, "100", "GT0004");
    expect(r).toMatchObject({
      code: 1,
      data: { fieldErrors: { remittanceRef: ["payments:validation.remittanceRefRequired"] } },
    });
  });
});

/** A user with `cents` of withdrawable money, credited by a confirmed offline remittance. */
async function userWithMoney(cents: number) {
  const me = await newUser();
  const created = await recharge(me.token, (cents / 100).toFixed(2), "GT0004", { remittanceRef: "ICBC 2026-0001" });
  expect(created.code, JSON.stringify(created)).toBe(0);
  expect(created.data.redirectUrl).toBeNull();
  const confirmed = await call(
    "/ops/remittances/review",
    { paymentNo: created.data.payment.paymentNo, decision: "confirm" },
    operatorToken,
  );
  expect(confirmed.code, JSON.stringify(confirmed)).toBe(0);
  return me;
}

describe("offline remittance and withdrawals reviewed by operators", () => {
  it("an operator confirms a remittance (ledger recharge) or rejects it with required comments", async () => {
    const me = await userWithMoney(30000);
    expect(await expectLedgerAgrees(me.id)).toMatchObject({ balanceCents: 30000, withdrawableCents: 30000 });
    const other = await recharge(me.token, "40", "GT0004", { remittanceRef: "BOC-7781" });
    const queue = await call("/ops/remittances/list", { page: { pageSize: 100, pageIndex: 1 } }, operatorToken);
    expect(queue.data.page.rows.some((r: { paymentNo: string }) => r.paymentNo === other.data.payment.paymentNo)).toBe(
      true,
    );
    const noComments = await call(
      "/ops/remittances/review",
      { paymentNo: other.data.payment.paymentNo, decision: "reject" },
      operatorToken,
    );
    expect(noComments).toMatchObject({
      code: 1,
      message: "MSG_30014",
      data: { fieldErrors: { comments: ["payments:validation.commentsRequired"] } },
    });
    expect(
      await call(
        "/ops/remittances/review",
        { paymentNo: other.data.payment.paymentNo, decision: "reject", comments: "No such transfer arrived" },
        operatorToken,
      ),
    ).toMatchObject({ code: 0 });
    expect(await paymentRow(other.data.payment.paymentNo)).toMatchObject({
      status: 5,
      reviewComments: "No such transfer arrived",
    });
    expect(
      await call(
        "/ops/remittances/review",
        { paymentNo: other.data.payment.paymentNo, decision: "confirm" },
        operatorToken,
      ),
    ).toMatchObject({ code: 1, message: "MSG_30013" });
    expect(await expectLedgerAgrees(me.id)).toMatchObject({ balanceCents: 30000 });
  });

  it("approve: state 10 with the arrival 7 working days later; reject: state 5 and the money back", async () => {
    const me = await userWithMoney(10000);
    const first = await call("/sys/account/h5cashOutAmount", { amount: "30", idempotencyKey: key() }, me.token);
    expect(first.data.withdrawal).toMatchObject({ state: 1, amountCents: 3000 });
    expect(await expectLedgerAgrees(me.id)).toMatchObject({ balanceCents: 7000, withdrawableCents: 7000 });
    const approved = await call(
      "/ops/withdrawals/review",
      { withdrawalNo: first.data.withdrawal.withdrawalNo, decision: "approve" },
      operatorToken,
    );
    expect(approved.code, JSON.stringify(approved)).toBe(0);
    const list = await call("/sys/account/withdrawList", { page: { pageSize: 10, pageIndex: 1 } }, me.token);
    expect(list.data.page.rows[0]).toMatchObject({ state: 10, expectedArrival: expectedArrival(clock) });
    expect(
      await call(
        "/ops/withdrawals/review",
        { withdrawalNo: first.data.withdrawal.withdrawalNo, decision: "confirm" },
        operatorToken,
      ),
    ).toMatchObject({ code: 0 });
    expect(await expectLedgerAgrees(me.id)).toMatchObject({ balanceCents: 7000 });

    const second = await call("/sys/account/h5cashOutAmount", { amount: "50", idempotencyKey: key() }, me.token);
    expect(await expectLedgerAgrees(me.id)).toMatchObject({ balanceCents: 2000, withdrawableCents: 2000 });
    expect(
      await call(
        "/ops/withdrawals/review",
        { withdrawalNo: second.data.withdrawal.withdrawalNo, decision: "reject" },
        operatorToken,
      ),
    ).toMatchObject({ code: 1, message: "MSG_30014" });
    expect(
      await call(
        "/ops/withdrawals/review",
        {
          withdrawalNo: second.data.withdrawal.withdrawalNo,
          decision: "reject",
          comments: "Account name does not match",
        },
        operatorToken,
      ),
    ).toMatchObject({ code: 0 });
    expect(await expectLedgerAgrees(me.id)).toMatchObject({ balanceCents: 7000, withdrawableCents: 7000 });
    expect(
      await call(
        "/ops/withdrawals/review",
        { withdrawalNo: second.data.withdrawal.withdrawalNo, decision: "approve" },
        operatorToken,
      ),
    ).toMatchObject({ code: 1, message: "MSG_30013" });
    const rows = (await call("/sys/account/withdrawList", { page: { pageSize: 10, pageIndex: 1 } }, me.token)).data.page
      .rows;
    expect(rows.map((r: { state: number }) => r.state)).toEqual([5, 15]);
    expect(rows[0].reviewComments).toBe("Account name does not match");
    const notes = await services.db.select().from(messages).where(eq(messages.userId, me.id)).orderBy(asc(messages.id));
    expect(notes.map((m) => m.textKey).sort()).toEqual([
      "messages.remittanceConfirmed",
      "messages.withdrawalApproved",
      "messages.withdrawalConfirmed",
      "messages.withdrawalRejected",
    ]);
  });

  it("7 working days skip the weekend", () => {
    // Friday 2026-06-05 10:00 in UTC+8 → Tuesday 2026-06-16.
    expect(expectedArrival(new Date("2026-06-05T02:00:00Z"))).toBe("2026-06-16");
  });

  it("the same withdrawal key holds the money once", async () => {
    const me = await userWithMoney(1000);
    const idempotencyKey = key();
    const results = await Promise.all(
      [1, 2, 3].map(() => call("/sys/account/h5cashOutAmount", { amount: "4", idempotencyKey }, me.token)),
    );
    expect(new Set(results.map((r) => r.data.withdrawal.withdrawalNo)).size).toBe(1);
    expect(await expectLedgerAgrees(me.id)).toMatchObject({ balanceCents: 600 });
  });
});

describe("who may see and do what", () => {
  it("operator paths answer code 4 to users", async () => {
    const me = await newUser();
    for (const p of ["/ops/remittances/list", "/ops/withdrawals/list", "/ops/paymentReviews/list"]) {
      expect(await call(p, { page: { pageSize: 10, pageIndex: 1 } }, me.token)).toMatchObject({ code: 4 });
    }
    expect(await call("/ops/remittances/review", { paymentNo: "RC1", decision: "confirm" }, me.token)).toMatchObject({
      code: 4,
    });
    expect(await call("/ops/paymentReviews/review", { paymentNo: "RC1", decision: "credit" }, me.token)).toMatchObject({
      code: 4,
    });
    expect(await call("/ops/withdrawals/review", { withdrawalNo: "WD1", decision: "approve" }, me.token)).toMatchObject(
      { code: 4 },
    );
  });

  it("another user's payment, withdrawal and card checkout are invisible", async () => {
    const owner = await userWithMoney(2000);
    const stranger = await newUser();
    const created = await recharge(owner.token, "5");
    expect(
      await call("/sys/account/payment", { paymentNo: created.data.payment.paymentNo, refresh: true }, stranger.token),
    ).toMatchObject({ code: 1, message: "MSG_10002" });
    await call("/sys/account/h5cashOutAmount", { amount: "1", idempotencyKey: key() }, owner.token);
    expect(
      (await call("/sys/account/withdrawList", { page: { pageSize: 10, pageIndex: 1 } }, stranger.token)).data.page
        .total,
    ).toBe(0);
    expect(
      (await call("/sys/account/rechargeList", { page: { pageSize: 10, pageIndex: 1 } }, stranger.token)).data.page
        .total,
    ).toBe(0);
    const setup = await call("/sys/account/cardSetup", {}, owner.token);
    const ref = new URL(setup.data.redirectUrl).pathname.split("/").pop();
    expect(await call("/sys/account/card", { setupRef: ref }, stranger.token)).toMatchObject({
      code: 0,
      data: { card: null, setup: "unknown" },
    });
  });
});

describe("saved card", () => {
  it("a setup checkout stores only brand, last 4, expiry and the provider reference; a new one replaces it", async () => {
    const me = await newUser();
    for (const [number, last4] of [
      ["4242424242424242", "4242"],
      ["5555 5555 5555 4444", "4444"],
    ]) {
      const setup = await call("/sys/account/cardSetup", {}, me.token);
      expect(setup.code).toBe(0);
      const res = await payAtSandbox(setup.data.redirectUrl, number);
      const ref = new URL(setup.data.redirectUrl).pathname.split("/").pop()!;
      expect(res.headers.get("Location")).toBe(`http://merchant.test/g/home/userCenter/MyAccount/Update?setup=${ref}`);
      expect(await call("/pay/callback", await signedCallbackFor(ref))).toMatchObject({ code: 0 });
      const card = await call("/sys/account/card", { setupRef: ref }, me.token);
      expect(card.data).toMatchObject({ setup: "succeeded", card: { last4, expMonth: 12, expYear: 2039 } });
    }
    const rows = await services.db.select().from(cards).where(eq(cards.userId, me.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ brand: "Mastercard", last4: "4444" });
    expect(Object.keys(rows[0]).sort()).toEqual([
      "brand",
      "expMonth",
      "expYear",
      "last4",
      "providerRef",
      "updatedAt",
      "userId",
    ]);
  });
});

describe("concurrency: one account, many callbacks and withdrawals at once", () => {
  it("200 concurrent recharge callbacks and withdrawals never overdraw and the ledger agrees", async () => {
    const me = await newUser();
    const bodies: Awaited<ReturnType<typeof signedCallbackFor>>[] = [];
    for (let i = 0; i < 50; i++) {
      const created = await recharge(me.token, "2");
      await payAtSandbox(created.data.redirectUrl, "4242424242424242");
      bodies.push(await signedCallbackFor((await paymentRow(created.data.payment.paymentNo)).providerRef!));
    }
    // 50 payments, each callback delivered twice (100), against 100 withdrawals of $1.50 (more than will ever be there).
    const work = [
      ...bodies.flatMap((b) => [b, b]).map((b) => () => call("/pay/callback", b)),
      ...Array.from(
        { length: 100 },
        () => () => call("/sys/account/h5cashOutAmount", { amount: "1.50", idempotencyKey: key() }, me.token),
      ),
    ].sort(() => Math.random() - 0.5);
    const results = await Promise.all(work.map((w) => w()));
    for (const r of results) expect([0, 1]).toContain(r.code);
    const refused = results.filter((r) => r.code === 1);
    for (const r of refused) expect(r.message).toBe("MSG_30008");
    const wallet = await expectLedgerAgrees(me.id);
    const held = await services.db.select().from(withdrawals).where(eq(withdrawals.userId, me.id));
    const credited = await services.db.select().from(ledgerEntries).where(eq(ledgerEntries.userId, me.id));
    expect(credited.filter((e) => e.kind === "recharge")).toHaveLength(50);
    expect(credited.filter((e) => e.kind === "withdrawal_hold")).toHaveLength(held.length);
    expect(held.length).toBe(100 - refused.length);
    expect(held.length).toBeLessThanOrEqual(Math.floor(10000 / 150));
    expect(wallet.balanceCents).toBe(10000 - held.length * 150);
  });
});

describe("the sandbox simulates each method's own page (docs/decisions/072)", () => {
  const sandboxPage = (url: string, init?: RequestInit) =>
    handleSandboxPay(new Request(`http://test.invalid${new URL(url).pathname}`, init), services);

  it("WeChat Pay shows a QR code in test mode; paying it as the phone credits the balance", async () => {
    const me = await newUser();
    const created = await recharge(me.token, "8.00", "GT0001");
    expect(created.code, JSON.stringify(created)).toBe(0);
    const page = await sandboxPage(created.data.redirectUrl);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain('data-testid="test-mode-banner"');
    expect(html).toContain('data-testid="wechat-qr"');
    expect(html).toMatch(/<svg[^>]*>.*<path/s);
    expect(html).not.toContain('name="number"');
    const paid = await sandboxPage(created.data.redirectUrl, {
      method: "POST",
      body: new URLSearchParams({ action: "pay" }),
    });
    expect(paid.status).toBe(303);
    const payment = await paymentRow(created.data.payment.paymentNo);
    const [checkout] = await services.db
      .select()
      .from(sandboxCheckouts)
      .where(eq(sandboxCheckouts.id, payment.providerRef!));
    expect(checkout).toMatchObject({ method: "wechat_pay", status: "succeeded", cardLast4: null });
    expect(await call("/pay/callback", await signedCallbackFor(payment.providerRef!))).toMatchObject({ code: 0 });
    expect((await paymentRow(payment.paymentNo)).status).toBe(15);
    expect(await totalsOf(services.db, me.id)).toMatchObject({ balanceCents: 800 });
  });

  it("Alipay redirects to its own simulated site in test mode; a failed payment there fails the recharge", async () => {
    const me = await newUser();
    const created = await recharge(me.token, "9.00", "GT0005");
    expect(created.code, JSON.stringify(created)).toBe(0);
    const redirect = await sandboxPage(created.data.redirectUrl);
    expect(redirect.status).toBe(303);
    const site = redirect.headers.get("Location")!;
    expect(site).toMatch(/\/sandbox-pay\/alipay\/cs_/);
    const page = await sandboxPage(site);
    const html = await page.text();
    expect(html).toContain('data-testid="test-mode-banner"');
    expect(html).toContain("Alipay (simulated site)");
    // The card checkout's address does not serve Alipay's page, nor Alipay's address a card checkout.
    const card = await recharge(me.token, "1.00", "GT0002");
    expect((await sandboxPage(card.data.redirectUrl.replace("/checkout/", "/alipay/"))).status).toBe(404);
    const failed = await sandboxPage(site, { method: "POST", body: new URLSearchParams({ action: "decline" }) });
    expect(failed.status).toBe(303);
    const payment = await paymentRow(created.data.payment.paymentNo);
    expect(await call("/pay/callback", await signedCallbackFor(payment.providerRef!))).toMatchObject({ code: 0 });
    expect(await paymentRow(payment.paymentNo)).toMatchObject({ status: 5, failureReason: "payment_failed" });
  });
});
