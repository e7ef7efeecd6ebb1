import { randomBytes } from "node:crypto";
import { json } from "@remix-run/node";
import type { VueapiFailure } from "./vueapi.server.ts";

/** A fresh idempotency key for a form that moves money (issued by the loader, carried in a hidden input). */
export function newIdempotencyKey(): string {
  return randomBytes(18).toString("base64url");
}

/** A pay action the backend refused, as BillPayPanel reads it: the message, and whether the balance was too low (recharge). */
export function payRefused(failure: VueapiFailure) {
  return json(
    { kind: "pay" as const, error: failure.messageKey, recharge: failure.messageKey === "errors:MSG_30001" },
    { status: 400 },
  );
}
