import { ResponseCode } from "#contract/envelope.ts";
import { Msg } from "#contract/messages.ts";

/** How a failure is answered over HTTP when not with 200: a rate limit's 429 and its Retry-After. */
export type HttpAnswer = { status: number; retryAfterSeconds?: number };

/** A business failure answered as `{code, message, data}` (code 1 unless said otherwise; HTTP 200 unless `http` says). */
export class ApiError extends Error {
  constructor(
    readonly messageKey: string,
    readonly data: unknown = null,
    readonly code: number = ResponseCode.FAIL,
    readonly http: HttpAnswer | null = null,
  ) {
    super(messageKey);
  }
}

/** A failure shown at a form field: `data.fieldErrors`, with the message key itself as the envelope message. */
export function fieldError(field: string, key: string, messageKey: string = Msg.INVALID_PARAMS): ApiError {
  return new ApiError(messageKey, { fieldErrors: { [field]: [key] } });
}

export function sessionInvalid(messageKey: string): ApiError {
  return new ApiError(messageKey, null, ResponseCode.SESSION_INVALID);
}

/**
 * The names of the errors that say a network engine is changing hands or its holder cannot be reached
 * (backend/kit/engine-link.ts, engine-lease.ts; also as a forwarded call's error names them): nothing was
 * acknowledged, and the same request a few seconds later meets the next holder (docs/decisions/095, 109).
 */
const ENGINE_MOVING_ERRORS = new Set(["EngineUnreachable", "NotEngineHolder", "NotLeaseHolderError"]);

/**
 * A failure no domain answered that says the engine is moving (a test service's channel drop during a handover, a
 * dedicated network's stop): MSG_10503 as a 503 with Retry-After, not a 500; null for any other failure.
 */
export function engineMoving(error: unknown): ApiError | null {
  const name = (error as { name?: unknown } | null)?.name;
  if (typeof name !== "string" || !ENGINE_MOVING_ERRORS.has(name)) return null;
  return new ApiError(Msg.ENGINE_MOVING, null, ResponseCode.FAIL, { status: 503, retryAfterSeconds: 10 });
}
