import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { invoiceTitleSchema, TITLE_TYPES, type InvoiceTitle } from "#contract/invoices.ts";
import { CheckboxField, RadioGroupField, TextField } from "#app/components/forms.tsx";
import { DefaultMark, SavedRecordForm, SavedRecordsPage } from "#app/components/invoices/saved-records.tsx";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { backToApplication, loadSavedList } from "#app/lib/invoices.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { savedRecordsAction } from "#app/lib/saved-records.server.ts";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = { i18n: ["invoices"], breadcrumb: [{ key: "invoices:titles.crumb" }] };
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("invoiceTitles");

const PAGE_SIZE = 10;
const BASE = "/g/home/userCenter/Invoices/Titles";

/** SPEC §3 Invoice title: list, add, edit, delete (with confirmation). */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const api = apiFor(request, viewer);
  const list = (page: { pageSize: number; pageIndex: number; condition: Record<string, never> }) =>
    api.load("/sys/invoicetitles/h5queryInvoiceTitleList", { page });
  return json(await loadSavedList(new URL(request.url), PAGE_SIZE, list, (r) => r.titleId));
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const api = apiFor(request, viewer);
  return savedRecordsAction(request, {
    schema: invoiceTitleSchema,
    idName: "titleId",
    listPath: BASE,
    // After adding a title from the application wizard, the user goes back there.
    back: backToApplication,
    flash: { added: "invoices:titles.added", updated: "invoices:titles.updated", deleted: "invoices:titles.deleted" },
    save: ({ titleId, ...rest }) =>
      titleId
        ? api.call("/sys/invoicetitles/h5updateInvoiceTitle", { ...rest, titleId })
        : api.call("/sys/invoicetitles/h5insertInvoiceTitle", rest),
    remove: (titleId) => api.call("/sys/invoicetitles/h5deleteInvoiceTitle", { titleId }),
  });
}

function TitleForm({ editing, back }: { editing: InvoiceTitle | null; back: string | null }) {
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("invoices");
  const [form, fields] = useSchemaForm(invoiceTitleSchema, actionData?.result, {
    id: editing ? `title-${editing.titleId}` : "title-new",
    defaultValue: editing
      ? {
          titleType: String(editing.titleType),
          title: editing.title,
          taxNo: editing.taxNo ?? "",
          bank: editing.bank ?? "",
          bankAccount: editing.bankAccount ?? "",
          registeredAddress: editing.registeredAddress ?? "",
          registeredPhone: editing.registeredPhone ?? "",
          isDefault: editing.isDefault ? "on" : undefined,
          titleId: String(editing.titleId),
        }
      : { titleType: "2" },
  });
  return (
    <SavedRecordForm
      form={form}
      name="title"
      heading={t(editing ? "titles.edit" : "titles.add")}
      idName="titleId"
      id={editing?.titleId}
      back={back}
      cancelTo={BASE}
    >
      <div className="md:col-span-2">
        <RadioGroupField
          field={fields.titleType}
          legend={t("fields.titleType")}
          options={TITLE_TYPES.map((v) => ({ value: String(v), label: t(`titleType.${v}`) }))}
        />
      </div>
      <TextField field={fields.title} label={t("fields.title")} hint={t("titles.titleHint")} />
      <TextField field={fields.taxNo} label={t("fields.taxNo")} hint={t("titles.taxNoHint")} />
      <TextField field={fields.bank} label={t("fields.bank")} />
      <TextField field={fields.bankAccount} label={t("fields.bankAccount")} />
      <TextField field={fields.registeredAddress} label={t("fields.registeredAddress")} />
      <TextField field={fields.registeredPhone} label={t("fields.registeredPhone")} type="tel" />
      <div className="md:col-span-2">
        <CheckboxField field={fields.isDefault}>{t("fields.makeDefault")}</CheckboxField>
        <p className="mt-1 text-xs text-slate-500">{t("titles.specialHint")}</p>
      </div>
    </SavedRecordForm>
  );
}

export default function InvoiceTitles() {
  const { page, editing, adding, deleting, back } = useLoaderData<typeof loader>();
  const { t } = useTranslation("invoices");
  return (
    <SavedRecordsPage
      heading={t("titles.heading")}
      addLabel={t("titles.add")}
      page={page}
      empty={t("titles.empty")}
      form={adding || editing ? <TitleForm key={editing?.titleId ?? "new"} editing={editing} back={back} /> : null}
      rowTestId="title-row"
      idOf={(r) => r.titleId}
      idName="titleId"
      deleting={deleting}
      action={BASE}
      deleteQuestion={(r) => t("titles.deleteQuestion", { title: r.title })}
    >
      {(r) => (
        <>
          <p className="font-semibold text-slate-900">
            {r.title}
            {r.isDefault ? <DefaultMark /> : null}
          </p>
          <p className="mt-1 text-sm text-slate-600">
            {t(`titleType.${r.titleType}`)}
            {r.taxNo ? ` · ${t("fields.taxNo")}: ${r.taxNo}` : ""}
          </p>
          {r.bank || r.bankAccount ? (
            <p className="text-sm text-slate-600">{[r.bank, r.bankAccount].filter(Boolean).join(" · ")}</p>
          ) : null}
          {r.registeredAddress || r.registeredPhone ? (
            <p className="text-sm text-slate-600">
              {[r.registeredAddress, r.registeredPhone].filter(Boolean).join(" · ")}
            </p>
          ) : null}
        </>
      )}
    </SavedRecordsPage>
  );
}
