import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import type { ProviderMethod } from "#contract/payments-codes.ts";

/**
 * The card payment provider as this backend (the merchant) sees it (SPEC §1 "Payment by a card payment
 * provider (redirect)", §9; docs/decisions/019). Two adapters have this shape: the sandbox provider of
 * ./sandbox.ts (test mode: a third party of its own, embedded), and Stripe Checkout (./stripe.ts).
 */

export type CheckoutMode = "payment" | "setup";
export type CheckoutStatus = "open" | "succeeded" | "declined" | "expired";

export type CardDetails = { brand: string; last4: string; expMonth: number | null; expYear: number | null };

/** What the provider knows about one checkout. */
export type CheckoutState = {
  reference: string;
  mode: CheckoutMode;
  merchantRef: string;
  status: CheckoutStatus;
  amountCents: number | null;
  /** ISO 4217 code, upper case, of the amount the provider took (null: a card setup). */
  currency: string | null;
  card: CardDetails | null;
  /** Why it was declined or closed: card_declined, insufficient_funds, canceled, expired. */
  reason: string | null;
};

export type CheckoutRequest = {
  mode: CheckoutMode;
  /** The one method this checkout takes (docs/decisions/072); a card setup is a card. */
  method: ProviderMethod;
  /** The merchant's own reference: a payment number, or `card:<userId>` for a card setup. */
  merchantRef: string;
  amountCents: number | null;
  description: string;
  returnUrl: string;
  callbackUrl: string;
  expiresAt: Date;
};

export interface PaymentProvider {
  readonly name: string;
  createCheckout(request: CheckoutRequest): Promise<{ reference: string; redirectUrl: string }>;
  /** Where the browser goes to pay an open checkout (null once it is closed). */
  checkoutUrl(reference: string): Promise<string | null>;
  fetchStatus(reference: string): Promise<CheckoutState | null>;
  /** Closes a checkout still open; answers its final state (it may have been paid in the meantime). */
  expireCheckout(reference: string): Promise<CheckoutState | null>;
}

/** A callback event, as signed by the sandbox provider. */
export const providerEventSchema = z.object({
  id: z.string().min(1).max(100),
  type: z.enum(["checkout.succeeded", "checkout.declined", "checkout.expired"]),
  created: z.number().int(),
  data: z.object({
    reference: z.string().min(1).max(100),
    mode: z.enum(["payment", "setup"]),
    merchantRef: z.string().min(1).max(100),
    amountCents: z.number().int().nullable(),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/)
      .nullable(),
    card: z
      .object({
        brand: z.string(),
        last4: z.string().regex(/^[0-9]{4}$/),
        expMonth: z.number().int().nullable(),
        expYear: z.number().int().nullable(),
      })
      .nullable(),
    reason: z.string().nullable(),
  }),
});
export type ProviderEvent = z.infer<typeof providerEventSchema>;

export function eventFor(state: CheckoutState, eventId: string, created: number): ProviderEvent {
  const type =
    state.status === "succeeded"
      ? "checkout.succeeded"
      : state.status === "declined"
        ? "checkout.declined"
        : "checkout.expired";
  const { status: _status, ...data } = state;
  return { id: eventId, type, created, data };
}

/** A callback older or newer than this (by its signed timestamp) is refused: a replayed capture is stale. */
export const CALLBACK_TOLERANCE_SECONDS = 300;

/** HMAC-SHA256 over `${timestamp}.${event}` with the shared secret, hex. */
export function signCallback(secret: string, timestamp: number, event: string): string {
  return createHmac("sha256", secret).update(`${timestamp}.${event}`).digest("hex");
}

export type CallbackBody = { event: string; timestamp: number; signature: string };

export class CallbackRejected extends Error {}

/** Checks a callback's signature (timing-safe) and age, then its event; throws CallbackRejected. */
export function verifyCallback(secret: string, body: CallbackBody, now: Date): ProviderEvent {
  const expected = Buffer.from(signCallback(secret, body.timestamp, body.event), "hex");
  const given = Buffer.from(body.signature, "hex");
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    throw new CallbackRejected("bad signature");
  if (Math.abs(Math.floor(now.getTime() / 1000) - body.timestamp) > CALLBACK_TOLERANCE_SECONDS)
    throw new CallbackRejected("stale timestamp");
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.event);
  } catch {
    throw new CallbackRejected("event is not JSON");
  }
  const event = providerEventSchema.safeParse(parsed);
  if (!event.success) throw new CallbackRejected("event has an unknown shape");
  return event.data;
}
