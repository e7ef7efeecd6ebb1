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

/** A queue's state machine, as far as the portal reads it: which decisions need comments (contract/). */
type QueueMachine = { readonly rules: readonly { event: string; actor: string; commentsRequired?: boolean }[] };

/**
 * The one action of every operations queue (issue 27 item 4): the form's `intent` names one of the queue's
 * `decisions` (house habit 2: a missing or unknown intent is a 400) and `idName` the item.
 *
 * - `confirm: false` (service reviews, refunds, participations, products, invoices, configuration and IPFS
 *   upgrades, cross-chain reviews): the form is validated with the decision's schema on both sides; an invalid
 *   form, or a decision the backend refuses (a state machine's §8 key, comments required where the machine
 *   says so), answers `{ intent, id, result }` for that form of that item, with what was typed kept.
 * - `confirm: true` (the money queues, docs/decisions/007): the decision needs comments where the queue's
 *   `machine` says so, is confirmed first (the dialog with JavaScript; without it this answers the confirm
 *   step), and a refusal is shown at its row with what was typed kept: the answers that are not a redirect
 *   are the QueueReply of ~/components/ReviewRow's ReviewQueue.
 *
 * A decision taken comes back to the same queue (path and filter) with its success flash.
 */
export async function decideQueueItem(
  request: Request,
  options: {
    idName: string;
    decisions: Record<string, QueueDecision<$ZodType>>;
  } & ({ confirm?: false } | { confirm: true; machine: QueueMachine }),
) {
  const { idName, decisions } = options;
  const formData = await request.formData();
  const intent = intentOf(formData, Object.keys(decisions));
  const { schema, decide, flash } = decisions[intent]!;
  const url = new URL(request.url);
  const done = (value: unknown, params?: Record<string, string>) =>
    redirectWithFlash(request, url.pathname + url.search, {
      kind: "success",
      key: typeof flash === "string" ? flash : flash(value),
      ...(params ? { params } : {}),
    });
  if (options.confirm) {
    const typed = Object.fromEntries([...formData].filter(([k]) => k !== "confirmed" && k !== "intent"));
    const parsed = (schema as unknown as z.ZodType).safeParse(typed);
    if (!parsed.success) throw badRequest();
    const review = parsed.data as { decision: string; comments?: string };
    const no = String(formData.get(idName) ?? "");
    if (commentsRequiredFor(options.machine, review.decision, "operator") && !review.comments)
      return rowError(no, review.comments, "payments:validation.commentsRequired");
    if (formData.get("confirmed") !== "yes")
      return json({ kind: "confirm" as const, no, decision: review.decision, comments: review.comments ?? "" });
    const result = await decide(review);
    if (!result.ok) return rowError(no, review.comments, failureKey(result));
    return done(review, { no });
  }
  const submission = parseWithZod(formData, { schema });
  const id = Number(formData.get(idName));
  if (submission.status !== "success") return json({ intent, id, result: submission.reply() }, { status: 400 });
  const result = await decide(submission.value);
  if (!result.ok) return json({ intent, id, result: replyWithFailure(submission, result) }, { status: 400 });
  return done(submission.value);
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
