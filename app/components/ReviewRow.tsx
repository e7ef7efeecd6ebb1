import { Form, Link, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ConfirmSubmit } from "./ConfirmSubmit";

/** `question`: the confirm question of this decision, when the queue words its own (default: payments' "{{action}} {{no}} for {{amount}}?"). */
type Decision = { value: string; label: string; danger?: boolean; question?: string };

/**
 * One record's decision form in an operations queue: comments and a button per decision, each confirmed
 * (dialog with JavaScript; without it the action answers a confirm step, rendered by ConfirmStep).
 */
export function ReviewForm({
  id,
  noField,
  no,
  summary,
  decisions,
  error,
  hint,
}: {
  id: string;
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
  return (
    <Form method="post" id={id} action={location.pathname + location.search} className="space-y-2">
      <input type="hidden" name={noField} value={no} />
      <label htmlFor={`${id}-comments`} className="sr-only">{t("ops.comments")}</label>
      <textarea id={`${id}-comments`} name="comments" rows={2} maxLength={500} defaultValue={error?.comments ?? ""} placeholder={hint ?? t("ops.commentsHint")}
        className="input" aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined} />
      {error ? <p id={`${id}-error`} role="alert" className="field-error">{t(error.messageKey)}</p> : null}
      <div className="flex flex-wrap gap-2">
        {decisions.map((d) => (
          <ConfirmSubmit key={d.value} formId={id} name="decision" value={d.value} label={d.label} title={d.label}
            question={d.question ?? t("ops.confirmQuestion", { action: d.label, no, amount: summary })} confirmLabel={t("ops.confirm")}
            className={d.danger ? "btn-danger text-sm" : "btn-primary text-sm"} />
        ))}
      </div>
    </Form>
  );
}

/** The confirm step of a decision without JavaScript. */
export function ConfirmStep({ noField, no, decision, label, comments, summary, question }: { noField: string; no: string; decision: string; label: string; comments?: string; summary: string; question?: string }) {
  const { t } = useTranslation("payments");
  const location = useLocation();
  return (
    <div className="card max-w-lg" role="alertdialog" aria-labelledby="review-confirm-title" data-testid="confirm-step">
      <h2 id="review-confirm-title" className="text-lg font-semibold">{label}</h2>
      <p className="mt-2 text-slate-600">{question ?? t("ops.confirmQuestion", { action: label, no, amount: summary })}</p>
      {comments ? <p className="mt-1 text-sm text-slate-500">{t("ops.comments")}: {comments}</p> : null}
      <Form method="post" action={location.pathname + location.search} className="mt-4 flex justify-end gap-2">
        <input type="hidden" name={noField} value={no} />
        <input type="hidden" name="decision" value={decision} />
        <input type="hidden" name="comments" value={comments ?? ""} />
        <input type="hidden" name="confirmed" value="yes" />
        <Link to={location.pathname + location.search} className="btn-secondary">{t("ops.cancel")}</Link>
        <button type="submit" className="btn-primary">{t("ops.confirm")}</button>
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
      <nav className="flex gap-2 text-sm">
        {(["open", "all"] as const).map((s) => (
          <Link key={s} to={`?status=${s}`} aria-current={status === s ? "page" : undefined}
            className={`rounded-full px-3 py-1 ${status === s ? "bg-brand-600 text-white" : "bg-white text-slate-700 ring-1 ring-slate-200"}`}>
            {t(`ops.filter.${s}`)}
          </Link>
        ))}
      </nav>
    </div>
  );
}
