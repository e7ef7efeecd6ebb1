import Stripe from "stripe";
import type { Deps } from "#backend/deps.ts";
import type { StripeConfig } from "#backend/env.ts";
import type { CardDetails, CheckoutRequest, CheckoutState, CheckoutStatus, PaymentProvider } from "./checkout.ts";

/**
 * Stripe Checkout behind the provider adapter (docs/decisions/019), with the official `stripe` library.
 * A recharge is a Checkout Session in mode `payment` (one line in USD, the one method chosen), a saved card one in
 * mode `setup`; of a card only brand, last 4 digits and expiry are kept. Outcomes come by signed webhook
 * (./stripe-webhook.ts) and by the same status requests as the sandbox's (polls, the return page).
 */

const clients = new WeakMap<StripeConfig, Stripe>();

/** One client per configuration; STRIPE_API_URL points it elsewhere (stripe-mock, a test double). */
export function stripeClient(config: StripeConfig): Stripe {
  let client = clients.get(config);
  if (!client) {
    const api = config.apiUrl ? new URL(config.apiUrl) : undefined;
    const protocol = api?.protocol === "http:" ? "http" : "https";
    client = new Stripe(config.secretKey, {
      maxNetworkRetries: 2,
      timeout: 20_000,
      telemetry: false,
      appInfo: { name: "BSN Portal" },
      ...(api ? { host: api.hostname, port: api.port || (protocol === "http" ? 80 : 443), protocol } : {}),
    });
    clients.set(config, client);
  }
  return client;
}

/** Stripe asks for at least 30 minutes between a session's creation and its end; ours ends it itself (expireCheckout). */
const STRIPE_MIN_OPEN_MS = 31 * 60 * 1000;

/** What the card setup's payment method is expanded to, for its brand, last 4 digits and expiry. */
const EXPAND_CARD = ["setup_intent.payment_method"];

const BRANDS: Record<string, string> = {
  amex: "American Express",
  diners: "Diners Club",
  discover: "Discover",
  eftpos_au: "eftpos",
  jcb: "JCB",
  mastercard: "Mastercard",
  unionpay: "UnionPay",
  visa: "Visa",
};

function cardOf(session: Stripe.Checkout.Session): CardDetails | null {
  const intent = session.setup_intent;
  if (!intent || typeof intent === "string") return null;
  const method = intent.payment_method;
  if (!method || typeof method === "string" || !method.card) return null;
  const card = method.card;
  return {
    brand: BRANDS[card.brand] ?? card.brand,
    last4: card.last4,
    expMonth: card.exp_month,
    expYear: card.exp_year,
  };
}

/**
 * A Checkout Session as the adapter's CheckoutState. Complete and paid is succeeded; complete but not paid
 * yet (an asynchronous method) stays open until its own event; `checkout.session.async_payment_failed`
 * declines; expired closes it.
 */
export function sessionState(session: Stripe.Checkout.Session, eventType?: string): CheckoutState {
  const mode = session.mode === "setup" ? "setup" : "payment";
  let status: CheckoutStatus = "open";
  let reason: string | null = null;
  if (session.status === "expired") {
    status = "expired";
    reason = "expired";
  } else if (session.status === "complete") {
    if (mode === "setup" || session.payment_status === "paid" || session.payment_status === "no_payment_required")
      status = "succeeded";
    else if (eventType === "checkout.session.async_payment_failed") {
      status = "declined";
      reason = "payment_failed";
    }
  }
  return {
    reference: session.id,
    mode,
    merchantRef: session.client_reference_id ?? session.metadata?.merchantRef ?? "",
    status,
    amountCents: mode === "payment" ? session.amount_total : null,
    currency: mode === "payment" && session.currency ? session.currency.toUpperCase() : null,
    card: mode === "setup" ? cardOf(session) : null,
    reason,
  };
}

/** Retrieves a session with its card; a session Stripe does not know is null. */
export async function retrieveSession(client: Stripe, reference: string): Promise<Stripe.Checkout.Session | null> {
  try {
    return await client.checkout.sessions.retrieve(reference, { expand: EXPAND_CARD });
  } catch (error) {
    if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) return null;
    throw error;
  }
}

export function stripeProvider(services: Deps, config: StripeConfig): PaymentProvider {
  const client = stripeClient(config);
  return {
    name: "stripe",
    async createCheckout(request: CheckoutRequest) {
      // Stripe puts the session's id where the return URL says {CHECKOUT_SESSION_ID}.
      const back = request.returnUrl.replace("{CHECKOUT_ID}", "{CHECKOUT_SESSION_ID}");
      const common = {
        client_reference_id: request.merchantRef,
        metadata: { merchantRef: request.merchantRef },
        success_url: back,
        cancel_url: back,
        // One method per session, the one the payer chose (docs/decisions/072): WeChat Pay and Alipay as
        // themselves, UnionPay as a card. This API version names the list allowed_payment_method_types.
        allowed_payment_method_types: [request.mode === "setup" ? "card" : request.method],
        expires_at: Math.ceil(
          Math.max(request.expiresAt.getTime(), services.now().getTime() + STRIPE_MIN_OPEN_MS) / 1000,
        ),
      } satisfies Stripe.Checkout.SessionCreateParams;
      const params: Stripe.Checkout.SessionCreateParams =
        request.mode === "payment"
          ? {
              ...common,
              mode: "payment",
              // A declined attempt is told by its PaymentIntent (payment_intent.payment_failed): the reference
              // names the payment there too (SPEC §8 "Payment failed"; issue 31 item 9).
              payment_intent_data: { metadata: { merchantRef: request.merchantRef } },
              // WeChat Pay in a browser: Stripe's page shows the QR code the payer scans.
              ...(request.method === "wechat_pay"
                ? { payment_method_options: { wechat_pay: { client: "web" as const } } }
                : {}),
              line_items: [
                {
                  quantity: 1,
                  price_data: {
                    currency: "usd",
                    unit_amount: request.amountCents ?? 0,
                    product_data: { name: request.description },
                  },
                },
              ],
            }
          : { ...common, mode: "setup" };
      // The merchant's reference is unique: a retried create is the same session at Stripe.
      const session = await client.checkout.sessions.create(params, {
        idempotencyKey: `checkout:${request.merchantRef}`,
      });
      if (!session.url) throw new Error(`Stripe gave checkout session ${session.id} no URL`);
      return { reference: session.id, redirectUrl: session.url };
    },
    async checkoutUrl(reference) {
      const session = await retrieveSession(client, reference);
      return session?.status === "open" ? session.url : null;
    },
    async fetchStatus(reference) {
      const session = await retrieveSession(client, reference);
      return session ? sessionState(session) : null;
    },
    async expireCheckout(reference) {
      try {
        return sessionState(await client.checkout.sessions.expire(reference, { expand: EXPAND_CARD }));
      } catch (error) {
        // Not open any more (completed a moment ago, or already expired): its state as it is.
        if (error instanceof Stripe.errors.StripeInvalidRequestError) {
          const session = await retrieveSession(client, reference);
          return session ? sessionState(session) : null;
        }
        throw error;
      }
    },
  };
}
