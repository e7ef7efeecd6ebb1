import { json } from "@remix-run/node";
import { randomBytes } from "node:crypto";
import type { VueapiFailure } from "~/lib/vueapi.server";
import { failureResponse } from "~/lib/api.server";

/** A record id from the query string, or a 404 for anything else. */
export function idFromQuery(url: URL, name = "id"): number {
  const raw = url.searchParams.get(name) ?? "";
  if (!/^[1-9][0-9]{0,9}$/.test(raw)) throw json({ messageKey: "errors:http.404" }, { status: 404 });
  return Number(raw);
}

/** An optional record id from the query string (null when absent or malformed). */
export function optionalId(url: URL, name: string): number | null {
  const raw = url.searchParams.get(name) ?? "";
  return /^[1-9][0-9]{0,9}$/.test(raw) ? Number(raw) : null;
}

/** A failure of a read: "not found" (also another user's record) is a 404, the rest as usual. */
export function readFailure(failure: VueapiFailure): Response {
  if (failure.messageKey === "errors:MSG_10002") return json({ messageKey: failure.messageKey }, { status: 404 });
  return failureResponse(failure);
}

/** The key a form that creates an application carries, so that submitting it twice does the work once. */
export function newIdempotencyKey(): string {
  return randomBytes(18).toString("base64url");
}

/** House habit 2: an unknown intent is a 400. */
export function badIntent(): Response {
  return json({ messageKey: "errors:http.400" }, { status: 400 });
}
