import { randomBytes } from "node:crypto";
import { json } from "@remix-run/node";
import { Msg } from "#contract/messages.ts";
import type { VueapiFailure } from "./vueapi.server.ts";

/** A fresh idempotency key for a form that moves money (issued by the loader, carried in a hidden input). */
export function newIdempotencyKey(): string {
  return randomBytes(18).toString("base64url");
}

/**
 * A pay action the backend refused, as BillPayPanel reads it: the message with its values, whether the balance
 * was too low (recharge), and whether the bill was sent to finance instead (a member's spending limit, ADR 080).
 */
export function payRefused(failure: VueapiFailure) {
  const waiting = failure.messageKey === `errors:${Msg.SENT_TO_FINANCE}`;
  return json(
    {
      kind: "pay" as const,
      error: failure.messageKey,
      params: failure.params ?? {},
      recharge: failure.messageKey === "errors:MSG_30001",
      waiting,
    },
    { status: waiting ? 200 : 400 },
  );
}
