import { Dialog, DialogBackdrop, DialogPanel, DialogTitle } from "@headlessui/react";
import { FormProvider, getFormProps, getInputProps, useField, type FieldMetadata, type FormMetadata } from "@conform-to/react";
import { Form, Link, useLocation } from "@remix-run/react";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { InvoiceDetail } from "@contract/invoices";
import { Badge, type Tone } from "~/components/Badge";
import type { TFunction } from "i18next";
import { ErrorList, FormErrors, SubmitButton } from "~/components/forms";
import { Pagination } from "~/components/Pagination";
import type { Column } from "~/components/RecordTable";
import { formatDate, formatUsd } from "~/lib/format";
import type { Language } from "~/lib/i18n";
import { pageParam } from "~/lib/params";

/* Shared pieces of the invoice pages (user and operator). Not a route: files beside route.tsx are modules. */

const STATUS_TONES: Record<number, Tone> = { 1: "wait", 3: "bad", 5: "info", 10: "ok" };

/** SPEC §4 invoice application status. */
export function StatusBadge({ status }: { status: number }) {
  const { t } = useTranslation("invoices");
  return <Badge tone={STATUS_TONES[status] ?? "off"} testId="invoice-status">{t(`status.${status}`)}</Badge>;
}

/** One choice of several, as radio buttons (works without JavaScript). */
export function RadioGroupField({
  field,
  legend,
  options,
}: {
  field: FieldMetadata<string | undefined>;
  legend: string;
  options: { value: string; label: ReactNode; disabled?: boolean }[];
}) {
  const [meta] = useField<string | undefined>(field.name, { formId: field.formId });
  return (
    <fieldset aria-describedby={meta.errors ? meta.errorId : undefined}>
      <legend className="label">{legend}</legend>
      <div className="space-y-2">
        {options.map((o) => {
          const props = getInputProps(meta, { type: "radio", value: o.value });
          return (
            <label key={o.value} className={`flex items-start gap-2 text-sm ${o.disabled ? "text-slate-400" : "text-slate-700"}`}>
              <input {...props} key={`${props.key}-${o.value}`} id={`${meta.id}-${o.value}`} disabled={o.disabled} className="mt-0.5 h-4 w-4 border-slate-300 text-brand-600" />
              <span>{o.label}</span>
            </label>
          );
        })}
      </div>
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </fieldset>
  );
}

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
      <Link to={addTo} className="link mt-1 inline-block text-sm">{addLabel}</Link>
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
        <button type="button" className="btn-secondary" onClick={onCancel}>{t("common:actions.cancel")}</button>
      ) : (
        <Link to={closeHref} className="btn-secondary">{t("common:actions.cancel")}</Link>
      )}
      <button type="submit" name="intent" value="delete" className="btn-danger">{t("actions.confirmDelete")}</button>
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
        <div role="alertdialog" aria-labelledby={`delete-${id}-title`} className="mt-3 rounded-md border border-red-200 bg-red-50 p-4 text-left">
          <p id={`delete-${id}-title`} className="font-semibold text-slate-900">{question}</p>
          {form()}
        </div>
      ) : null}
      <Dialog open={dialog} onClose={() => setDialog(false)} className="relative z-50" role="alertdialog">
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
      <h2 id={`${name}-form-heading`} className="font-semibold">{heading}</h2>
      <FormProvider context={form.context}>
        <Form method="post" action={location.pathname + location.search} {...getFormProps(form)} className="mt-4 grid gap-4 md:grid-cols-2">
          <div className="md:col-span-2"><FormErrors id={form.errorId} errors={form.errors} /></div>
          {id !== undefined ? <input type="hidden" name={idName} value={id} /> : null}
          {back ? <input type="hidden" name="back" value={back} /> : null}
          {children}
          <div className="flex gap-2 md:col-span-2">
            <SubmitButton intent="save" className="btn-primary">{t("actions.save")}</SubmitButton>
            <Link to={back ?? cancelTo} className="btn-secondary">{t("common:actions.cancel")}</Link>
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
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-xl font-semibold">{heading}</h1>
        <div className="flex gap-2">
          <Link to="/g/home/userCenter/Invoices" className="btn-secondary">{t("actions.backToList")}</Link>
          {!form ? <Link to="?form=new" className="btn-primary">{addLabel}</Link> : null}
        </div>
      </div>
      {form}
      {page.rows.length === 0 ? (
        <p className="card text-center text-slate-500" data-testid="empty">{empty}</p>
      ) : (
        <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white">
          {page.rows.map((r) => (
            <li key={idOf(r)} className="p-4" data-testid={rowTestId}>
              <div className="flex flex-wrap items-start justify-between gap-3">
                <div>{children(r)}</div>
                <div className="flex items-center gap-3">
                  <Link to={`?edit=${idOf(r)}`} className="link text-sm">{t("actions.edit")}</Link>
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
  return <span className="ml-2 rounded-full bg-brand-50 px-2 py-0.5 text-xs text-brand-700">{t("fields.default")}</span>;
}

function Row({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="grid grid-cols-3 gap-2 py-1.5 text-sm">
      <dt className="text-slate-500">{label}</dt>
      <dd className="col-span-2 text-slate-900" data-testid={testId}>{children}</dd>
    </div>
  );
}

/** Every field of an application (SPEC §3): title, amounts, issuance and delivery, billed bills, review. */
export function InvoiceDetailView({ detail, language }: { detail: InvoiceDetail; language: Language }) {
  const { t } = useTranslation("invoices");
  const ti = detail.titleInfo;
  const r = detail.recipient;
  const paper = detail.issuance === 1;
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <section className="card" aria-labelledby="detail-application">
        <h2 id="detail-application" className="font-semibold">{t("detail.application")}</h2>
        <dl className="mt-3 divide-y divide-slate-100">
          <Row label={t("fields.applicationNo")}>{detail.applicationNo}</Row>
          <Row label={t("fields.status")}><StatusBadge status={detail.status} /></Row>
          <Row label={t("fields.amount")} testId="detail-amount">{formatUsd(detail.amountCents, language)}</Row>
          <Row label={t("fields.invoiceType")}>{t(`invoiceType.${detail.invoiceType}`)}</Row>
          <Row label={t("fields.issuance")}>{t(`issuance.${detail.issuance}`)}</Row>
          <Row label={t("fields.createdAt")}>{formatDate(detail.createdAt, language, true)}</Row>
          {detail.userName ? <Row label={t("fields.applicant")}>{detail.userName}</Row> : null}
        </dl>
      </section>
      <section className="card" aria-labelledby="detail-title">
        <h2 id="detail-title" className="font-semibold">{t("detail.title")}</h2>
        <dl className="mt-3 divide-y divide-slate-100">
          <Row label={t("fields.titleType")}>{t(`titleType.${ti.titleType}`)}</Row>
          <Row label={t("fields.title")}>{ti.title}</Row>
          {ti.taxNo ? <Row label={t("fields.taxNo")}>{ti.taxNo}</Row> : null}
          {ti.bank ? <Row label={t("fields.bank")}>{ti.bank}</Row> : null}
          {ti.bankAccount ? <Row label={t("fields.bankAccount")}>{ti.bankAccount}</Row> : null}
          {ti.registeredAddress ? <Row label={t("fields.registeredAddress")}>{ti.registeredAddress}</Row> : null}
          {ti.registeredPhone ? <Row label={t("fields.registeredPhone")}>{ti.registeredPhone}</Row> : null}
        </dl>
      </section>
      <section className="card" aria-labelledby="detail-recipient">
        <h2 id="detail-recipient" className="font-semibold">{t("detail.recipient")}</h2>
        <dl className="mt-3 divide-y divide-slate-100">
          {paper ? (
            <>
              <Row label={t("fields.name")}>{r.name}</Row>
              <Row label={t("fields.mobile")}>{r.mobile}</Row>
              <Row label={t("fields.location")}>{r.location}</Row>
              <Row label={t("fields.address")}>{r.address}</Row>
              {r.postalCode ? <Row label={t("fields.postalCode")}>{r.postalCode}</Row> : null}
              {r.email ? <Row label={t("fields.email")}>{r.email}</Row> : null}
            </>
          ) : (
            <Row label={t("fields.email")}>{r.email}</Row>
          )}
          {r.remark ? <Row label={t("fields.remark")}>{r.remark}</Row> : null}
        </dl>
      </section>
      <section className="card" aria-labelledby="detail-review" data-testid="review-result">
        <h2 id="detail-review" className="font-semibold">{t("detail.review")}</h2>
        <dl className="mt-3 divide-y divide-slate-100">
          <Row label={t("fields.reviewResult")}>
            {detail.reviewedAt ? t(detail.status === 3 ? "review.notApproved" : "review.approved") : t("review.pending")}
          </Row>
          {detail.reviewedAt ? <Row label={t("fields.reviewedAt")}>{formatDate(detail.reviewedAt, language, true)}</Row> : null}
          {detail.reviewComments ? <Row label={t("fields.reviewComments")} testId="review-comments">{detail.reviewComments}</Row> : null}
          {detail.deliveredAt ? (
            <>
              <Row label={t("fields.deliveredAt")}>{formatDate(detail.deliveredAt, language, true)}</Row>
              {detail.courierName ? <Row label={t("fields.courierName")} testId="courier-name">{detail.courierName}</Row> : null}
              {detail.courierNo ? <Row label={t("fields.courierNo")} testId="courier-no">{detail.courierNo}</Row> : null}
              {detail.deliveryEmail ? <Row label={t("fields.deliveryEmail")} testId="delivery-email">{detail.deliveryEmail}</Row> : null}
            </>
          ) : null}
        </dl>
      </section>
      <section className="card lg:col-span-2" aria-labelledby="detail-bills">
        <h2 id="detail-bills" className="font-semibold">{t("detail.bills")}</h2>
        <table className="mt-3 w-full text-left text-sm">
          <thead className="text-slate-500">
            <tr><th className="py-1.5">{t("fields.billNo")}</th><th>{t("fields.serviceName")}</th><th className="text-right">{t("fields.amount")}</th></tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {detail.bills.map((b) => (
              <tr key={b.billId} data-testid="billed-bill">
                <td className="py-1.5">{b.billNo}</td>
                <td>{b.serviceName}</td>
                <td className="text-right">{formatUsd(b.amountCents, language)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </div>
  );
}

type ApplicationRow = { title: string; invoiceType: number; issuance: number; amountCents: number; status: number; createdAt: string };

/** The columns an invoice application shows in the user's list and in the operators' queue, after its number. */
export function applicationColumns<Row extends ApplicationRow>(t: TFunction, language: Language): Column<Row>[] {
  return [
    { header: t("fields.title"), cell: (r) => r.title },
    { header: t("fields.invoiceType"), cell: (r) => t(`invoiceType.${r.invoiceType}`) },
    { header: t("fields.issuance"), cell: (r) => t(`issuance.${r.issuance}`) },
    { header: t("fields.amount"), numeric: true, cell: (r) => formatUsd(r.amountCents, language) },
    { header: t("fields.status"), cell: (r) => <StatusBadge status={r.status} /> },
    { header: t("fields.createdAt"), cell: (r) => formatDate(r.createdAt, language, true) },
  ];
}

/** Reads ?page= and ?status= of a list of applications. */
export function readListQuery(url: URL, statuses: readonly number[]) {
  const raw = url.searchParams.get("status");
  const status = statuses.find((s) => String(s) === raw);
  return { status, page: pageParam(url) };
}
