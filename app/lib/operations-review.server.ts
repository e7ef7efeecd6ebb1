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
 * The decision forms of the operations queues (docs/decisions/005, 007, 051): an unknown decision is a 400, the
 * comments a decision needs are checked first, every decision is confirmed first (a dialog with JavaScript, a
 * confirm step without), and a refusal from the backend is shown at its row with what was typed kept.
 */
export function rowError(no: string, comments: string | undefined, messageKey: string) {
  return json({ kind: "error" as const, no, comments: comments ?? "", messageKey }, { status: 400 });
}

/** The fields of a decision form the operator types (the comments, the name typed to confirm, docs/decisions/029). */
const TYPED_FIELDS = ["comments", "confirmName"];

/** The message of a refusal: the first field error of a typed field, else the backend's message. */
export function failureKey(failure: VueapiFailure): string {
  return TYPED_FIELDS.map((f) => failure.fieldErrors[f]?.[0]).find(Boolean) ?? failure.messageKey;
}

/** One decision a queue's action takes: its form's schema, the backend call, the flash once it is done. */
export type QueueDecision<S extends $ZodType> = {
  schema: S;
  decide: (value: output<S>) => Promise<VueapiResult<unknown>>;
  /** The flash message key of the decision taken, by the decision's value when it varies. */
  flash: string | ((value: output<S>) => string);
  /** Overrides the queue's `confirm` for this intent (e.g. the invoices queue's deliver form, which has fields). */
  confirm?: boolean;
  /** A refusal of the confirmed decision before it is sent, as a message key at its row (e.g. a name not typed). */
  refuse?: (value: output<S>) => string | null;
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
 * - `confirm: true` (every approve/reject queue; the decision forms of ~/components/ReviewRow): the decision
 *   is parsed with its schema (a wrong id or decision is a 400; a missing or too long comment, or a name not
 *   typed, is refused at its row), needs comments where the queue's `machine` says so (or `needComments`
 *   where the portal cannot import the machine), is confirmed first (the dialog with JavaScript; without it
 *   this answers the confirm step), and a refusal is shown at its row with what was typed kept: the answers
 *   that are not a redirect are the QueueReply of ~/components/ReviewRow.
 * - `confirm: false` (a form with fields of its own, e.g. the invoices queue's deliver form): the form is
 *   validated with the decision's schema on both sides; an invalid form, or one the backend refuses, answers
 *   `{ intent, id, result }` for that form of that item, with what was typed kept.
 *
 * A decision's own `confirm` overrides the queue's. A decision taken comes back to the same queue (path and
 * filter) with its success flash.
 */
export async function decideQueueItem(
  request: Request,
  options: {
    idName: string;
    decisions: Record<string, QueueDecision<$ZodType>>;
    confirm?: boolean;
    machine?: QueueMachine;
    /** The decisions that need comments, for a queue whose machine the portal cannot import. */
    needComments?: readonly string[];
  },
) {
  const { idName, decisions } = options;
  const formData = await request.formData();
  const intent = intentOf(formData, Object.keys(decisions));
  const { schema, decide, flash, refuse } = decisions[intent]!;
  const url = new URL(request.url);
  const done = (value: unknown, params?: Record<string, string>) =>
    redirectWithFlash(request, url.pathname + url.search, {
      kind: "success",
      key: typeof flash === "string" ? flash : flash(value),
      ...(params ? { params } : {}),
    });
  if (decisions[intent]!.confirm ?? options.confirm ?? false) {
    const typed = Object.fromEntries([...formData].filter(([k]) => k !== "confirmed" && k !== "intent"));
    const no = String(formData.get(idName) ?? "");
    const comments = typeof typed.comments === "string" ? typed.comments : "";
    const parsed = (schema as unknown as z.ZodType).safeParse(typed);
    if (!parsed.success) {
      // What the operator typed is refused at its row; anything else the form carries is not theirs to get wrong.
      const issues = parsed.error.issues;
      if (!issues.every((i) => TYPED_FIELDS.includes(String(i.path[0])))) throw badRequest();
      return rowError(no, comments, issues[0]!.message);
    }
    const review = parsed.data as { decision: string; comments?: string };
    const needsComments = options.machine
      ? commentsRequiredFor(options.machine, review.decision, "operator")
      : (options.needComments ?? []).includes(review.decision);
    if (needsComments && !review.comments) return rowError(no, review.comments, "payments:validation.commentsRequired");
    if (formData.get("confirmed") !== "yes")
      return json({ kind: "confirm" as const, no, decision: review.decision, comments: review.comments ?? "" });
    const refusal = refuse?.(review);
    if (refusal) return rowError(no, review.comments, refusal);
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
