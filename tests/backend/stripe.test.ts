import { asc, eq } from "drizzle-orm";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "#backend/domains/accounts/passwords.ts";
import { ledgerEntries } from "#backend/domains/billing/tables.ts";
import { totalsOf } from "#backend/domains/billing/ledger.ts";
import { cards, paymentReviews, payments, providerEvents } from "#backend/domains/payments/tables.ts";
import { messages, users } from "#backend/db/tables.ts";
import { eventAbout, fixture, startFakeStripe, type FakeStripe } from "./fake-stripe.ts";
import { callVueapi, openVueapi, sessionOf, type Vueapi } from "./in-process.ts";

/**
 * Stripe Checkout behind the provider adapter (docs/decisions/019), offline: the official client talks to a
 * fake Stripe API started here (tests/backend/fake-stripe.ts), and webhooks are recorded event payloads
 * signed with the library's own generateTestHeaderString and received by the registered endpoint.
 */
const WEBHOOK_SECRET = "whsec_test_5f1c0e9a7b3d2c4e6f8a0b1c2d3e4f5a";
const SECRET_KEY = "sk_test_51QmT7sLkN3pR8vWxFakeKeyForTests0123456789";
let clock = new Date();
let fake: FakeStripe;
let service: Vueapi;
let operatorToken: string;
const stripe = new Stripe(SECRET_KEY);

const call = (p: string, body: object = {}, token?: string) => callVueapi(service, p, body, token);
const key = () => `k${Date.now().toString(36)}${Math.random().toString(36).slice(2, 12)}xxxxxxxx`.slice(0, 32);

let counter = 0;
async function userToken(role: "user" | "operator") {
  counter += 1;
  const userName = `str${Date.now().toString(36)}${counter}${Math.random().toString(36).slice(2, 6)}`.slice(0, 25);
  const [row] = await service.services.db
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
  return { id: row.id, token: await sessionOf(service, row.id) };
}

/** POSTs a webhook to the endpoint as Stripe does: the raw payload and its Stripe-Signature header. */
function deliver(
  payload: string,
  signature: string | null = stripe.webhooks.generateTestHeaderString({
    payload,
    secret: WEBHOOK_SECRET,
    timestamp: Math.floor(clock.getTime() / 1000),
  }),
) {
  return service.serveEndpoint(
    new Request("http://test.invalid/payments/stripe/webhook", {
      method: "POST",
      headers: {
        "Content-Type": "application/json; charset=utf-8",
        ...(signature ? { "Stripe-Signature": signature } : {}),
      },
      body: payload,
    }),
  );
}

async function recharge(token: string, amount: string, idempotencyKey = key()) {
  const created = await call("/sys/account/recharge", { payType: "GT0002", amount, idempotencyKey }, token);
  expect(created.code, JSON.stringify(created)).toBe(0);
  const [row] = await service.services.db
    .select()
    .from(payments)
    .where(eq(payments.paymentNo, created.data.payment.paymentNo));
  return { created, payment: row, session: fake.sessions.get(row.providerRef!)! };
}

const paymentRow = async (id: number) =>
  (await service.services.db.select().from(payments).where(eq(payments.id, id)))[0];

beforeAll(async () => {
  fake = await startFakeStripe();
  service = await openVueapi(
    "stripe",
    {
      TEST_CAPTCHA: "STR1",
      PAYMENT_PROVIDER: "stripe",
      STRIPE_SECRET_KEY: SECRET_KEY,
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: fake.url,
      PUBLIC_URL: "https://portal.example.com",
      JOBS_INTERVAL_MS: "0",
    },
    () => clock,
  );
  operatorToken = (await userToken("operator")).token;
});
afterAll(async () => {
  await service?.close();
  await fake?.close();
});

