import * as z from "zod";
import { nothing, type PathSpec } from "./path-spec.ts";
import { pageOf } from "./platform.ts";

/* ------------------------------------------------------------------------------------------------
 * The account's alert webhook (issue 35 §1, docs/decisions/092): an HTTPS address that receives every alert the
 * account is told (the same events as the Message center), as a JSON POST signed with HMAC-SHA256 of
 * `<timestamp>.<body>` under a secret the server generates and shows the owner:
 *   X-BSN-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + body)>
 * Retried with backoff (WEBHOOK_RETRY_MINUTES) and listed with its status. Only https:, an address that resolves
 * to a public address (never loopback, private, link-local or the portal's own), no redirects, 5 s per attempt.
 * ---------------------------------------------------------------------------------------------- */

export const WEBHOOK_URL_MAX = 500;
/** The header carrying the signature. */
export const WEBHOOK_SIGNATURE_HEADER = "X-BSN-Signature";
/** How long one attempt may take before it counts as failed. */
export const WEBHOOK_TIMEOUT_MS = 5_000;
/** Minutes before each retry of a failed attempt: 6 attempts in all, then the delivery is failed. */
export const WEBHOOK_RETRY_MINUTES = [1, 5, 30, 120, 720] as const;
export const WEBHOOK_MAX_ATTEMPTS = WEBHOOK_RETRY_MINUTES.length + 1;

export const DELIVERY_STATUSES = ["pending", "delivered", "failed"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
/** A delivery's event: an alert's kind (contract/alerts.ts ALERT_KINDS) or "test" (sent on request). */
export type WebhookEvent = string;

/** Why an address is refused (at save and before each attempt); the field error is `validation.webhook.<reason>`. */
export const WEBHOOK_REFUSALS = [
  "https",
  "format",
  "unresolved",
  "loopback",
  "private",
  "linkLocal",
  "reserved",
  "own",
] as const;
export type WebhookRefusal = (typeof WEBHOOK_REFUSALS)[number];

/** The webhook form (Alerts page) and its path's payload: an https:// address (checked again by the server). */
export const webhookSchema = z.object({
  url: z
    .string({ error: "validation.required" })
    .trim()
    .min(1, "validation.required")
    .max(WEBHOOK_URL_MAX, "validation.tooLong")
    .superRefine((value, ctx) => {
      if (!value) return;
      let url: URL;
      try {
        url = new URL(value);
      } catch {
        return void ctx.addIssue({ code: "custom", message: "validation.webhook.format" });
      }
      if (url.protocol !== "https:") ctx.addIssue({ code: "custom", message: "validation.webhook.https" });
      else if (url.username || url.password) ctx.addIssue({ code: "custom", message: "validation.webhook.format" });
    }),
  /** Deliveries are sent only while it is enabled; a form without the field saves it enabled. */
  enabled: z.boolean().default(true),
});

export const webhookDeliverySchema = z.object({
  id: z.number().int(),
  event: z.string(),
  /** The alert told (its id on the Alerts page), null for a test event. */
  firingId: z.number().int().nullable(),
  attempts: z.number().int(),
  status: z.enum(DELIVERY_STATUSES),
  /** The HTTP status of the last attempt's answer, null when none came (refused address, timeout, TLS error). */
  lastStatus: z.number().int().nullable(),
  /** What went wrong at the last attempt, in English words of the server (never the answer's body). */
  lastError: z.string().nullable(),
  nextAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const alertWebhookPaths = {
  /**
   * The account's webhook with its signing secret (null: none set); `testMode` when this server lets webhooks reach
   * loopback addresses (WEBHOOK_ALLOW_LOOPBACK=1, tests only, refused in production).
   */
  "/sys/alerts/webhook": {
    auth: "user",
    permission: "pay",
    payload: z.object({}),
    data: z.object({
      webhook: z
        .object({
          url: z.string(),
          secret: z.string(),
          enabled: z.boolean(),
          createdAt: z.string(),
          updatedAt: z.string(),
        })
        .nullable(),
      testMode: z.boolean(),
    }),
  },
  /** Sets the address (a secret is generated with the first one); refused at the field when it is not allowed. */
  "/sys/alerts/webhook/save": { auth: "user", permission: "pay", payload: webhookSchema, data: nothing },
  /** A new signing secret; the old one signs nothing any more. */
  "/sys/alerts/webhook/rotate": { auth: "user", permission: "pay", payload: z.object({}), data: nothing },
  /** Removes the webhook; its pending deliveries are failed. */
  "/sys/alerts/webhook/delete": { auth: "user", permission: "pay", payload: z.object({}), data: nothing },
  /** Sends a test event now (a delivery like an alert's, event "test"). */
  "/sys/alerts/webhook/test": {
    auth: "user",
    permission: "pay",
    payload: z.object({}),
    data: z.object({ deliveryId: z.number().int() }),
  },
  /** The account's deliveries, newest first. */
  "/sys/alerts/webhook/deliveries": {
    auth: "user",
    permission: "read",
    payload: z.object({
      pageIndex: z.number().int().min(1).default(1),
      pageSize: z.number().int().min(1).max(100).default(20),
    }),
    data: pageOf(webhookDeliverySchema),
  },
} satisfies Record<string, PathSpec>;

/** Tests only (TEST_FIXTURES=1): the caller's pending deliveries made due and attempted now, within the call. */
export const alertWebhookFixturePaths = {
  "/test/alerts/webhookDue": {
    auth: "user",
    permission: "read",
    payload: z.object({}),
    data: z.object({ attempted: z.number().int() }),
  },
} satisfies Record<string, PathSpec>;
