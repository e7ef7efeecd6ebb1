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

/** SPEC §4 Payment status. */
export const PaymentStatus = {
  UNPAID: 1,
  IN_PAYMENT: 2,
  FAILED: 5,
  EXPIRED: 10,
  PAID: 15,
  REFUNDED: 20,
  PARTLY_REFUNDED: 25,
} as const;
/** SPEC §4 Refund review (withdrawals): 1 pending, 5 not approved, 10 approved, 15 confirmed. */
export const WithdrawalState = { PENDING: 1, REJECTED: 5, APPROVED: 10, CONFIRMED: 15 } as const;

/** SPEC §9 payment types: GT0001 WeChat, GT0002 UnionPay, GT0003 enterprise net banking, GT0004 offline remittance. */
export const PAY_TYPES = ["GT0001", "GT0002", "GT0003", "GT0004"] as const;
export type PayType = (typeof PAY_TYPES)[number];
export const OFFLINE_PAY_TYPE: PayType = "GT0004";
