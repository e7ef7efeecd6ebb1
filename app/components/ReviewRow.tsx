import { FormProvider, getFormProps, type SubmissionResult } from "@conform-to/react";
import { Form, Link, useActionData, useLocation } from "@remix-run/react";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import { FormErrors, TextAreaField } from "./forms.tsx";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";
import { formatDate, formatUsd } from "#app/lib/format.ts";
import type { Language } from "#app/lib/i18n.ts";
import { ConfirmDialog, ConfirmSubmit, type TypeToConfirm } from "./ConfirmSubmit.tsx";
import { FilterPills } from "./FilterPills.tsx";
import { Pagination } from "./Pagination.tsx";
import { RowActions } from "./RowActions.tsx";
import { EmptyState } from "#app/components/EmptyState.tsx";

/*
 * The decision forms of every operations queue (issue 27 item 4), one family for the one action
 * (decideQueueItem of ~/lib/operations-review.server): DecisionForm for the queues validated on both sides
 * (`confirm: false`), ReviewForm / ConfirmStep / ReviewQueue for those that confirm first (`confirm: true`).
 */

/** What a queue's action answers for one item's decision form (see decideQueueItem). */
export type DecisionActionData = { intent: string; id: number; result: SubmissionResult<string[]> };

/**
 * An operator's decision on one queue item (operations area, docs/decisions/005): review comments and
 * Approve / Reject, posted with `intent`, the item's id (`idName`) and `decision`, validated with the
 * queue's decision schema on both sides. The texts are the `ops.*` keys of the queue's own namespace.
 * Approve is the item's main action and Reject sits in its "More" menu (RowActions, docs/decisions/027), a
 * submit button of this same form, so the comments typed go with it (without JavaScript too).
 */
export function DecisionForm({
  formId,
  schema,
  intent,
  idName,
  idValue,
  ns,
  subject,
}: {
  formId: string;
  schema: z.ZodType<{ decision: string; comments?: string }, { comments?: string }>;
  intent: string;
  idName: string;
  idValue: number;
  ns: string;
  /** What the item is, for the menu button's accessible name ("More actions for …"); its id otherwise. */
  subject?: string;
}) {
  const { t } = useTranslation(ns);
  const actionData = useActionData<DecisionActionData>();
  const [form, fields] = useSchemaForm(
    schema,
    actionData && actionData.id === idValue && actionData.intent === intent ? actionData.result : undefined,
    { id: formId },
  );
  return (
    <FormProvider context={form.context}>
      <Form method="post" {...getFormProps(form)} className="space-y-2">
        <FormErrors id={form.errorId} errors={form.errors} />
        <input type="hidden" name="intent" value={intent} />
        <input type="hidden" name={idName} value={idValue} />
        <TextAreaField field={fields.comments} label={t("ops.comments")} hint={t("ops.commentsHint")} rows={2} />
        <RowActions
          name={subject ?? `#${idValue}`}
          main={
            <button type="submit" name="decision" value="approve" className="btn-primary">
              {t("ops.approve")}
            </button>
          }
          more={[
            {
              key: "reject",
              label: t("ops.reject"),
              danger: true,
              dataAction: "reject",
              submit: { form: formId, name: "decision", value: "reject" },
            },
          ]}
        />
      </Form>
    </FormProvider>
  );
}

/** `question`: the confirm question of this decision, when the queue words its own (default: payments' "{{action}} {{no}} for {{amount}}?"). */
type Decision = { value: string; label: string; danger?: boolean; question?: string; typeToConfirm?: TypeToConfirm };

/**
 * One record's decision form in an operations queue: comments, the first decision as the record's main action
 * and the others in its "More" menu (RowActions, docs/decisions/027), each confirmed: a dialog with
 * JavaScript; without it the action answers a confirm step, rendered by ConfirmStep. `subject` names the record
 * for the menu button's accessible name.
 */
