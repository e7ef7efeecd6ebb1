import type { Submission } from "@conform-to/react";
import type { VueapiFailure } from "./vueapi.server.ts";

/**
 * A request-layer failure as a Conform reply: field errors at their fields (a backend path such as
 * "payload.userName" is mapped to the form's "userName" with `fieldPrefix: "payload."`, and "form.nodes.0.tps"
 * to "nodes[0].tps" with "form."), other messages as a form error.
 */
export function replyWithFailure<T, V>(
  submission: Submission<T, string[], V>,
  failure: VueapiFailure,
  options: { hideFields?: string[]; fieldPrefix?: string } = {},
) {
  const fieldErrors: Record<string, string[]> = {};
  for (const [name, keys] of Object.entries(failure.fieldErrors))
    fieldErrors[fieldName(name, options.fieldPrefix)] = keys.map(messageKey);
  const hasFieldErrors = Object.keys(fieldErrors).length > 0;
  return submission.reply({
    formErrors: failure.silent || hasFieldErrors ? [] : [failure.messageKey],
    fieldErrors,
    hideFields: options.hideFields,
  });
}

/** Conform's name for a backend field path: the prefix off, list indexes in brackets ("nodes.0.tps" → "nodes[0].tps"). */
function fieldName(path: string, prefix = "") {
  const name = prefix && path.startsWith(prefix) ? path.slice(prefix.length) : path;
  return name.replace(/\.(\d+)(?=\.|$)/g, "[$1]");
}

/** A field error's message key: a bare §8 key ("MSG_30012") is one of the errors namespace. */
function messageKey(key: string) {
  return key.startsWith("MSG_") ? `errors:${key}` : key;
}

/**
 * A refused submission's reply with the errors found beside it (the files of a multipart form, checked
 * on the server): its own field errors and those of `extra`.
 */
export function replyWithFieldErrors<T, V>(submission: Submission<T, string[], V>, extra: Record<string, string[]>) {
  const fieldErrors: Record<string, string[]> = { ...extra };
  if (submission.status === "error")
    for (const [name, keys] of Object.entries(submission.error ?? {})) if (keys) fieldErrors[name] = keys;
  return submission.reply({ fieldErrors });
}

/** The status of a page answering a refused form: 429 when the backend refused for a rate limit (docs/decisions/021), else 400. */
export function formFailureStatus(failure: VueapiFailure): number {
  return failure.status === 429 ? 429 : 400;
}
