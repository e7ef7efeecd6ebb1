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

/**
 * SPEC §9 payment types: GT0001 WeChat Pay, GT0002 UnionPay, GT0003 enterprise net banking, GT0004 offline
 * remittance; GT0005 Alipay is ours (docs/decisions/072).
 */
export const PAY_TYPES = ["GT0001", "GT0002", "GT0003", "GT0004", "GT0005"] as const;
export type PayType = (typeof PAY_TYPES)[number];
export const OFFLINE_PAY_TYPE: PayType = "GT0004";
/** Enterprise net banking: a bank transfer quoting the reference the portal gives, matched by operators. */
export const NET_BANKING_PAY_TYPE: PayType = "GT0003";

/** The payment methods a provider's checkout can take (Stripe's names; the sandbox simulates each). */
export const PROVIDER_METHODS = ["card", "wechat_pay", "alipay"] as const;
export type ProviderMethod = (typeof PROVIDER_METHODS)[number];

/**
 * What each payment type really does (docs/decisions/072): a provider checkout with one method (WeChat Pay and
 * Alipay as themselves, UnionPay as a card), or a bank transfer an operator matches by its reference.
 */
export const PAY_TYPE_ROUTES = {
  GT0001: { kind: "provider", method: "wechat_pay" },
  GT0002: { kind: "provider", method: "card" },
  GT0003: { kind: "transfer" },
  GT0004: { kind: "transfer" },
  GT0005: { kind: "provider", method: "alipay" },
} as const satisfies Record<PayType, { kind: "provider"; method: ProviderMethod } | { kind: "transfer" }>;

/** The provider method of a payment type, or null for a bank transfer (GT0003, GT0004). */
export function providerMethodOf(payType: PayType): ProviderMethod | null {
  const route: { kind: string; method?: ProviderMethod } = PAY_TYPE_ROUTES[payType];
  return route.method ?? null;
}

/** Bank transfers (net banking, offline remittance): no provider checkout, an operator confirms the money. */
export function isBankTransfer(payType: string): boolean {
  return payType === NET_BANKING_PAY_TYPE || payType === OFFLINE_PAY_TYPE;
}
export const BANK_TRANSFER_PAY_TYPES: readonly PayType[] = PAY_TYPES.filter(isBankTransfer);

/** The payment types offered when the provider takes these methods: theirs, and the bank transfers always. */
export function offeredPayTypes(methods: readonly ProviderMethod[]): PayType[] {
  return PAY_TYPES.filter((type) => {
    const method = providerMethodOf(type);
    return method === null || methods.includes(method);
  });
}

/** The methods a server's provider takes when STRIPE_PAYMENT_METHODS is unset: Stripe cards only; the sandbox all. */
export function defaultProviderMethods(provider: PaymentProviderName): ProviderMethod[] {
  return provider === "stripe" ? ["card"] : [...PROVIDER_METHODS];
}

/**
 * STRIPE_PAYMENT_METHODS (`card,wechat_pay,alipay`): the methods in the order given, without repeats; an
 * unknown name or an empty list is an error (the server does not start).
 */
export function parseProviderMethods(
  text: string,
): { ok: true; methods: ProviderMethod[] } | { ok: false; error: string } {
  const names = text
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  if (names.length === 0) return { ok: false, error: `name at least one of ${PROVIDER_METHODS.join(", ")}` };
  const methods: ProviderMethod[] = [];
  for (const name of names) {
    if (!(PROVIDER_METHODS as readonly string[]).includes(name))
      return { ok: false, error: `unknown payment method "${name}" (known: ${PROVIDER_METHODS.join(", ")})` };
    if (!methods.includes(name as ProviderMethod)) methods.push(name as ProviderMethod);
  }
  return { ok: true, methods };
}