export function ReviewForm({
  id,
  intent,
  noField,
  no,
  summary,
  decisions,
  error,
  hint,
  subject,
}: {
  id: string;
  /** The queue's decision `intent` (decideQueueItem), when the queue's action reads one. */
  intent?: string;
  subject?: string;
  noField: string;
  no: string;
  summary: string;
  decisions: Decision[];
  error?: { comments: string; messageKey: string } | null;
  /** The comments field's hint, when the queue words its own. */
  hint?: string;
}) {
  const { t } = useTranslation("payments");
  const location = useLocation();
  const [chosenValue, setChosen] = useState<string | null>(null);
  const [main, ...others] = decisions;
  const chosen = others.find((d) => d.value === chosenValue);
  const questionOf = (d: Decision) => d.question ?? t("ops.confirmQuestion", { action: d.label, no, amount: summary });
  return (
    <Form method="post" id={id} action={location.pathname + location.search} className="space-y-2">
      {intent ? <input type="hidden" name="intent" value={intent} /> : null}
      <input type="hidden" name={noField} value={no} />
      <label htmlFor={`${id}-comments`} className="sr-only">
        {t("ops.comments")}
      </label>
      <textarea
        id={`${id}-comments`}
        name="comments"
        rows={2}
        maxLength={500}
        defaultValue={error?.comments ?? ""}
        placeholder={hint ?? t("ops.commentsHint")}
        className="input"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error ? (
        <p id={`${id}-error`} role="alert" className="field-error">
          {t(error.messageKey)}
        </p>
      ) : null}
      <RowActions
        name={subject ?? no}
        main={
          main ? (
            <ConfirmSubmit
              formId={id}
              name="decision"
              value={main.value}
              label={main.label}
              title={main.label}
              question={questionOf(main)}
              confirmLabel={t("ops.confirm")}
              className={main.danger ? "btn-danger text-sm" : "btn-primary text-sm"}
              typeToConfirm={main.typeToConfirm}
            />
          ) : undefined
        }
        more={others.map((d) => ({
          key: d.value,
          label: d.label,
          danger: d.danger,
          dataAction: d.value,
          submit: { form: id, name: "decision", value: d.value },
          onSelect: () => setChosen(d.value),
        }))}
      />
      {chosen ? (
        <ConfirmDialog
          open
          onClose={() => setChosen(null)}
          formId={id}
          name="decision"
          value={chosen.value}
          title={chosen.label}
          question={questionOf(chosen)}
          confirmLabel={t("ops.confirm")}
          className={chosen.danger ? "btn-danger text-sm" : "btn-primary text-sm"}
          typeToConfirm={chosen.typeToConfirm}
        />
      ) : null}
    </Form>
  );
}

/** The confirm step of a decision without JavaScript. */
export function ConfirmStep({
  intent,
  noField,
  no,
  decision,
  label,
  comments,
  summary,
  question,
  typeToConfirm,
}: {
  /** As ReviewForm's. */
  intent?: string;
  noField: string;
  no: string;
  decision: string;
  label: string;
  comments?: string;
  summary: string;
  question?: string;
  typeToConfirm?: TypeToConfirm;
}) {
  const { t } = useTranslation("payments");
  const location = useLocation();
  return (
    <div className="card max-w-lg" role="alertdialog" aria-labelledby="review-confirm-title" data-testid="confirm-step">
      <h2 id="review-confirm-title" className="text-lg font-semibold">
        {label}
      </h2>
      <p className="mt-2 text-slate-600">
        {question ?? t("ops.confirmQuestion", { action: label, no, amount: summary })}
      </p>
      {comments ? (
        <p className="mt-1 text-sm text-slate-500">
          {t("ops.comments")}: {comments}
        </p>
      ) : null}
      <Form
        method="post"
        action={location.pathname + location.search}
        className="mt-4 flex flex-wrap justify-end gap-2"
      >
        {typeToConfirm ? (
          <div className="w-full">
            <label htmlFor="confirm-step-name" className="label">
              {typeToConfirm.label}
            </label>
            <input id="confirm-step-name" name="confirmName" autoComplete="off" required className="input" />
          </div>
        ) : null}
        {intent ? <input type="hidden" name="intent" value={intent} /> : null}
        <input type="hidden" name={noField} value={no} />
        <input type="hidden" name="decision" value={decision} />
        <input type="hidden" name="comments" value={comments ?? ""} />
        <input type="hidden" name="confirmed" value="yes" />
        <Link to={location.pathname + location.search} className="btn-secondary">
          {t("ops.cancel")}
        </Link>
        <button type="submit" className="btn-primary">
          {t("ops.confirm")}
        </button>
      </Form>
    </div>
  );
}

