import { afterEach, describe, expect, it } from "vitest";
import { ConfigurationError, readBackendEnv } from "#backend/env.ts";
import { endpointFor } from "#backend/index.ts";
import { sessionState } from "#backend/domains/payments/stripe.ts";
import { getEnv, resetEnvForTests } from "#app/lib/env.server.ts";
import { fixture } from "../backend/fake-stripe.ts";

/** docs/decisions/019 and 020: which payment provider a server runs, and when it refuses to start. */
const STRIPE = {
  PAYMENT_PROVIDER: "stripe",
  STRIPE_SECRET_KEY: "sk_live_51AbCdEf",
  STRIPE_WEBHOOK_SECRET: "whsec_AbCdEf012345",
  PUBLIC_URL: "https://bsn.example.com",
};

function refusal(vars: Record<string, string>): string {
  try {
    readBackendEnv(vars);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    return (error as Error).message;
  }
  throw new Error("the configuration was accepted");
}

describe("the payment provider a server runs", () => {
  it("a production server without configuration refuses to start and says what to set", () => {
    const message = refusal({ NODE_ENV: "production" });
    expect(message).toBe(
      "Invalid backend environment:\n" +
        "  - PAYMENT_PROVIDER: a production server needs a real payment provider: set PAYMENT_PROVIDER=stripe with STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET, " +
        "or DEMO=1 to run the demo (sandbox payments in test mode, demo accounts)",
    );
  });

  it("refuses the sandbox in production unless the demo is asked for", () => {
    expect(refusal({ NODE_ENV: "production", PAYMENT_PROVIDER: "sandbox" })).toMatch(
      /PAYMENT_PROVIDER: the sandbox provider takes no real money and is refused when NODE_ENV=production/,
    );
    expect(refusal({ NODE_ENV: "production", PAYMENT_PROVIDER: "sandbox", DEMO: "0" })).toMatch(/PAYMENT_PROVIDER/);
    expect(readBackendEnv({ NODE_ENV: "production", DEMO: "1" })).toMatchObject({
      paymentProvider: "sandbox",
      testMode: true,
      demo: true,
      seedDemo: true,
      stripe: null,
    });
    expect(readBackendEnv({ NODE_ENV: "production", PAYMENT_PROVIDER: "sandbox", DEMO: "1" })).toMatchObject({
      paymentProvider: "sandbox",
      testMode: true,
    });
  });

  it("outside production the sandbox is the default, in test mode, without demo accounts", () => {
    for (const NODE_ENV of ["development", "test"]) {
      expect(readBackendEnv({ NODE_ENV })).toMatchObject({
        paymentProvider: "sandbox",
        testMode: true,
        demo: false,
        seedDemo: false,
      });
    }
  });

  it("Stripe needs its keys (and in production the public address), and never runs with the demo in production", () => {
    const missing = refusal({ NODE_ENV: "production", PAYMENT_PROVIDER: "stripe" });
    expect(missing).toMatch(/STRIPE_SECRET_KEY: required when PAYMENT_PROVIDER=stripe/);
    expect(missing).toMatch(/STRIPE_WEBHOOK_SECRET: required when PAYMENT_PROVIDER=stripe/);
    expect(missing).toMatch(/PUBLIC_URL: required when PAYMENT_PROVIDER=stripe in production/);
    expect(refusal({ ...STRIPE, NODE_ENV: "production", STRIPE_SECRET_KEY: "pk_live_123" })).toMatch(
      /STRIPE_SECRET_KEY: a Stripe secret key starts with sk_live_/,
    );
    expect(refusal({ ...STRIPE, NODE_ENV: "production", STRIPE_WEBHOOK_SECRET: "secret" })).toMatch(
      /STRIPE_WEBHOOK_SECRET: a Stripe webhook signing secret starts with whsec_/,
    );
    expect(refusal({ ...STRIPE, NODE_ENV: "production", DEMO: "1" })).toMatch(
      /DEMO: the demo .* cannot run with PAYMENT_PROVIDER=stripe when NODE_ENV=production/,
    );
    expect(readBackendEnv({ ...STRIPE, NODE_ENV: "production" })).toMatchObject({
      paymentProvider: "stripe",
      testMode: false,
      demo: false,
      stripe: { secretKey: STRIPE.STRIPE_SECRET_KEY, webhookSecret: STRIPE.STRIPE_WEBHOOK_SECRET, apiUrl: undefined },
    });
    // A developer may try Stripe's test keys against the demo accounts outside production.
    expect(
      readBackendEnv({ ...STRIPE, NODE_ENV: "development", STRIPE_SECRET_KEY: "sk_test_51AbCdEf", DEMO: "1" }),
    ).toMatchObject({ paymentProvider: "stripe", demo: true, testMode: false });
  });

  it("test captchas and fixtures stay refused in production, the demo included", () => {
    expect(refusal({ NODE_ENV: "production", DEMO: "1", TEST_CAPTCHA: "x" })).toMatch(
      /TEST_CAPTCHA must not be set when NODE_ENV=production/,
    );
    expect(refusal({ NODE_ENV: "production", DEMO: "1", TEST_FIXTURES: "1" })).toMatch(
      /TEST_FIXTURES must not be set when NODE_ENV=production/,
    );
    expect(refusal({ ...STRIPE, NODE_ENV: "production", TEST_FIXTURES: "1" })).toMatch(/TEST_FIXTURES/);
  });
});

