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
