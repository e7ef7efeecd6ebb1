import { ResponseCode } from "../../contract/envelope";
import { Msg } from "../../contract/messages";

/** A business failure answered as `{code, message, data}` (code 1 unless said otherwise). */
export class ApiError extends Error {
  constructor(
    readonly messageKey: string,
    readonly data: unknown = null,
    readonly code: number = ResponseCode.FAIL,
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
