import type { z } from "zod";
import { Msg } from "#contract/messages.ts";
import { type callbackSchema } from "#contract/payments.ts";
import { ApiError } from "#backend/http/errors.ts";
import type { CallContext } from "#backend/http/router.ts";
import { CallbackRejected, verifyCallback } from "#backend/domains/payments/checkout.ts";
import { callbackSecret } from "#backend/domains/payments/provider.ts";
import { receiveProviderEvent } from "#backend/domains/payments/settle.ts";

/**
 * POST /pay/callback: called by the sandbox provider. Forged or stale → refused and nothing changes; refused
 * too when the sandbox is not this server's provider (docs/decisions/020).
 */
export async function receiveCallback(input: z.output<typeof callbackSchema>, { deps }: CallContext) {
  if (deps.env.paymentProvider !== "sandbox") throw new ApiError(Msg.CALLBACK_REJECTED);
  let event;
  try {
    event = verifyCallback(callbackSecret(deps), input, deps.now());
  } catch (error) {
    if (error instanceof CallbackRejected) throw new ApiError(Msg.CALLBACK_REJECTED);
    throw error;
  }
  const status =
    event.type === "checkout.succeeded" ? "succeeded" : event.type === "checkout.declined" ? "declined" : "expired";
  const { duplicate } = await receiveProviderEvent(deps, {
    provider: "sandbox",
    eventId: event.id,
    kind: event.type,
    reference: event.data.reference,
    payload: event as unknown as Record<string, unknown>,
    state: { ...event.data, status },
  });
  return { received: true as const, duplicate };
}
