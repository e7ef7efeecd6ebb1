import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { TypeToConfirm } from "./ConfirmSubmit.tsx";

/**
 * The confirm step of a form posted without JavaScript (ConfirmSubmit submits at once there, and the action
 * answers with this): the question, Cancel back to `cancelTo`, and the same `intent` posted to `action` again
 * with the record's hidden `fields` and `confirmed=yes`. With `typeToConfirm` it asks for the record's name
 * first (docs/decisions/029); `typedError` is the message key of the server's refusal of what was typed.
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
  typeToConfirm,
  typedError,
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
  typeToConfirm?: TypeToConfirm;
  typedError?: string;
}) {
  const { t } = useTranslation("forms");
  return (
    <div className="card max-w-lg" role="alertdialog" aria-labelledby={id} data-testid="confirm-step">
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      <p className="mt-2 text-slate-600">{question}</p>
      <Form method="post" action={action} className="mt-4 flex flex-wrap justify-end gap-2">
        {typeToConfirm ? (
          <div className="w-full">
            <label htmlFor={`${id}-name`} className="label">
              {typeToConfirm.label}
            </label>
            <input
              id={`${id}-name`}
              name="confirmName"
              autoComplete="off"
              required
              className="input"
              aria-invalid={typedError ? true : undefined}
              aria-describedby={typedError ? `${id}-name-error` : undefined}
            />
            {typedError ? (
              <p id={`${id}-name-error`} className="mt-1 text-sm text-red-700" data-testid="field-error">
                {t(typedError)}
              </p>
            ) : null}
          </div>
        ) : null}
        {Object.entries(fields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <input type="hidden" name="confirmed" value="yes" />
        <Link to={cancelTo} className="btn-secondary">
          {cancelLabel}
        </Link>
        <button type="submit" name="intent" value={intent} className={danger ? "btn-danger" : "btn-primary"}>
          {confirmLabel}
        </button>
      </Form>
    </div>
  );
}
