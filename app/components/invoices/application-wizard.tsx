import { FormProvider, getFormProps, useField, type SubmissionResult } from "@conform-to/react";
import { Form, Link, useActionData, useLocation } from "@remix-run/react";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  INVOICE_TYPES,
  ISSUANCES,
  invoiceApplicationSchema,
  selectBillsSchema,
  titleAllowsSpecialVat,
  type Addressee,
  type InvoiceableBill,
  type InvoiceTitle,
} from "#contract/invoices.ts";
import { RadioGroupField, TextAreaField, TextField } from "#app/components/forms.tsx";
import { ErrorList, FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { formatDate, formatUsd, zoneHeader } from "#app/lib/format.ts";
import type { Language } from "#app/lib/i18n.ts";
import { invoiceStepUrl } from "#app/lib/invoices-urls.ts";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";
import { SavedChoice } from "./saved-records.tsx";
import { EmptyState } from "#app/components/EmptyState.tsx";

/*
 * SPEC §2 Invoices add, the two steps of an application: "select billing" → "confirm information". The
 * step and the selection travel in the URL and in the form (docs/decisions/008).
 */

/** What the page gives its steps (titles, addresses, e-mail and the idempotency key at the second only). */
export type ApplicationWizardData = {
  step: "select" | "confirm";
  language: Language;
  invoiceableCents: number;
  bills: InvoiceableBill[];
  selected: string[];
  dropped: number;
  titles: InvoiceTitle[];
  addresses: Addressee[];
  email: string;
  idempotencyKey: string;
};

/** What the page's action answers for a refused form: the intent of that form and Conform's reply. */
export type ApplicationWizardActionData = { intent: "select" | "apply"; result: SubmissionResult<string[]> };

/** The two steps, the current one marked. */
export function Steps({ step }: { step: "select" | "confirm" }) {
  const { t } = useTranslation("invoices");
  return (
    <ol className="flex gap-4 text-sm" aria-label={t("add.steps")}>
      {(["select", "confirm"] as const).map((s, i) => (
        <li
          key={s}
          aria-current={step === s ? "step" : undefined}
          className={step === s ? "font-semibold text-brand-700" : "text-slate-500"}
        >
          {i + 1}. {t(`add.${s}`)}
        </li>
      ))}
    </ol>
  );
}

function BillsField({
  bills,
  selected,
  language,
  name,
  formId,
}: {
  bills: InvoiceableBill[];
  selected: string[];
  language: "en" | "zh-CN";
  name: string;
  formId: string;
}) {
  const { t } = useTranslation("invoices");
  const [meta] = useField<string[]>(name, { formId });
  const initial = (meta.initialValue as string[] | string | undefined) ?? selected;
  const [checked, setChecked] = useState<Set<string>>(() => new Set(Array.isArray(initial) ? initial : [initial]));
  const total = bills.filter((b) => checked.has(String(b.billId))).reduce((sum, b) => sum + b.amountCents, 0);
  return (
    <fieldset aria-describedby={meta.errors ? meta.errorId : undefined}>
      <legend className="sr-only">{t("add.select")}</legend>
      <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
        <table className="w-full text-left text-sm">
          <thead className="bg-slate-50 text-slate-500">
            <tr>
              <th className="px-4 py-2">
                <span className="sr-only">{t("add.choose")}</span>
              </th>
              <th className="px-4 py-2">{t("fields.billNo")}</th>
              <th className="px-4 py-2">{t("fields.serviceName")}</th>
              <th className="px-4 py-2">{zoneHeader(t, t("fields.paidAt"))}</th>
              <th className="px-4 py-2 text-right">{t("fields.amount")}</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {bills.map((b) => {
              const id = String(b.billId);
              return (
                <tr key={id} data-testid="invoiceable-bill">
                  <td className="px-4 py-2">
                    <input
                      type="checkbox"
                      name={name}
                      value={id}
                      id={`bill-${id}`}
                      defaultChecked={checked.has(id)}
                      onChange={(e) => {
                        const next = new Set(checked);
                        if (e.currentTarget.checked) next.add(id);
                        else next.delete(id);
                        setChecked(next);
                      }}
                      className="h-4 w-4 rounded border-slate-300 text-brand-600"
                    />
                  </td>
                  <td className="px-4 py-2">
                    <label htmlFor={`bill-${id}`}>{b.billNo}</label>
                  </td>
                  <td className="px-4 py-2">{b.serviceName}</td>
                  <td className="px-4 py-2">{formatDate(b.paidAt, language, false, false)}</td>
                  <td className="px-4 py-2 text-right">{formatUsd(b.amountCents, language)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <ErrorList id={meta.errorId} errors={meta.errors} />
      <p className="mt-3 text-sm">
        {t("add.selectedTotal", { n: checked.size })}{" "}
        <strong data-testid="running-total">{formatUsd(total, language)}</strong>
      </p>
    </fieldset>
  );
}

/** Step 1: the invoiceable bills to choose, with their running total. */
export function SelectStep({ data }: { data: ApplicationWizardData }) {
  const actionData = useActionData<ApplicationWizardActionData>();
  const { t } = useTranslation("invoices");
  const location = useLocation();
  const [form, fields] = useSchemaForm(
    selectBillsSchema,
    actionData?.intent === "select" ? actionData.result : undefined,
    {
      id: "invoice-select",
      defaultValue: { billIds: data.selected },
    },
  );
  if (data.bills.length === 0) {
    return (
      <EmptyState
        message={t("add.noBills")}
        action={
          <>
            <Link to="/g/home/userCenter/Invoices" className="btn-secondary mt-4 inline-block">
              {t("actions.backToList")}
            </Link>
          </>
        }
        testId="empty"
      />
    );
  }
  return (
    <FormProvider context={form.context}>
      <Form method="post" action={location.pathname + location.search} {...getFormProps(form)} className="space-y-4">
        <FormErrors id={form.errorId} errors={form.errors} />
        <BillsField
          bills={data.bills}
          selected={data.selected}
          language={data.language}
          name={fields.billIds.name}
          formId={form.id}
        />
        <div className="flex gap-2">
          <SubmitButton intent="select" className="btn-primary">
            {t("add.next")}
          </SubmitButton>
          <Link to="/g/home/userCenter/Invoices" className="btn-secondary">
            {t("common:actions.cancel")}
          </Link>
        </div>
      </Form>
    </FormProvider>
  );
}

/** Step 2: the chosen bills, and the title, invoice type, issuance and delivery of the application. */
export function ConfirmStep({ data }: { data: ApplicationWizardData }) {
  const actionData = useActionData<ApplicationWizardActionData>();
  const { t } = useTranslation("invoices");
  const location = useLocation();
  const here = location.pathname + location.search;
  const defaultTitle = data.titles.find((x) => x.isDefault) ?? data.titles[0];
  const defaultAddress = data.addresses.find((x) => x.isDefault) ?? data.addresses[0];
  const total = useMemo(() => data.bills.reduce((sum, b) => sum + b.amountCents, 0), [data.bills]);
  const [form, fields] = useSchemaForm(
    invoiceApplicationSchema,
    actionData?.intent === "apply" ? actionData.result : undefined,
    {
      id: "invoice-confirm",
      defaultValue: {
        idempotencyKey: data.idempotencyKey,
        titleId: defaultTitle ? String(defaultTitle.titleId) : undefined,
        invoiceType: "1",
        issuance: "2",
        addresseeId: defaultAddress ? String(defaultAddress.addresseeId) : undefined,
        email: data.email,
      },
    },
  );
  const key = (fields.idempotencyKey.initialValue as string | undefined) ?? data.idempotencyKey;
  const over = total > data.invoiceableCents;
  return (
    <div className="space-y-4">
      {data.dropped > 0 ? (
        <p role="status" className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-800">
          {t("add.dropped", { count: data.dropped })}
        </p>
      ) : null}
      <section className="card" aria-labelledby="confirm-bills">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="confirm-bills" className="font-semibold">
            {t("add.selectedBills")}
          </h2>
          <Link to={invoiceStepUrl("select", data.selected)} className="link text-sm">
            {t("add.changeSelection")}
          </Link>
        </div>
        <ul className="mt-3 divide-y divide-slate-100 text-sm">
          {data.bills.map((b) => (
            <li key={b.billId} className="flex justify-between py-1.5" data-testid="selected-bill">
              <span>
                {b.billNo} · {b.serviceName}
              </span>
              <span>{formatUsd(b.amountCents, data.language)}</span>
            </li>
          ))}
        </ul>
        <p className="mt-3 flex justify-between border-t border-slate-200 pt-3 text-sm font-semibold">
          <span>{t("fields.invoiceAmount")}</span>
          <span data-testid="invoice-total">{formatUsd(total, data.language)}</span>
        </p>
        <p className="mt-1 text-xs text-slate-500">
          {t("fields.invoiceable")}: {formatUsd(data.invoiceableCents, data.language)}
        </p>
        {over ? (
          <p role="alert" className="mt-2 text-sm text-red-700">
            {t("errors:MSG_30009")}
          </p>
        ) : null}
        <ErrorList id={fields.billIds.errorId} errors={fields.billIds.errors} />
      </section>
      <FormProvider context={form.context}>
        <Form method="post" action={here} {...getFormProps(form)} className="card space-y-5">
          <FormErrors id={form.errorId} errors={form.errors} />
          <input type="hidden" name="idempotencyKey" value={key} />
          {data.selected.map((id) => (
            <input key={id} type="hidden" name="billIds" value={id} />
          ))}
          <SavedChoice
            field={fields.titleId}
            legend={t("fields.invoiceTitle")}
            none={t("add.noTitles")}
            options={data.titles.map((x) => ({
              value: String(x.titleId),
              label: (
                <>
                  <span className="font-medium">{x.title}</span> · {t(`titleType.${x.titleType}`)}
                  {x.taxNo ? ` · ${x.taxNo}` : ""}
                  {titleAllowsSpecialVat(x) ? "" : <span className="text-slate-500"> · {t("add.generalOnly")}</span>}
                </>
              ),
            }))}
            addTo={`/g/home/userCenter/Invoices/Titles?form=new&back=${encodeURIComponent(here)}`}
            addLabel={t("titles.add")}
          />
          <RadioGroupField
            field={fields.invoiceType}
            legend={t("fields.invoiceType")}
            options={INVOICE_TYPES.map((v) => ({ value: String(v), label: t(`invoiceType.${v}`) }))}
          />
          <p className="-mt-3 text-xs text-slate-500">{t("titles.specialHint")}</p>
          <RadioGroupField
            field={fields.issuance}
            legend={t("fields.issuance")}
            options={ISSUANCES.map((v) => ({ value: String(v), label: t(`issuance.${v}`) }))}
          />
          <div className="grid gap-4 md:grid-cols-2">
            <SavedChoice
              field={fields.addresseeId}
              legend={t("add.paperAddress")}
              none={t("add.noAddresses")}
              options={data.addresses.map((a) => ({
                value: String(a.addresseeId),
                label: `${a.name} · ${a.mobile} · ${a.location} ${a.address}`,
              }))}
              addTo={`/g/home/userCenter/Invoices/Addresses?form=new&back=${encodeURIComponent(here)}`}
              addLabel={t("addresses.add")}
            />
            <TextField field={fields.email} label={t("add.electronicEmail")} type="email" autoComplete="email" />
          </div>
          <TextAreaField field={fields.remark} label={t("fields.remark")} />
          <div className="flex gap-2">
            <SubmitButton intent="apply" className="btn-primary">
              {t("add.submit")}
            </SubmitButton>
            <Link to={invoiceStepUrl("select", data.selected)} className="btn-secondary">
              {t("add.back")}
            </Link>
          </div>
        </Form>
      </FormProvider>
    </div>
  );
}
