import { Dialog, DialogBackdrop, DialogPanel, DialogTitle } from "@headlessui/react";
import { useEffect, useId, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { sameServiceName } from "#contract/services.ts";

/** A destructive decision confirmed by typing a name (docs/decisions/029): the field's label and the name. */
export type TypeToConfirm = { name: string; label: string };

/**
 * A submit button that asks first (house rule: destructive actions and money leaving the account). With
 * JavaScript it opens a dialog whose confirm button submits the form with `confirmed=yes`; without
 * JavaScript it submits at once and the action answers with a confirm step (see ConfirmStep).
 */
export function ConfirmSubmit({
  formId,
  name,
  value,
  label,
  title,
  question,
  confirmLabel,
  className = "btn-primary",
  typeToConfirm,
  canOpen,
}: {
  formId: string;
  name?: string;
  value?: string;
  label: ReactNode;
  title: string;
  question: ReactNode;
  confirmLabel: string;
  className?: string;
  /** The dialog asks to type this name; its confirm button waits for it (the server checks it again). */
  typeToConfirm?: TypeToConfirm;
  /** Checked before the dialog opens: false keeps it closed (the check shows its own errors), as the server's first step does. */
  canOpen?: () => boolean;
}) {
  const [hydrated, setHydrated] = useState(false);
  const [open, setOpen] = useState(false);
  useEffect(() => setHydrated(true), []);
  if (!hydrated) {
    return (
      <button type="submit" name={name} value={value} className={className}>
        {label}
      </button>
    );
  }
  return (
    <>
      <button type="button" className={className} onClick={() => setOpen(!canOpen || canOpen())}>
        {label}
      </button>
      <ConfirmDialog
        open={open}
        onClose={() => setOpen(false)}
        formId={formId}
        name={name}
        value={value}
        title={title}
        question={question}
        confirmLabel={confirmLabel}
        className={className}
        typeToConfirm={typeToConfirm}
      />
    </>
  );
}

/**
 * The dialog of a confirmed submit, for an opener other than ConfirmSubmit's own button (e.g. an item of a
 * row's "More" menu): its confirm button submits form `formId` with `name`=`value` and `confirmed=yes`.
 */
export function ConfirmDialog({
  open,
  onClose,
  formId,
  name,
  value,
  title,
  question,
  confirmLabel,
  className = "btn-primary",
  typeToConfirm,
}: {
  open: boolean;
  onClose: () => void;
  formId: string;
  name?: string;
  value?: string;
  title: string;
  question: ReactNode;
  confirmLabel: string;
  className?: string;
  typeToConfirm?: TypeToConfirm;
}) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState("");
  const inputId = useId();
  const matches = !typeToConfirm || sameServiceName(typed, typeToConfirm.name);
  return (
    <Dialog open={open} onClose={onClose} className="relative z-50" role="alertdialog" aria-label={title}>
      <DialogBackdrop className="fixed inset-0 bg-slate-900/40" />
      <div className="fixed inset-0 flex items-center justify-center p-4">
        <DialogPanel className="card w-full max-w-sm">
          <DialogTitle className="text-lg font-semibold">{title}</DialogTitle>
          <div className="mt-2 text-slate-600">{question}</div>
          {typeToConfirm ? (
            <div className="mt-4">
              <label htmlFor={inputId} className="label">
                {typeToConfirm.label}
              </label>
              <input
                id={inputId}
                name="confirmName"
                form={formId}
                autoComplete="off"
                className="input"
                value={typed}
                onChange={(e) => setTyped(e.target.value)}
              />
            </div>
          ) : null}
          <div className="mt-6 flex justify-end gap-2">
            <button type="button" className="btn-secondary" onClick={onClose}>
              {t("actions.cancel")}
            </button>
            <input type="hidden" name="confirmed" value="yes" form={formId} />
            <button
              type="submit"
              form={formId}
              name={name}
              value={value}
              className={className}
              disabled={!matches}
              onClick={() => setTimeout(onClose, 0)}
            >
              {confirmLabel}
            </button>
          </div>
        </DialogPanel>
      </div>
    </Dialog>
  );
}
