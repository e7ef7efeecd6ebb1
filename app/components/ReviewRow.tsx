import type { SubmissionResult } from "@conform-to/react";
import { Form, Link, useActionData, useLocation } from "@remix-run/react";
import type { TFunction } from "i18next";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { formatDate, formatUsd } from "#app/lib/format.ts";
import type { Language } from "#app/lib/i18n.ts";
import { ConfirmDialog, ConfirmSubmit, type TypeToConfirm } from "./ConfirmSubmit.tsx";
import { FilterPills } from "./FilterPills.tsx";
import { Pagination } from "./Pagination.tsx";
import { RowActions } from "./RowActions.tsx";
import { EmptyState } from "#app/components/EmptyState.tsx";

/*
 * The decision form of every operations queue (issue 27 item 4, docs/decisions/051, 055), for the one action
 * (decideQueueItem of #app/lib/operations-review.server.ts): DecisionForm on each item, its confirm step
 * without JavaScript, and ReviewQueue, the whole page of a money queue.
 */

/** What a queue's action answers for a form with fields of its own (decideQueueItem, a decision with `confirm: false`). */
export type DecisionActionData = { intent: string; id: number; result: SubmissionResult<string[]> };

/** What a queue's action answers for a decision instead of a redirect: its confirm step, or a refusal at its row. */
export type QueueReply =
  | { kind: "confirm"; no: string; decision: string; comments: string }
  | { kind: "error"; no: string; comments: string; messageKey: string };

/**
 * One decision on a queue item: `question` words its confirmation (default "{{action}} {{subject}}?");
 * `typeToConfirm` asks to type a name first (docs/decisions/029).
 */
export type Decision = {
  value: string;
  label: string;
  danger?: boolean;
  question?: string;
  typeToConfirm?: TypeToConfirm;
};

/** Approve and Reject with the `<prefix>.approve` / `.reject` texts of a queue's namespace (Reject is dangerous). */
export function approveReject(t: TFunction, prefix = "ops"): Decision[] {
  return [
    { value: "approve", label: t(`${prefix}.approve`) },
    { value: "reject", label: t(`${prefix}.reject`), danger: true },
  ];
}

function isQueueReply(data: unknown): data is QueueReply {
  return typeof data === "object" && data !== null && "kind" in data && "no" in data;
}

/**
 * An operator's decision on one queue item (operations area, docs/decisions/005, 007): comments, the first
 * decision as the item's main action and the others in its "More" menu (RowActions, docs/decisions/027), each
 * confirmed first: a dialog with JavaScript; without it the action answers a confirm step, shown here above
 * the form. Posted with `intent`, the item's id (`idName` = `idValue`), `decision` and `comments`; a refusal
 * (comments missing, the backend's) is shown at the comments with what was typed kept. `subject` names the
 * item for the menu button's accessible name and the default confirm question (a queue words its own with a
 * decision's `question`, e.g. with the amount).
 */
export function DecisionForm({
  id,
  intent,
  idName,
  idValue,
  subject,
  decisions,
  comments,
}: {
  id: string;
  intent: string;
  idName: string;
  idValue: string | number;
  subject: string;
  decisions: Decision[];
  comments: { label: string; hint?: string };
}) {
  const { t } = useTranslation("forms");
  const location = useLocation();
  const actionData = useActionData<unknown>();
  const [chosenValue, setChosen] = useState<string | null>(null);
  const no = String(idValue);
  const reply = isQueueReply(actionData) && actionData.no === no ? actionData : null;
  const error = reply?.kind === "error" ? reply : null;
  const confirming = reply?.kind === "confirm" ? decisions.find((d) => d.value === reply.decision) : undefined;
  const [main, ...others] = decisions;
  const chosen = others.find((d) => d.value === chosenValue);
  const questionOf = (d: Decision) => d.question ?? t("common:queue.question", { action: d.label, subject });
  const confirmLabel = t("common:queue.confirm");
  const typedComments = reply?.comments;
  return (
    <div className="space-y-2">
      {confirming ? (
        <ConfirmStep
          intent={intent}
          idName={idName}
          no={no}
          decision={confirming}
          question={questionOf(confirming)}
          comments={typedComments}
        />
      ) : null}
      <Form method="post" id={id} action={location.pathname + location.search} className="space-y-2">
        <input type="hidden" name="intent" value={intent} />
        <input type="hidden" name={idName} value={no} />
        <div>
          <label htmlFor={`${id}-comments`} className="label">
            {comments.label}
          </label>
          <textarea
            id={`${id}-comments`}
            name="comments"
            rows={2}
            maxLength={500}
            defaultValue={typedComments ?? ""}
            key={typedComments ?? ""}
            className="input"
            aria-invalid={error ? true : undefined}
            aria-describedby={
              [comments.hint ? `${id}-hint` : "", error ? `${id}-error` : ""].join(" ").trim() || undefined
            }
          />
          {comments.hint ? (
            <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
              {comments.hint}
            </p>
          ) : null}
          {error ? (
            <p id={`${id}-error`} role="alert" className="field-error">
              {t(error.messageKey)}
            </p>
          ) : null}
        </div>
        <RowActions
          name={subject}
          main={
            main ? (
              <ConfirmSubmit
                formId={id}
                name="decision"
                value={main.value}
                label={main.label}
                title={main.label}
                question={questionOf(main)}
                confirmLabel={confirmLabel}
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
            confirmLabel={confirmLabel}
            className={chosen.danger ? "btn-danger text-sm" : "btn-primary text-sm"}
            typeToConfirm={chosen.typeToConfirm}
          />
        ) : null}
      </Form>
    </div>
  );
}

