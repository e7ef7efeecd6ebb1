import * as z from "zod";

/**
 * The /vueapi envelope (SPEC §7 "Responses"): every call answers `{ code, message, data }`.
 * `code` 0 is success; the other codes the portal reacts to are listed in SPEC §8.
 */
export const ResponseCode = {
  OK: 0,
  /** A business failure; `message` holds the §8 message key. */
  FAIL: 1,
  /** Session invalid (SPEC §8). */
  SESSION_INVALID: 3,
  /** No permission for this area: the portal goes to /g/home/index (SPEC §8). */
  NO_PERMISSION: 4,
} as const;

export const envelopeSchema = z.object({
  code: z.number().int(),
  message: z.string().default(""),
  data: z.unknown().optional(),
});
export type Envelope = z.infer<typeof envelopeSchema>;

/** Field errors travel in `data.fieldErrors` of a MSG_10001 failure; values are i18n keys. */
export const fieldErrorsSchema = z.object({
  fieldErrors: z.record(z.string(), z.array(z.string())),
});
export type FieldErrors = Record<string, string[]>;

export function ok<T>(data: T): Envelope & { data: T } {
  return { code: ResponseCode.OK, message: "success", data };
}

export function fail(message: string, data?: unknown, code: number = ResponseCode.FAIL): Envelope {
  return { code, message, data: data ?? null };
}

/**
 * The end user's address on a call the portal makes in its own process (docs/decisions/021). The server
 * entry (server/remix.js) overwrites it on every incoming request with the address it saw (the socket, or
 * X-Forwarded-For under TRUST_PROXY); the request layer passes it on; the backend reads it only on calls
 * that come in-process, never from a request that arrived over HTTP.
 */
export const CLIENT_ADDRESS_HEADER = "X-Portal-Client-Address";
