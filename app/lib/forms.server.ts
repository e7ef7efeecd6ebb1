import type { Submission } from "@conform-to/react";
import type { VueapiFailure } from "./vueapi.server";

/**
 * A request-layer failure as a Conform reply: field errors at their fields (a backend path such as
 * "payload.userName" is mapped to the form's "userName"), other messages as a form error.
 */
export function replyWithFailure<T>(
  submission: Submission<T>,
  failure: VueapiFailure,
  options: { hideFields?: string[]; fieldPrefix?: string } = {},
) {
  const fieldErrors: Record<string, string[]> = {};
  for (const [name, keys] of Object.entries(failure.fieldErrors)) {
    const field = options.fieldPrefix && name.startsWith(options.fieldPrefix) ? name.slice(options.fieldPrefix.length) : name;
    fieldErrors[field] = keys;
  }
  const hasFieldErrors = Object.keys(fieldErrors).length > 0;
  return submission.reply({
    formErrors: failure.silent || hasFieldErrors ? [] : [failure.messageKey],
    fieldErrors,
    hideFields: options.hideFields,
  });
}

/** The status of a page answering a refused form: 429 when the backend refused for a rate limit (docs/decisions/021), else 400. */
export function formFailureStatus(failure: VueapiFailure): number {
  return failure.status === 429 ? 429 : 400;
}