describe("the endpoints a server serves follow its provider", () => {
  const sandbox = readBackendEnv({ NODE_ENV: "production", DEMO: "1" });
  const stripe = readBackendEnv({ ...STRIPE, NODE_ENV: "production" });
  it("the sandbox checkout only with the sandbox, the Stripe webhook only with Stripe, neither without a backend here", () => {
    expect(endpointFor("/sandbox-pay/checkout/cs_abc", sandbox)?.auth).toBe("public");
    expect(endpointFor("/payments/stripe/webhook", sandbox)).toBeUndefined();
    expect(endpointFor("/sandbox-pay/checkout/cs_abc", stripe)).toBeUndefined();
    expect(endpointFor("/payments/stripe/webhook", stripe)).toMatchObject({
      auth: "signature",
      methods: ["POST"],
      bodyLimitBytes: 512 * 1024,
    });
    expect(endpointFor("/sandbox-pay/checkout/cs_abc", undefined)).toBeUndefined();
    expect(endpointFor("/payments/stripe/webhook", undefined)).toBeUndefined();
  });
});

describe("a Stripe Checkout Session as the adapter's checkout state", () => {
  const completed = fixture("event.checkout.session.completed.json").data.object;
  it("complete and paid is succeeded, in upper-case currency; expired closes; an asynchronous failure declines", () => {
    expect(sessionState(completed)).toEqual({
      reference: completed.id,
      mode: "payment",
      merchantRef: "RC20261123A1B2C3D4",
      status: "succeeded",
      amountCents: 2550,
      currency: "USD",
      card: null,
      reason: null,
    });
    expect(sessionState(fixture("event.checkout.session.expired.json").data.object)).toMatchObject({
      status: "expired",
      reason: "expired",
    });
    expect(sessionState(fixture("session.open.json"))).toMatchObject({ status: "open" });
    const unpaid = { ...completed, payment_status: "unpaid" };
    expect(sessionState(unpaid)).toMatchObject({ status: "open" });
    expect(sessionState(unpaid, "checkout.session.async_payment_failed")).toMatchObject({
      status: "declined",
      reason: "payment_failed",
    });
  });

  it("a setup keeps the card's brand, last 4 digits and expiry, once its payment method is expanded", () => {
    const setup = fixture("event.checkout.session.completed.setup.json").data.object;
    expect(sessionState(setup)).toMatchObject({
      mode: "setup",
      status: "succeeded",
      merchantRef: "card:7:mh3k2w9abc12",
      amountCents: null,
      currency: null,
      card: null,
    });
    const expanded = { ...setup, setup_intent: fixture("setup_intent.succeeded.json") };
    expect(sessionState(expanded).card).toEqual({ brand: "Visa", last4: "4242", expMonth: 12, expYear: 2034 });
  });
});

describe("the portal's test-mode banner", () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
    resetEnvForTests();
  });
  const testMode = (vars: Record<string, string | undefined>) => {
    process.env = { ...saved, DEMO: undefined, SEED_DEMO: undefined, PAYMENT_PROVIDER: undefined, ...vars };
    resetEnvForTests();
    return getEnv().testMode;
  };
  it("is shown where the sandbox takes the payments, as the backend decides it", () => {
    expect(testMode({ NODE_ENV: "test" })).toBe(true);
    expect(testMode({ NODE_ENV: "production", DEMO: "1" })).toBe(true);
    expect(testMode({ NODE_ENV: "production" })).toBe(false);
    expect(testMode({ NODE_ENV: "development", PAYMENT_PROVIDER: "stripe" })).toBe(false);
  });
});