/** The confirm step of a decision without JavaScript: the same form, posted again with `confirmed=yes`. */
function ConfirmStep({
  intent,
  idName,
  no,
  decision,
  question,
  comments,
}: {
  intent: string;
  idName: string;
  no: string;
  decision: Decision;
  question: string;
  comments?: string;
}) {
  const { t } = useTranslation();
  const location = useLocation();
  const { typeToConfirm } = decision;
  return (
    <div className="card max-w-lg" role="alertdialog" aria-labelledby="review-confirm-title" data-testid="confirm-step">
      <h2 id="review-confirm-title" className="text-lg font-semibold">
        {decision.label}
      </h2>
      <p className="mt-2 text-slate-600">{question}</p>
      {comments ? <p className="mt-1 text-sm text-slate-500">{comments}</p> : null}
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
        <input type="hidden" name="intent" value={intent} />
        <input type="hidden" name={idName} value={no} />
        <input type="hidden" name="decision" value={decision.value} />
        <input type="hidden" name="comments" value={comments ?? ""} />
        <input type="hidden" name="confirmed" value="yes" />
        <Link to={location.pathname + location.search} className="btn-secondary">
          {t("actions.cancel")}
        </Link>
        <button type="submit" className="btn-primary">
          {t("queue.confirm")}
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

type QueueRecord = {
  amountCents: number;
  userName: string;
  realName: string;
  createdAt: string;
  reviewedAt: string | null;
  reviewComments: string | null;
};

/**
 * An operations queue of money records (remittances, withdrawals, payments in review): heading and filter, one card per record (number and state, amount, user, dates, what `extra`
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
  labels: Record<string, string>;
  /** The decisions the record waits for, none once it is decided. */
  decisionsOf: (row: Row) => string[];
  badge: (row: Row) => ReactNode;
  extra: (row: Row) => ReactNode;
  language: Language;
}) {
  const { t } = useTranslation("payments");
  const amount = (row: Row) => formatUsd(row.amountCents, language);
  return (
    <section className="space-y-4">
      <QueueHeader title={title} status={status} />
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
                    {t("ops.user")}:{" "}
                    <span data-user-content="">
                      {row.userName} ({row.realName})
                    </span>
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
                  <DecisionForm
                    id={`review-${no}`}
                    intent={QUEUE_INTENT}
                    idName={noField}
                    idValue={no}
                    subject={no}
                    comments={{ label: t("ops.comments"), hint: t("ops.commentsHint") }}
                    decisions={decisions.map((d) => ({
                      value: d,
                      label: labels[d],
                      danger: d === "reject",
                      question: t("ops.confirmQuestion", { action: labels[d], no, amount: amount(row) }),
                    }))}
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

/**
 * A queue's list of review cards (service-like records: certifications, IPFS upgrades): the empty state, one card
 * per row (`card` gives its id, badge and body), then the page links.
 */
export function ReviewCards<Row>({
  page,
  empty,
  children,
}: {
  page: { rows: Row[]; pageIndex: number; pageSize: number; total: number };
  empty: ReactNode;
  children: (row: Row) => ReactNode;
}) {
  return (
    <>
      {page.rows.length === 0 ? empty : <ul className="space-y-4">{page.rows.map(children)}</ul>}
      <Pagination pageIndex={page.pageIndex} pageSize={page.pageSize} total={page.total} />
    </>
  );
}

/**
 * One record of a ReviewCards list: its heading (labelled for the list item) with its state badge, then `children`.
 * The heading names the record as its user wrote it, so it is marked as user data (`data-user-content`).
 */
export function ReviewCard({
  id,
  testId,
  title,
  badge,
  children,
}: {
  id: string;
  testId: string;
  title: ReactNode;
  badge: ReactNode;
  children: ReactNode;
}) {
  return (
    <li className="card space-y-3" data-testid={testId} aria-labelledby={id}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={id} className="font-semibold" data-user-content="">
          {title}
        </h3>
        {badge}
      </div>
      {children}
    </li>
  );
}