/** A queue's heading with its Open / All filter (plain links, so it works without JavaScript). */
export function QueueHeader({ title, status }: { title: string; status: string }) {
  const { t } = useTranslation("payments");
  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      <h2 className="text-lg font-semibold">{title}</h2>
      <FilterPills
        links={(["open", "all"] as const).map((s) => ({
          key: s,
          to: `?status=${s}`,
          current: status === s,
          label: t(`ops.filter.${s}`),
        }))}
      />
    </div>
  );
}

/** The `intent` of a ReviewQueue's decisions: its action's decideQueueItem names its decision `review`. */
const QUEUE_INTENT = "review";

/** What a money queue's action answers instead of a redirect (decideQueueItem with `confirm: true`). */
export type QueueReply =
  | { kind: "confirm"; no: string; decision: string; comments: string }
  | { kind: "error"; no: string; comments: string; messageKey: string };

type QueueRecord = {
  amountCents: number;
  userName: string;
  realName: string;
  createdAt: string;
  reviewedAt: string | null;
  reviewComments: string | null;
};

/**
 * An operations queue of money records (remittances, withdrawals): heading and filter, the confirm step of
 * a decision without JavaScript, one card per record (number and state, amount, user, dates, what `extra`
 * adds) with, while it waits for one, its decision form, then the page links. `noField` names the record's
 * number in the forms.
 */
export function ReviewQueue<Row extends QueueRecord>({
  title,
  status,
  page,
  empty,
  noField,
  noOf,
  itemTestId,
  itemNoAttribute,
  reply,
  labels,
  decisionsOf,
  badge,
  extra,
  language,
}: {
  title: string;
  status: string;
  page: { rows: Row[]; pageIndex: number; pageSize: number; total: number };
  empty: string;
  noField: string;
  noOf: (row: Row) => string;
  itemTestId: string;
  /** A data attribute carrying the record's number, e.g. `data-payment-no`. */
  itemNoAttribute: `data-${string}`;
  reply: QueueReply | undefined;
  labels: Record<string, string>;
  /** The decisions the record waits for, none once it is decided. */
  decisionsOf: (row: Row) => string[];
  badge: (row: Row) => ReactNode;
  extra: (row: Row) => ReactNode;
  language: Language;
}) {
  const { t } = useTranslation("payments");
  const amount = (row: Row) => formatUsd(row.amountCents, language);
  const confirming = reply?.kind === "confirm" ? reply : null;
  const confirmingRow = confirming ? page.rows.find((r) => noOf(r) === confirming.no) : undefined;
  return (
    <section className="space-y-4">
      <QueueHeader title={title} status={status} />
      {confirming ? (
        <ConfirmStep
          intent={QUEUE_INTENT}
          noField={noField}
          no={confirming.no}
          decision={confirming.decision}
          label={labels[confirming.decision]}
          comments={confirming.comments}
          summary={confirmingRow ? amount(confirmingRow) : ""}
        />
      ) : null}
      {page.rows.length === 0 ? (
        <EmptyState message={empty} />
      ) : (
        <ul className="space-y-3">
          {page.rows.map((row) => {
            const no = noOf(row);
            const decisions = decisionsOf(row);
            return (
              <li
                key={no}
                className="card grid gap-4 p-4 md:grid-cols-2"
                data-testid={itemTestId}
                {...{ [itemNoAttribute]: no }}
              >
                <div className="space-y-1 text-sm">
                  <p className="flex items-center gap-2">
                    <span className="font-mono">{no}</span> {badge(row)}
                  </p>
                  <p className="text-lg font-semibold">{amount(row)}</p>
                  <p>
                    {t("ops.user")}: {row.userName} ({row.realName})
                  </p>
                  <p className="text-slate-500">{formatDate(row.createdAt, language, true)}</p>
                  {extra(row)}
                  {row.reviewedAt ? (
                    <p className="text-slate-500">
                      {formatDate(row.reviewedAt, language, true)} {row.reviewComments ?? ""}
                    </p>
                  ) : null}
                </div>
                {decisions.length > 0 ? (
                  <ReviewForm
                    id={`review-${no}`}
                    intent={QUEUE_INTENT}
                    noField={noField}
                    no={no}
                    summary={amount(row)}
                    decisions={decisions.map((d) => ({ value: d, label: labels[d], danger: d === "reject" }))}
                    error={reply?.kind === "error" && reply.no === no ? reply : null}
                  />
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
      <Pagination pageIndex={page.pageIndex} pageSize={page.pageSize} total={page.total} />
    </section>
  );
}
