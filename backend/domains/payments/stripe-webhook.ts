import Stripe from "stripe";
import type { Deps } from "#backend/deps.ts";
import { receiveDeclinedAttempt, receiveProviderEvent } from "./settle.ts";
import { retrieveSession, sessionState, stripeClient } from "./stripe.ts";

/**
 * Stripe's webhook (docs/decisions/019): POST /payments/stripe/webhook, registered in the Stripe dashboard
 * with the events below. The raw body and its `Stripe-Signature` header are verified with the endpoint's
 * signing secret (STRIPE_WEBHOOK_SECRET) by the library; a bad or stale signature is a 400 and changes
 * nothing. A verified event is recorded by its id and applied once (./settle.ts).
 */
export const STRIPE_WEBHOOK_PATH = "/payments/stripe/webhook";

/** The events that tell a checkout's outcome; any other verified event is acknowledged and ignored. */
export const STRIPE_EVENTS = new Set([
  "checkout.session.completed",
  "checkout.session.expired",
  "checkout.session.async_payment_succeeded",
  "checkout.session.async_payment_failed",
  // A declined attempt inside an open checkout (SPEC §8 "Payment failed"; the session stays open).
  "payment_intent.payment_failed",
]);

const reply = (status: number, body: Record<string, unknown>) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" },
  });

export async function handleStripeWebhook(request: Request, services: Deps): Promise<Response> {
  const config = services.env.stripe;
  if (!config || new URL(request.url).pathname !== STRIPE_WEBHOOK_PATH) return reply(404, { error: "not found" });
  const signature = request.headers.get("Stripe-Signature");
  if (!signature) return reply(400, { error: "the Stripe-Signature header is missing" });
  // The exact bytes Stripe signed (the endpoint's body limit was enforced before this point).
  const raw = Buffer.from(await request.arrayBuffer());
  const client = stripeClient(config);
  let event: Stripe.Event;
  try {
    // Its age is measured on the server's clock (services.now), the one the tests move.
    event = client.webhooks.constructEvent(
      raw,
      signature,
      config.webhookSecret,
      undefined,
      undefined,
      services.now().getTime(),
    );
  } catch (error) {
    const why =
      error instanceof Stripe.errors.StripeSignatureVerificationError
        ? "the signature does not verify"
        : "the event cannot be read";
    return reply(400, { error: why });
  }
  if (!STRIPE_EVENTS.has(event.type)) return reply(200, { received: true, ignored: true });
  if (event.type === "payment_intent.payment_failed") {
    const intent = event.data.object as Stripe.PaymentIntent;
    const merchantRef = intent.metadata?.merchantRef;
    if (!merchantRef) return reply(200, { received: true, ignored: true });
    const failure = intent.last_payment_error;
    const { duplicate } = await receiveDeclinedAttempt(services, {
      provider: "stripe",
      eventId: event.id,
      kind: event.type,
      merchantRef,
      reason: failure?.decline_code ?? failure?.code ?? "card_declined",
      payload: event as unknown as Record<string, unknown>,
    });
    return reply(200, { received: true, duplicate });
  }
  let session = event.data.object as Stripe.Checkout.Session;
  if (session.object !== "checkout.session") return reply(200, { received: true, ignored: true });
  if (session.mode === "setup" && session.status === "complete") {
    // The event names the setup's intent; its card (brand, last 4, expiry) is asked for.
    try {
      session = (await retrieveSession(client, session.id)) ?? session;
    } catch (error) {
      console.warn(
        `Stripe did not give checkout session ${session.id}:`,
        error instanceof Error ? error.message : error,
      );
      // Stripe delivers the event again later.
      return reply(503, { error: "the checkout session could not be read from Stripe; deliver again later" });
    }
  }
  const { duplicate } = await receiveProviderEvent(services, {
    provider: "stripe",
    eventId: event.id,
    kind: event.type,
    reference: session.id,
    payload: event as unknown as Record<string, unknown>,
    state: sessionState(session, event.type),
  });
  return reply(200, { received: true, duplicate });
}
