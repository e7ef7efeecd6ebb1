import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { payments } from "#backend/domains/payments/tables.ts";
import { startFakeStripe, type FakeStripe } from "./fake-stripe.ts";
import { callVueapi, insertedUser, openVueapi, ownDatabase, sessionOf, type Vueapi } from "./in-process.ts";

/**
 * Payment methods that do what they say (issue 31 item 2; docs/decisions/072), against the fake Stripe API:
 * with STRIPE_PAYMENT_METHODS=wechat_pay,alipay, WeChat Pay (GT0001) and Alipay (GT0005) are Checkout Sessions
 * for that one method (WeChat Pay for the web), a card (GT0002) is not offered and refused at its field, and
 * the bank transfers stay. tests/backend/stripe.test.ts covers the default, cards only.
 */
const SECRET_KEY = "sk_test_51QmT7sLkN3pR8vWxFakeKeyForMethods0123456789";
let fake: FakeStripe;
let service: Vueapi;

const key = () => `m${Date.now().toString(36)}${Math.random().toString(36).slice(2, 12)}xxxxxxxxxx`.slice(0, 32);

let counter = 0;
const uniqueName = (prefix: string) => `${prefix}${Date.now().toString(36)}${(counter += 1)}`.slice(0, 25);

async function newUser(role = "user") {
  return sessionOf(service, await insertedUser(service, uniqueName(role === "user" ? "pmu" : "pmo"), role));
}

/** The recharge request as the portal sends it, with its HTTP status. */
async function recharge(token: string, payType: string, extra: object = {}) {
  const res = await service.handle(
    new Request("http://test.invalid/vueapi/sys/account/recharge", {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
      body: JSON.stringify({ payType, amount: "12.34", idempotencyKey: key(), ...extra }),
    }),
  );
  return { status: res.status, body: (await res.json()) as { code: number; message: string; data: any } };
}

/** The Checkout Session create request the backend sent for a payment. */
function sentFor(paymentNo: string) {
  return fake.requests.find(
    (r) => r.method === "POST" && r.path === "/v1/checkout/sessions" && r.params.client_reference_id === paymentNo,
  )!;
}

beforeAll(async () => {
  fake = await startFakeStripe();
  service = await openVueapi("pay-methods", {
    TEST_CAPTCHA: "PMT1",
    PAYMENT_PROVIDER: "stripe",
    STRIPE_SECRET_KEY: SECRET_KEY,
    STRIPE_WEBHOOK_SECRET: "whsec_test_0a1b2c3d4e5f60718293a4b5c6d7e8f9",
    STRIPE_API_URL: fake.url,
    STRIPE_PAYMENT_METHODS: "wechat_pay, alipay",
    PUBLIC_URL: "https://portal.example.com",
    JOBS_INTERVAL_MS: "0",
    // On the suite's PostgreSQL, a database of its own.
    DATABASE_URL: await ownDatabase(process.env.DATABASE_URL),
  });
});
afterAll(async () => {
  await service?.close();
  await fake?.close();
});

describe("payment methods from STRIPE_PAYMENT_METHODS", () => {
  it("WeChat Pay is a session for wechat_pay only, its client the web", async () => {
    const token = await newUser();
    const { status, body } = await recharge(token, "GT0001");
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.data.payment).toMatchObject({ payType: "GT0001", status: 2, amountCents: 1234 });
    const sent = sentFor(body.data.payment.paymentNo);
    expect(sent.params.allowed_payment_method_types).toEqual(["wechat_pay"]);
    expect(sent.params.payment_method_options).toEqual({ wechat_pay: { client: "web" } });
    expect(sent.params).toMatchObject({
      mode: "payment",
      line_items: [{ quantity: "1", price_data: { currency: "usd", unit_amount: "1234" } }],
    });
    const [row] = await service.services.db
      .select()
      .from(payments)
      .where(eq(payments.paymentNo, body.data.payment.paymentNo));
    expect(body.data.redirectUrl).toBe(fake.sessions.get(row.providerRef!)?.url);
  });

  it("Alipay (GT0005) is a session for alipay only, without WeChat's options", async () => {
    const token = await newUser();
    const { status, body } = await recharge(token, "GT0005");
    expect(status, JSON.stringify(body)).toBe(200);
    const sent = sentFor(body.data.payment.paymentNo);
    expect(sent.params.allowed_payment_method_types).toEqual(["alipay"]);
    expect(sent.params.payment_method_options).toBeUndefined();
    const [row] = await service.services.db
      .select()
      .from(payments)
      .where(eq(payments.paymentNo, body.data.payment.paymentNo));
    expect(row).toMatchObject({ provider: "stripe", payType: "GT0005" });
    expect(fake.sessions.get(row.providerRef!)?.payment_method_types).toEqual(["alipay"]);
  });

  it("a card (GT0002) is not configured: refused at its field (MSG_10001), no payment, nothing sent to Stripe", async () => {
    const token = await newUser();
    const before = fake.requests.length;
    const { status, body } = await recharge(token, "GT0002");
    // The /vueapi envelope says the refusal (code 1, SPEC §7); the portal's page answers it with a 400.
    expect(status).toBeLessThan(500);
    expect(body).toMatchObject({
      code: 1,
      message: "MSG_10001",
      data: { fieldErrors: { payType: ["payments:validation.payTypeNotOffered"] } },
    });
    expect(fake.requests.length).toBe(before);
    const list = await callVueapi(
      service,
      "/sys/account/rechargeList",
      { page: { pageSize: 10, pageIndex: 1 } },
      token,
    );
    expect(list.data.page.total).toBe(0);
    // The list of what is offered: the configured methods' types and the bank transfers, in catalogue order.
    expect(list.data.offered).toEqual(["GT0001", "GT0003", "GT0004", "GT0005"]);
  });

  it("enterprise net banking (GT0003) is a bank transfer quoting its payment number, in the operators' queue", async () => {
    const token = await newUser();
    const before = fake.requests.length;
    const { status, body } = await recharge(token, "GT0003");
    expect(status, JSON.stringify(body)).toBe(200);
    const payment = body.data.payment;
    expect(payment).toMatchObject({ payType: "GT0003", status: 2, remittanceRef: payment.paymentNo });
    expect(body.data.redirectUrl).toBeNull();
    expect(fake.requests.length).toBe(before);
    const queue = await callVueapi(
      service,
      "/ops/remittances/list",
      { page: { pageSize: 50, pageIndex: 1 } },
      await newUser("operator"),
    );
    expect(queue.data.page.rows.map((r: { paymentNo: string }) => r.paymentNo)).toContain(payment.paymentNo);
  });
});
