import { json } from "@remix-run/node";
import type { z } from "zod";
import { commentsMissing, failureKey, parseReview, rowError } from "./operations-review.server";
import { redirectWithFlash } from "./session.server";
import type { VueapiResult } from "./vueapi.server";

/**
 * The actions of the money queues, offline remittances and withdrawals (docs/decisions/007): one decision
 * on one record, checked and confirmed as operations-review.server says; the answers that are not a
 * redirect are the QueueReply of ~/components/ReviewRow's ReviewQueue.
 */
export async function decideReview<S extends z.ZodType<{ decision: string; comments?: string }>>(
  request: Request,
  { schema, noField, submit, doneKey }: {
    schema: S;
    /** The form field that carries the record's number. */
    noField: string;
    /** Sends the decision to the backend. */
    submit: (review: z.output<S>) => Promise<VueapiResult<unknown>>;
    /** The flash message of a decision taken. */
    doneKey: (review: z.output<S>) => string;
  },
) {
  const { review, no, confirmed } = parseReview(schema, await request.formData(), noField);
  if (commentsMissing(review)) return rowError(no, review.comments, "payments:validation.commentsRequired");
  if (!confirmed) return json({ kind: "confirm" as const, no, decision: review.decision, comments: review.comments ?? "" });
  const result = await submit(review);
  if (!result.ok) return rowError(no, review.comments, failureKey(result));
  const url = new URL(request.url);
  return redirectWithFlash(request, url.pathname + url.search, { kind: "success", key: doneKey(review), params: { no } });
}

/** A queue's filter: what still waits for a decision (the default) or everything. */
export function queueStatus(url: URL): "open" | "all" {
  return url.searchParams.get("status") === "all" ? "all" : "open";
}
