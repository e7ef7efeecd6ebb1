/**
 * Payment provider codes shared by the backend and the portal, without Zod (docs/decisions/019, 020).
 */

/** The card payment providers a server can run: the embedded sandbox (test mode) or Stripe Checkout. */
export const PAYMENT_PROVIDERS = ["sandbox", "stripe"] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number];

/** The one currency of the platform's amounts (SPEC §9 Money: USD); a provider answering another is reviewed. */
export const PLATFORM_CURRENCY = "USD";

/**
 * The provider a server runs: the one PAYMENT_PROVIDER names, else the sandbox where the sandbox may run
 * (outside production, or a demo asked for with DEMO=1); undefined when none is named and the sandbox may
 * not run (a production server must name a real provider). Whether the server may start with the answer
 * is decided by backend/env.ts.
 */
export function chosenPaymentProvider(env: {
  nodeEnv: string;
  demo: boolean;
  paymentProvider: PaymentProviderName | undefined;
}): PaymentProviderName | undefined {
  return env.paymentProvider ?? (sandboxMayRun(env) ? "sandbox" : undefined);
}

/** The sandbox takes no real money: it runs outside production, or in production only as the demo (DEMO=1). */
export function sandboxMayRun(env: { nodeEnv: string; demo: boolean }): boolean {
  return env.nodeEnv !== "production" || env.demo;
}
