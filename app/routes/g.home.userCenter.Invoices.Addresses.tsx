import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { addresseeSchema, type Addressee } from "#contract/invoices.ts";
import { CheckboxField, TextField } from "#app/components/forms.tsx";
import { DefaultMark, SavedRecordForm, SavedRecordsPage } from "#app/components/invoices/saved-records.tsx";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { backToApplication, loadSavedList } from "#app/lib/invoices.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { savedRecordsAction } from "#app/lib/saved-records.server.ts";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = { i18n: ["invoices"], breadcrumb: [{ key: "invoices:addresses.crumb" }] };
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("invoiceAddresses");

const PAGE_SIZE = 10;
const BASE = "/g/home/userCenter/Invoices/Addresses";

/** SPEC §2 receiving addresses, §3 Receiver address: list, add, edit, delete (with confirmation). */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const api = apiFor(request, viewer);
  const list = (page: { pageSize: number; pageIndex: number; condition: Record<string, never> }) =>
    api.load("/sys/system/clientInfo/queryClientAddresseeList", { page });
  return json(await loadSavedList(new URL(request.url), PAGE_SIZE, list, (r) => r.addresseeId));
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const api = apiFor(request, viewer);
  return savedRecordsAction(request, {
    schema: addresseeSchema,
    idName: "addresseeId",
    listPath: BASE,
    back: backToApplication,
    flash: {
      added: "invoices:addresses.added",
      updated: "invoices:addresses.updated",
      deleted: "invoices:addresses.deleted",
    },
    save: (value) => api.call("/sys/system/clientInfo/addOrUpdateClientAddressee", value),
    remove: (addresseeId) => api.call("/sys/system/clientInfo/deleteClientAddressee", { addresseeId }),
  });
}

function AddressForm({ editing, back }: { editing: Addressee | null; back: string | null }) {
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("invoices");
  const [form, fields] = useSchemaForm(addresseeSchema, actionData?.result, {
    id: editing ? `address-${editing.addresseeId}` : "address-new",
    defaultValue: editing
      ? {
          addresseeId: String(editing.addresseeId),
          name: editing.name,
          mobile: editing.mobile,
          location: editing.location,
          address: editing.address,
          postalCode: editing.postalCode ?? "",
          email: editing.email ?? "",
          isDefault: editing.isDefault ? "on" : undefined,
        }
      : undefined,
  });
  return (
    <SavedRecordForm
      form={form}
      name="address"
      heading={t(editing ? "addresses.edit" : "addresses.add")}
      idName="addresseeId"
      id={editing?.addresseeId}
      back={back}
      cancelTo={BASE}
    >
      <TextField field={fields.name} label={t("fields.name")} autoComplete="name" />
      <TextField field={fields.mobile} label={t("fields.mobile")} type="tel" autoComplete="tel" />
      <TextField field={fields.location} label={t("fields.location")} hint={t("addresses.locationHint")} />
      <TextField field={fields.address} label={t("fields.address")} autoComplete="street-address" />
      <TextField field={fields.postalCode} label={t("fields.postalCode")} autoComplete="postal-code" />
      <TextField field={fields.email} label={t("fields.email")} type="email" autoComplete="email" />
      <div className="md:col-span-2">
        <CheckboxField field={fields.isDefault}>{t("fields.makeDefault")}</CheckboxField>
      </div>
    </SavedRecordForm>
  );
}

export default function InvoiceAddresses() {
  const { page, editing, adding, deleting, back } = useLoaderData<typeof loader>();
  const { t } = useTranslation("invoices");
  return (
    <SavedRecordsPage
      heading={t("addresses.heading")}
      addLabel={t("addresses.add")}
      page={page}
      empty={t("addresses.empty")}
      form={
        adding || editing ? <AddressForm key={editing?.addresseeId ?? "new"} editing={editing} back={back} /> : null
      }
      rowTestId="address-row"
      idOf={(r) => r.addresseeId}
      idName="addresseeId"
      deleting={deleting}
      action={BASE}
      deleteQuestion={(r) => t("addresses.deleteQuestion", { name: r.name })}
    >
      {(r) => (
        <>
          <p className="font-semibold text-slate-900">
            {r.name} · {r.mobile}
            {r.isDefault ? <DefaultMark /> : null}
          </p>
          <p className="mt-1 text-sm text-slate-600">
            {r.location} · {r.address}
            {r.postalCode ? ` · ${r.postalCode}` : ""}
          </p>
          {r.email ? <p className="text-sm text-slate-600">{r.email}</p> : null}
        </>
      )}
    </SavedRecordsPage>
  );
}
