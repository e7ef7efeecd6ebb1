import type { Deps } from "#backend/deps.ts";
import type { PaymentProvider } from "./checkout.ts";
import { createSandboxCheckout, expireSandboxCheckout, sandboxCheckoutState, sandboxCheckoutUrl } from "./sandbox.ts";
import { webhookSecret } from "./secret.ts";
import { stripeProvider } from "./stripe.ts";

/** The embedded sandbox provider, reached in-process (its pages are served under /sandbox-pay). */
export function sandboxProvider(services: Deps): PaymentProvider {
  return {
    name: "sandbox",
    createCheckout: (request) => createSandboxCheckout(services, request),
    checkoutUrl: async (reference) => sandboxCheckoutUrl(services, reference),
    fetchStatus: (reference) => sandboxCheckoutState(services, reference),
    expireCheckout: (reference) => expireSandboxCheckout(services, reference),
  };
}

/** The provider this server runs: PAYMENT_PROVIDER, validated at start (backend/env.ts; docs/decisions/019, 020). */
export function providerFor(services: Deps): PaymentProvider {
  const stripe = services.env.stripe;
  if (services.env.paymentProvider === "stripe" && stripe) return stripeProvider(services, stripe);
  return sandboxProvider(services);
}

export function callbackSecret(services: Deps): string {
  return webhookSecret(services.env);
}
