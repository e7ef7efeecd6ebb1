import { randomBytes } from "node:crypto";

/** A fresh idempotency key for a form that moves money (issued by the loader, carried in a hidden input). */
export function newIdempotencyKey(): string {
  return randomBytes(18).toString("base64url");
}

/** The page number of a list (?page=N), 1 when missing or wrong. */
export function pageParam(url: URL): number {
  return Math.max(1, Number.parseInt(url.searchParams.get("page") ?? "1", 10) || 1);
}
