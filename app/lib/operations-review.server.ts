import { parseWithZod } from "@conform-to/zod/v4";
import { json } from "@remix-run/node";
import type { z } from "zod";
import type { $ZodType, output } from "zod/v4/core";
import type { DataOf } from "#contract/paths.ts";
import { commentsRequiredFor } from "#contract/state-machine.ts";
import { apiFor, badRequest, requireOperator } from "./api.server.ts";
import { pageParam } from "./params.ts";
import { replyWithFailure } from "./forms.server.ts";
import { intentOf } from "./intents.server.ts";
import { redirectWithFlash } from "./session.server.ts";
import type { VueapiFailure, VueapiResult } from "./vueapi.server.ts";

/**
 * The decision forms of the operations queues (docs/decisions/005, 007): an unknown decision is a 400,
 * a rejection needs comments, every decision is confirmed first (a dialog with JavaScript, a confirm step
 * without), and a refusal from the backend is shown at its row with what was typed kept.
 */
export type ReviewReply<T> =
  { kind: "confirm"; review: T } | { kind: "error"; no: string; comments: string; messageKey: string };

export function parseReview<S extends z.ZodType<{ decision: string; comments?: string }>>(
  schema: S,
  formData: FormData,
  noField: string,
): { review: z.output<S>; no: string; confirmed: boolean } {
  const parsed = schema.safeParse(Object.fromEntries([...formData].filter(([k]) => k !== "confirmed")));
  if (!parsed.success) throw badRequest();
  const review = parsed.data as z.output<S>;
  return { review, no: String(formData.get(noField) ?? ""), confirmed: formData.get("confirmed") === "yes" };
}

/** The decisions that need comments: a rejection, unless the queue names its own (e.g. suspend, decline). */
export function commentsMissing(
  review: { decision: string; comments?: string },
  needComments: readonly string[] = ["reject"],
) {
  return needComments.includes(review.decision) && !review.comments;
}

export function rowError(no: string, comments: string | undefined, messageKey: string) {
  return json({ kind: "error" as const, no, comments: comments ?? "", messageKey }, { status: 400 });
}

export function failureKey(failure: VueapiFailure): string {
  return failure.fieldErrors.comments?.[0] ?? failure.messageKey;
}

/** One decision a queue's action takes: its form's schema, the backend call, the flash once it is done. */
export type QueueDecision<S extends $ZodType> = {
  schema: S;
  decide: (value: output<S>) => Promise<VueapiResult<unknown>>;
  /** The flash message key of the decision taken, by the decision's value when it varies. */
  flash: string | ((value: output<S>) => string);
};

/** A decision, with the type of its schema kept for the calls it makes. */
export function queueDecision<S extends $ZodType>(decision: QueueDecision<S>): QueueDecision<$ZodType> {
  return decision as unknown as QueueDecision<$ZodType>;
}

/**
 * The action of a queue whose items carry decision forms validated on both sides (service reviews, refunds,
 * participations, products, invoices, configuration and IPFS upgrades, cross-chain reviews): the form's
 * `intent` names the decision (house habit 2: an unknown intent is a 400); an invalid form, or a decision the
 * backend refuses (a state machine's §8 key, comments required where the machine says so), answers
 * `{ intent, id, result }` for that form of that item, with what was typed kept; a decision comes back to the
 * queue with its success flash.
 */
export async function decideQueueItem(
  request: Request,
  { idName, decisions }: { idName: string; decisions: Record<string, QueueDecision<$ZodType>> },
) {
  const formData = await request.formData();
  const intent = intentOf(formData, Object.keys(decisions));
  const { schema, decide, flash } = decisions[intent]!;
  const submission = parseWithZod(formData, { schema });
  const id = Number(formData.get(idName));
  if (submission.status !== "success") return json({ intent, id, result: submission.reply() }, { status: 400 });
  const result = await decide(submission.value);
  if (!result.ok) return json({ intent, id, result: replyWithFailure(submission, result) }, { status: 400 });
  const url = new URL(request.url);
  const key = typeof flash === "string" ? flash : flash(submission.value);
  return redirectWithFlash(request, url.pathname + url.search, { kind: "success", key });
}

/**
 * The action of the money queues, offline remittances and withdrawals (docs/decisions/007): one decision
 * on one record, checked and confirmed as this module's header says; the answers that are not a
 * redirect are the QueueReply of ~/components/ReviewRow's ReviewQueue.
 */
export async function decideReview<S extends z.ZodType<{ decision: string; comments?: string }>>(
  request: Request,
  {
    schema,
    machine,
    noField,
    submit,
    doneKey,
  }: {
    schema: S;
    /** The queue's state machine (contract/payment-machines.ts): which decisions need comments. */
    machine: { readonly rules: readonly { event: string; actor: string; commentsRequired?: boolean }[] };
    /** The form field that carries the record's number. */
    noField: string;
    /** Sends the decision to the backend. */
    submit: (review: z.output<S>) => Promise<VueapiResult<unknown>>;
    /** The flash message of a decision taken. */
    doneKey: (review: z.output<S>) => string;
  },
) {
  const { review, no, confirmed } = parseReview(schema, await request.formData(), noField);
  if (commentsRequiredFor(machine, review.decision, "operator") && !review.comments)
    return rowError(no, review.comments, "payments:validation.commentsRequired");
  if (!confirmed)
    return json({ kind: "confirm" as const, no, decision: review.decision, comments: review.comments ?? "" });
  const result = await submit(review);
  if (!result.ok) return rowError(no, review.comments, failureKey(result));
  const url = new URL(request.url);
  return redirectWithFlash(request, url.pathname + url.search, {
    kind: "success",
    key: doneKey(review),
    params: { no },
  });
}

/** A queue's filter: what still waits for a decision (the default) or everything. */
export function queueStatus(url: URL): "open" | "all" {
  return url.searchParams.get("status") === "all" ? "all" : "open";
}

/** The money queues' list paths (docs/decisions/007, 019). */
type MoneyQueuePath = "/ops/remittances/list" | "/ops/withdrawals/list" | "/ops/paymentReviews/list";

/**
 * The loader of a money queue: operators only; the page and the open/all filter of the URL; the list
 * path's page, with the filter and the operator's language for the page.
 */
export async function loadMoneyQueue<P extends MoneyQueuePath>(request: Request, path: P, pageSize = 20) {
  const viewer = await requireOperator(request);
  const url = new URL(request.url);
  const status = queueStatus(url);
  // The three paths take the same paged payload; the data is the one of `path`.
  const data = (await apiFor(request, viewer).load(path as MoneyQueuePath, {
    page: { pageSize, pageIndex: pageParam(url), condition: { status } },
  })) as DataOf<P>;
  return json({ ...data, status, language: viewer.language });
}