describe("Stripe Checkout behind the adapter", () => {
  it("a recharge is a Checkout Session in mode payment, in USD, for the merchant's reference", async () => {
    const me = await userToken("user");
    const idempotencyKey = key();
    const { created, payment, session } = await recharge(me.token, "25.50", idempotencyKey);
    expect(created.data.redirectUrl).toBe(session.url);
    expect(payment).toMatchObject({ provider: "stripe", status: 2, amountCents: 2550 });
    const sent = fake.requests.find(
      (r) =>
        r.method === "POST" && r.path === "/v1/checkout/sessions" && r.params.client_reference_id === payment.paymentNo,
    )!;
    expect(sent.headers.authorization).toBe(`Bearer ${SECRET_KEY}`);
    expect(sent.headers["idempotency-key"]).toBe(`checkout:${payment.paymentNo}`);
    expect(sent.params).toMatchObject({
      mode: "payment",
      allowed_payment_method_types: ["card"],
      line_items: [{ quantity: "1", price_data: { currency: "usd", unit_amount: "2550" } }],
      success_url: `https://portal.example.com/g/home/userCenter/MyAccount/Recharge/Return?paymentNo=${payment.paymentNo}`,
    });
    // A card (GT0002, UnionPay among them) is a session for cards only (docs/decisions/072).
    expect(sent.params.payment_method_options).toBeUndefined();
    expect(session.payment_method_types).toEqual(["card"]);
    // Stripe wants at least 30 minutes; the payment's own 30 minutes end it here (payments.expire).
    expect(Number(sent.params.expires_at)).toBeGreaterThanOrEqual(Math.floor(clock.getTime() / 1000) + 30 * 60);
    // Asked again with the same key: the same payment and the way to its open session (asked of Stripe).
    const again = await call("/sys/account/recharge", { payType: "GT0002", amount: "25.50", idempotencyKey }, me.token);
    expect(again.data).toMatchObject({ payment: { paymentNo: payment.paymentNo }, redirectUrl: session.url });
    expect(fake.sessions.size).toBe(1);
  });

  it("refuses a forged, tampered, unsigned or stale webhook with a 4xx and credits nothing", async () => {
    const me = await userToken("user");
    const { payment, session } = await recharge(me.token, "10");
    const payload = eventAbout("event.checkout.session.completed.json", fake.complete(session.id));
    const forged = stripe.webhooks.generateTestHeaderString({
      payload,
      secret: "whsec_not_the_endpoint_secret_000000",
      timestamp: Math.floor(clock.getTime() / 1000),
    });
    const tampered = payload.replace('"amount_total": 1000', '"amount_total": 100000');
    expect(tampered).not.toBe(payload);
    const stale = stripe.webhooks.generateTestHeaderString({
      payload,
      secret: WEBHOOK_SECRET,
      timestamp: Math.floor(clock.getTime() / 1000) - 10 * 60,
    });
    const good = stripe.webhooks.generateTestHeaderString({
      payload,
      secret: WEBHOOK_SECRET,
      timestamp: Math.floor(clock.getTime() / 1000),
    });
    for (const res of [
      await deliver(payload, forged),
      await deliver(tampered, good),
      await deliver(payload, null),
      await deliver(payload, stale),
      await deliver(payload, "t=1,v1=zz"),
    ]) {
      expect(res.status).toBe(400);
    }
    expect((await paymentRow(payment.id)).status).toBe(2);
    expect(
      await service.services.db.select().from(providerEvents).where(eq(providerEvents.reference, session.id)),
    ).toHaveLength(0);
    expect(await totalsOf(service.services.db, me.id)).toMatchObject({ balanceCents: 0 });
    // A GET, or a body over the endpoint's 512 KB, never reaches the verification.
    expect((await service.serveEndpoint(new Request("http://test.invalid/payments/stripe/webhook"))).status).toBe(405);
    expect((await deliver(" ".repeat(600 * 1024) + payload, good)).status).toBe(413);
  });

  it("a valid checkout.session.completed credits once, however often it is delivered", async () => {
    const me = await userToken("user");
    const { payment, session } = await recharge(me.token, "25.50");
    const payload = eventAbout("event.checkout.session.completed.json", fake.complete(session.id));
    for (let i = 0; i < 5; i++) {
      const res = await deliver(payload);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ received: true, duplicate: i > 0 });
    }
    expect(await paymentRow(payment.id)).toMatchObject({ status: 15, failureReason: null });
    const entries = await service.services.db.select().from(ledgerEntries).where(eq(ledgerEntries.userId, me.id));
    expect(entries.map((e) => [e.kind, e.balanceDelta])).toEqual([["recharge", 2550]]);
    const [logged] = await service.services.db
      .select()
      .from(providerEvents)
      .where(eq(providerEvents.reference, session.id));
    expect(logged).toMatchObject({ provider: "stripe", kind: "checkout.session.completed", timesReceived: 5 });
    const notes = await service.services.db
      .select()
      .from(messages)
      .where(eq(messages.userId, me.id))
      .orderBy(asc(messages.id));
    expect(notes.map((m) => m.textKey).filter((k) => k.startsWith("messages.recharge"))).toEqual([
      "messages.rechargePaid",
    ]);
    // The return page's refresh asks Stripe too, and changes nothing more.
    expect(
      (await call("/sys/account/payment", { paymentNo: payment.paymentNo, refresh: true }, me.token)).data.totals
        .balanceCents,
    ).toBe(2550);
  });

  it("payment_intent.payment_failed says Payment failed (SPEC §8) once; the checkout stays open for another try", async () => {
    const me = await userToken("user");
    const { payment } = await recharge(me.token, "13");
    const sent = fake.requests.find(
      (r) =>
        r.method === "POST" && r.path === "/v1/checkout/sessions" && r.params.client_reference_id === payment.paymentNo,
    )!;
    expect(sent.params).toMatchObject({ payment_intent_data: { metadata: { merchantRef: payment.paymentNo } } });
    const payload = JSON.stringify({
      id: `evt_pi_failed_${payment.id}`,
      object: "event",
      api_version: "2025-03-31.basil",
      created: Math.floor(clock.getTime() / 1000),
      type: "payment_intent.payment_failed",
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      data: {
        object: {
          id: `pi_failed_${payment.id}`,
          object: "payment_intent",
          amount: 1300,
          currency: "usd",
          status: "requires_payment_method",
          metadata: { merchantRef: payment.paymentNo },
          last_payment_error: { type: "card_error", code: "card_declined", decline_code: "insufficient_funds" },
        },
      },
    });
    for (let i = 0; i < 2; i++) {
      const res = await deliver(payload);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ received: true, duplicate: i > 0 });
    }
    const notes = await service.services.db
      .select()
      .from(messages)
      .where(eq(messages.userId, me.id))
      .orderBy(asc(messages.id));
    expect(notes.map((m) => [m.textKey, m.params])).toEqual([
      [
        "messages.paymentFailed",
        { paymentNo: payment.paymentNo, amount: expect.any(String), reason: "insufficient_funds" },
      ],
    ]);
    // The payer may still pay in the same session: the payment stays in payment (2).
    expect((await paymentRow(payment.id)).status).toBe(2);
  });

  it("checkout.session.expired marks the payment expired; the expiry job closes an open session at Stripe", async () => {
    const me = await userToken("user");
    const first = await recharge(me.token, "8");
    Object.assign(first.session, { status: "expired", url: null });
    const res = await deliver(eventAbout("event.checkout.session.expired.json", first.session));
    expect(res.status).toBe(200);
    expect(await paymentRow(first.payment.id)).toMatchObject({ status: 10, failureReason: "expired" });

    const second = await recharge(me.token, "9");
    clock = new Date(clock.getTime() + 31 * 60 * 1000);
    await service.runJobs();
    expect(
      fake.requests.some((r) => r.method === "POST" && r.path === `/v1/checkout/sessions/${second.session.id}/expire`),
    ).toBe(true);
    expect(second.session.status).toBe("expired");
    expect(await paymentRow(second.payment.id)).toMatchObject({ status: 10, failureReason: "expired" });
    expect(await totalsOf(service.services.db, me.id)).toMatchObject({ balanceCents: 0 });
    const notes = await service.services.db
      .select()
      .from(messages)
      .where(eq(messages.userId, me.id))
      .orderBy(asc(messages.id));
    expect(notes.map((m) => m.textKey).filter((k) => k.startsWith("messages.recharge"))).toEqual([
      "messages.rechargeExpired",
      "messages.rechargeExpired",
    ]);
  });

  it("a saved card is a session in mode setup; only brand, last 4 and expiry are kept", async () => {
    const me = await userToken("user");
    const setup = await call("/sys/account/cardSetup", {}, me.token);
    expect(setup.code, JSON.stringify(setup)).toBe(0);
    const session = [...fake.sessions.values()].find((s) => s.url === setup.data.redirectUrl)!;
    expect(session).toMatchObject({
      mode: "setup",
      success_url: "https://portal.example.com/g/home/userCenter/MyAccount/Update?setup={CHECKOUT_SESSION_ID}",
    });
    expect(session.client_reference_id).toMatch(new RegExp(`^card:${me.id}:`));
    const res = await deliver(eventAbout("event.checkout.session.completed.setup.json", fake.complete(session.id)));
    expect(res.status).toBe(200);
    // The event names the setup intent only: its card was asked for with the session.
    expect(
      fake.requests.some(
        (r) =>
          r.method === "GET" &&
          r.path === `/v1/checkout/sessions/${session.id}` &&
          r.params.expand?.includes("setup_intent.payment_method"),
      ),
    ).toBe(true);
    const [card] = await service.services.db.select().from(cards).where(eq(cards.userId, me.id));
    expect(card).toEqual({
      userId: me.id,
      brand: "Visa",
      last4: "4242",
      expMonth: 12,
      expYear: 2034,
      providerRef: session.id,
      updatedAt: clock,
    });
    expect((await call("/sys/account/card", { setupRef: session.id }, me.token)).data).toMatchObject({
      setup: "succeeded",
      card: { brand: "Visa", last4: "4242" },
    });
    expect(JSON.stringify(card)).not.toContain(fixture("setup_intent.succeeded.json").payment_method.id);
  });

  it("a signed event whose amount or currency differs from the checkout goes to review, never a 500", async () => {
    const me = await userToken("user");
    const amount = await recharge(me.token, "40");
    const currency = await recharge(me.token, "41");
    const byAmount = await deliver(
      eventAbout("event.checkout.session.completed.json", fake.complete(amount.session.id, { amount_total: 400 })),
    );
    const byCurrency = await deliver(
      eventAbout("event.checkout.session.completed.json", fake.complete(currency.session.id, { currency: "cny" })),
    );
    expect([byAmount.status, byCurrency.status]).toEqual([200, 200]);
    expect(await totalsOf(service.services.db, me.id)).toMatchObject({ balanceCents: 0 });
    const reviews = await service.services.db.select().from(paymentReviews);
    expect(reviews.find((r) => r.paymentId === amount.payment.id)).toMatchObject({
      provider: "stripe",
      reason: "amount_mismatch",
      reportedAmountCents: 400,
      reportedCurrency: "USD",
      decision: null,
    });
    expect(reviews.find((r) => r.paymentId === currency.payment.id)).toMatchObject({
      reason: "currency_mismatch",
      reportedAmountCents: 4100,
      reportedCurrency: "CNY",
    });
    const list = (await call("/sys/account/rechargeList", { page: { pageSize: 10, pageIndex: 1 } }, me.token)).data.page
      .rows;
    expect(list.map((r: { inReview: boolean; status: number }) => [r.status, r.inReview])).toEqual([
      [2, true],
      [2, true],
    ]);
    expect(
      await call(
        "/ops/paymentReviews/review",
        { paymentNo: amount.payment.paymentNo, decision: "credit" },
        operatorToken,
      ),
    ).toMatchObject({ code: 0 });
    expect(await totalsOf(service.services.db, me.id)).toMatchObject({ balanceCents: 4000 });
  });

  it("STRIPE_PAYMENT_METHODS unset offers cards only: WeChat Pay and Alipay are refused at their field (MSG_10001)", async () => {
    const me = await userToken("user");
    const sessionsBefore = fake.sessions.size;
    for (const payType of ["GT0001", "GT0005"]) {
      const res = await service.handle(
        new Request("http://test.invalid/vueapi/sys/account/recharge", {
          method: "POST",
          headers: { "Content-Type": "application/json", Authorization: `Bearer ${me.token}` },
          body: JSON.stringify({ payType, amount: "5.00", idempotencyKey: key() }),
        }),
      );
      // Never a 5xx: the envelope says the refusal (the portal's page answers it with a 400).
      expect(res.status, payType).toBeLessThan(500);
      expect(await res.json()).toMatchObject({
        code: 1,
        message: "MSG_10001",
        data: { fieldErrors: { payType: ["payments:validation.payTypeNotOffered"] } },
      });
    }
    expect(fake.sessions.size).toBe(sessionsBefore);
    const list = await call("/sys/account/rechargeList", { page: { pageSize: 10, pageIndex: 1 } }, me.token);
    expect(list.data).toMatchObject({ page: { total: 0 }, offered: ["GT0002", "GT0003", "GT0004"] });
  });

  it("the sandbox is neither served nor listened to when Stripe is the provider", async () => {
    expect(
      (await service.serveEndpoint(new Request("http://test.invalid/sandbox-pay/checkout/cs_abcdefghijklmnop"))).status,
    ).toBe(404);
    expect(
      await call("/pay/callback", {
        event: "{}",
        timestamp: Math.floor(clock.getTime() / 1000),
        signature: "0".repeat(64),
      }),
    ).toMatchObject({ code: 1, message: "MSG_33001" });
  });
});
