import { randomBytes } from "node:crypto";

/**
 * A maker of fresh idempotency keys (contract/rules.ts: 16 to 64 of A-Z a-z 0-9 _ -), each starting with
 * `prefix` so that a key in a log or a row says which test made it.
 */
export const idempotencyKeys = (prefix: string) => () => `${prefix}${randomBytes(12).toString("hex")}`;
