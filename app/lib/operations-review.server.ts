import { json } from "@remix-run/node";
import type { z } from "zod";
import type { VueapiFailure } from "./vueapi.server";

/**
 * The decision forms of the operations queues (docs/decisions/005, 007): an unknown decision is a 400,
 * a rejection needs comments, every decision is confirmed first (a dialog with JavaScript, a confirm step
 * without), and a refusal from the backend is shown at its row with what was typed kept.
 */
export type ReviewReply<T> =
  | { kind: "confirm"; review: T }
  | { kind: "error"; no: string; comments: string; messageKey: string };

export function parseReview<S extends z.ZodType<{ decision: string; comments?: string }>>(
  schema: S,
  formData: FormData,
  noField: string,
): { review: z.output<S>; no: string; confirmed: boolean } {
  const parsed = schema.safeParse(Object.fromEntries([...formData].filter(([k]) => k !== "confirmed")));
  if (!parsed.success) throw json({ messageKey: "errors:http.400" }, { status: 400 });
  const review = parsed.data as z.output<S>;
  return { review, no: String(formData.get(noField) ?? ""), confirmed: formData.get("confirmed") === "yes" };
}

/** The decisions that need comments: a rejection, unless the queue names its own (e.g. suspend, decline). */
export function commentsMissing(review: { decision: string; comments?: string }, needComments: readonly string[] = ["reject"]) {
  return needComments.includes(review.decision) && !review.comments;
}

export function rowError(no: string, comments: string | undefined, messageKey: string) {
  return json({ kind: "error" as const, no, comments: comments ?? "", messageKey }, { status: 400 });
}

export function failureKey(failure: VueapiFailure): string {
  return failure.fieldErrors.comments?.[0] ?? failure.messageKey;
}
