import { Form, Link } from "@remix-run/react";

/**
 * The confirm step of a form posted without JavaScript (ConfirmSubmit submits at once there, and the action
 * answers with this): the question, Cancel back to `cancelTo`, and the same `intent` posted to `action` again
 * with the record's hidden `fields` and `confirmed=yes`.
 */
export function IntentConfirmStep({
  id,
  title,
  question,
  intent,
  fields,
  action,
  cancelTo,
  confirmLabel,
  cancelLabel,
  danger = false,
}: {
  id: string;
  title: string;
  question: string;
  intent: string;
  fields: Record<string, string | number>;
  action: string;
  cancelTo: string;
  confirmLabel: string;
  cancelLabel: string;
  danger?: boolean;
}) {
  return (
    <div className="card max-w-lg" role="alertdialog" aria-labelledby={id} data-testid="confirm-step">
      <h2 id={id} className="text-lg font-semibold">{title}</h2>
      <p className="mt-2 text-slate-600">{question}</p>
      <Form method="post" action={action} className="mt-4 flex justify-end gap-2">
        {Object.entries(fields).map(([name, value]) => <input key={name} type="hidden" name={name} value={value} />)}
        <input type="hidden" name="confirmed" value="yes" />
        <Link to={cancelTo} className="btn-secondary">{cancelLabel}</Link>
        <button type="submit" name="intent" value={intent} className={danger ? "btn-danger" : "btn-primary"}>{confirmLabel}</button>
      </Form>
    </div>
  );
}
