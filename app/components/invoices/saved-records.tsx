import { Dialog, DialogBackdrop, DialogPanel, DialogTitle } from "@headlessui/react";
import { FormProvider, getFormProps, useField, type FieldMetadata, type FormMetadata } from "@conform-to/react";
import { Form, Link, useLocation } from "@remix-run/react";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { RadioGroupField } from "#app/components/forms.tsx";
import { ErrorList, FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { Pagination } from "#app/components/Pagination.tsx";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { EmptyState } from "#app/components/EmptyState.tsx";

/* The caller's saved invoice titles and receiving addresses: their pages, forms and the choice of one. */

/**
 * One of the caller's saved titles or addresses, with a link to add one (which comes back here); when
 * there is none yet, a line that says so where the choices would be.
 */
export function SavedChoice({
  field,
  legend,
  none,
  options,
  addTo,
  addLabel,
}: {
  field: FieldMetadata<string | undefined>;
  legend: string;
  none: string;
  options: { value: string; label: ReactNode }[];
  addTo: string;
  addLabel: string;
}) {
  // Subscribes this component to the field's errors (the form is wrapped in <FormProvider>).
  const [meta] = useField<string | undefined>(field.name, { formId: field.formId });
  return (
    <div>
      {options.length === 0 ? (
        <>
          <p className="label">{legend}</p>
          <p className="text-sm text-slate-600">{none}</p>
          <ErrorList id={meta.errorId} errors={meta.errors} />
        </>
      ) : (
        <RadioGroupField field={field} legend={legend} options={options} />
      )}
      <Link to={addTo} className="link mt-1 inline-block text-sm">
        {addLabel}
      </Link>
    </div>
  );
}

/**
 * A delete that asks first: without JavaScript the link opens a confirmation rendered by the server
 * (`open`), with JavaScript the same question in a dialog. Either way the delete is a POST.
 */
export function ConfirmDelete({
  id,
  idName,
  label,
  question,
  confirmHref,
  closeHref,
  open,
  action,
}: {
  id: number;
  idName: string;
  label: string;
  question: string;
  confirmHref: string;
  closeHref: string;
  open: boolean;
  action: string;
}) {
  const { t } = useTranslation("invoices");
  const [dialog, setDialog] = useState(false);
  const form = (onCancel?: () => void) => (
    <Form method="post" action={action} className="mt-4 flex justify-end gap-2">
      <input type="hidden" name={idName} value={id} />
      {onCancel ? (
        <button type="button" className="btn-secondary" onClick={onCancel}>
          {t("common:actions.cancel")}
        </button>
      ) : (
        <Link to={closeHref} className="btn-secondary">
          {t("common:actions.cancel")}
        </Link>
      )}
      <button type="submit" name="intent" value="delete" className="btn-danger">
        {t("actions.confirmDelete")}
      </button>
    </Form>
  );
  return (
    <>
      <Link
        to={confirmHref}
        className="link text-sm text-red-700"
        onClick={(event) => {
          event.preventDefault();
          setDialog(true);
        }}
      >
        {label}
      </Link>
      {open && !dialog ? (
        <div
          role="alertdialog"
          aria-labelledby={`delete-${id}-title`}
          className="mt-3 rounded-md border border-red-200 bg-red-50 p-4 text-left"
        >
          <p id={`delete-${id}-title`} className="font-semibold text-slate-900">
            {question}
          </p>
          {form()}
        </div>
      ) : null}
      <Dialog
        open={dialog}
        onClose={() => setDialog(false)}
        className="relative z-50"
        role="alertdialog"
        aria-label={question}
      >
        <DialogBackdrop className="fixed inset-0 bg-slate-900/40" />
        <div className="fixed inset-0 flex items-center justify-center p-4">
          <DialogPanel className="card w-full max-w-sm">
            <DialogTitle className="font-semibold">{question}</DialogTitle>
            {form(() => setDialog(false))}
          </DialogPanel>
        </div>
      </Dialog>
    </>
  );
}

/**
 * The add or edit form of an invoice title or a receiving address: the record's id when editing, the way
 * back to the application page when it came from there, the fields, Save and Cancel.
 */
export function SavedRecordForm<Schema extends Record<string, unknown>>({
  form,
  name,
  heading,
  idName,
  id,
  back,
  cancelTo,
  children,
}: {
  form: FormMetadata<Schema, string[]>;
  /** Names the section's heading: `${name}-form-heading`. */
  name: string;
  heading: string;
  idName: string;
  id: number | undefined;
  back: string | null;
  cancelTo: string;
  children: ReactNode;
}) {
  const { t } = useTranslation("invoices");
  const location = useLocation();
  return (
    <section className="card" aria-labelledby={`${name}-form-heading`}>
      <h2 id={`${name}-form-heading`} className="font-semibold">
        {heading}
      </h2>
      <FormProvider context={form.context}>
        <Form
          method="post"
          action={location.pathname + location.search}
          {...getFormProps(form)}
          className="mt-4 grid gap-4 md:grid-cols-2"
        >
          <div className="md:col-span-2">
            <FormErrors id={form.errorId} errors={form.errors} />
          </div>
          {id !== undefined ? <input type="hidden" name={idName} value={id} /> : null}
          {back ? <input type="hidden" name="back" value={back} /> : null}
          {children}
          <div className="flex gap-2 md:col-span-2">
            <SubmitButton intent="save" className="btn-primary">
              {t("actions.save")}
            </SubmitButton>
            <Link to={back ?? cancelTo} className="btn-secondary">
              {t("common:actions.cancel")}
            </Link>
          </div>
        </Form>
      </FormProvider>
    </section>
  );
}

/**
 * The page of the caller's invoice titles or receiving addresses: heading, back to the invoices, Add (or
 * the open form), then each record with Edit and Delete (asking first), and the page links.
 */
export function SavedRecordsPage<Item>({
  heading,
  addLabel,
  form,
  page,
  empty,
  rowTestId,
  idOf,
  idName,
  deleteQuestion,
  deleting,
  action,
  children,
}: {
  heading: string;
  addLabel: string;
  /** The add or edit form when it is open. */
  form: ReactNode;
  page: { rows: Item[]; pageIndex: number; pageSize: number; total: number };
  empty: string;
  rowTestId: string;
  idOf: (row: Item) => number;
  idName: string;
  deleteQuestion: (row: Item) => string;
  deleting: number | null;
  action: string;
  /** What a record shows. */
  children: (row: Item) => ReactNode;
}) {
  const { t } = useTranslation("invoices");
  return (
    <div className="space-y-4">
      <PageHeader
        title={heading}
        actions={
          <>
            <div className="flex gap-2">
              <Link to="/g/home/userCenter/Invoices" className="btn-secondary">
                {t("actions.backToList")}
              </Link>
              {!form ? (
                <Link to="?form=new" className="btn-primary">
                  {addLabel}
                </Link>
              ) : null}
            </div>
          </>
        }
      />
      {form}
      {page.rows.length === 0 ? (
        <EmptyState message={empty} testId="empty" />
      ) : (
        <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white">
          {page.rows.map((r) => (
            <li key={idOf(r)} className="p-4" data-testid={rowTestId}>
              <div className="flex flex-wrap items-start justify-between gap-3">
                <div>{children(r)}</div>
                <div className="flex items-center gap-3">
                  <Link to={`?edit=${idOf(r)}`} className="link text-sm">
                    {t("actions.edit")}
                  </Link>
                  <ConfirmDelete
                    id={idOf(r)}
                    idName={idName}
                    label={t("actions.delete")}
                    question={deleteQuestion(r)}
                    confirmHref={`?page=${page.pageIndex}&delete=${idOf(r)}`}
                    closeHref={`?page=${page.pageIndex}`}
                    open={deleting === idOf(r)}
                    action={action}
                  />
                </div>
              </div>
            </li>
          ))}
        </ul>
      )}
      <Pagination pageIndex={page.pageIndex} pageSize={page.pageSize} total={page.total} />
    </div>
  );
}

/** The "Default" mark of the title or address used first. */
export function DefaultMark() {
  const { t } = useTranslation("invoices");
  return (
    <span className="ml-2 rounded-full bg-brand-50 px-2 py-0.5 text-xs text-brand-700">{t("fields.default")}</span>
  );
}
