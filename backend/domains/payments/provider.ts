import type { Deps } from "../../deps";
import type { PaymentProvider } from "./checkout";
import { createSandboxCheckout, expireSandboxCheckout, sandboxCheckoutState, sandboxCheckoutUrl } from "./sandbox";
import { webhookSecret } from "./secret";

/** The embedded sandbox provider, reached in-process (its pages are served under /sandbox-pay). */
export function sandboxProvider(services: Deps): PaymentProvider {
  return {
    name: "sandbox",
    createCheckout: (request) => createSandboxCheckout(services, request),
    checkoutUrl: (reference) => sandboxCheckoutUrl(services, reference),
    fetchStatus: (reference) => sandboxCheckoutState(services, reference),
    expireCheckout: (reference) => expireSandboxCheckout(services, reference),
  };
}

export function providerFor(services: Deps): PaymentProvider {
  return sandboxProvider(services);
}

export function callbackSecret(services: Deps): string {
  return webhookSecret(services.env);
}
