import { FormProvider, getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { addresseeSchema, type Addressee } from "@contract/invoices";
import { CheckboxField, FormErrors, SubmitButton, TextField } from "~/components/forms";
import { Pagination } from "~/components/Pagination";
import { apiFor, failureResponse, requireUser } from "~/lib/api.server";
import { replyWithFailure } from "~/lib/forms.server";
import { pageTitle } from "~/lib/meta";
import { redirectWithFlash } from "~/lib/session.server";
import { badIntent, optionalId } from "./g.home.userCenter.Invoices/invoices.server";
import { ConfirmDelete } from "./g.home.userCenter.Invoices/ui";

export const handle = { i18n: ["invoices"], breadcrumb: [{ key: "invoices:addresses.crumb" }] };
export const meta = pageTitle("invoiceAddresses");

const PAGE_SIZE = 10;
const BASE = "/g/home/userCenter/Invoices/Addresses";
function safeBack(value: unknown): string | null {
  return typeof value === "string" && value.startsWith("/g/home/userCenter/Invoices/Add") && !value.includes("//") ? value : null;
}

/** SPEC §2 receiving addresses, §3 Receiver address: list, add, edit, delete (with confirmation). */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const url = new URL(request.url);
  const page = Math.max(1, Number.parseInt(url.searchParams.get("page") ?? "1", 10) || 1);
  const api = apiFor(request, viewer);
  const list = await api.load("/sys/system/clientInfo/queryClientAddresseeList", { page: { pageSize: PAGE_SIZE, pageIndex: page, condition: {} } });
  const editId = optionalId(url, "edit");
  let editing: Addressee | null = null;
  if (editId !== null) {
    const all = await api.load("/sys/system/clientInfo/queryClientAddresseeList", { page: { pageSize: 100, pageIndex: 1, condition: {} } });
    editing = all.page.rows.find((r) => r.addresseeId === editId) ?? null;
    if (!editing) throw json({ messageKey: "errors:http.404" }, { status: 404 });
  }
  return json({
    page: list.page,
    editing,
    adding: url.searchParams.get("form") === "new",
    deleting: optionalId(url, "delete"),
    back: safeBack(url.searchParams.get("back")),
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const formData = await request.formData();
  const intent = formData.get("intent");
  const api = apiFor(request, viewer);
  if (intent === "save") {
    const submission = parseWithZod(formData, { schema: addresseeSchema });
    if (submission.status !== "success") return json({ result: submission.reply() }, { status: 400 });
    const result = await api.call("/sys/system/clientInfo/addOrUpdateClientAddressee", submission.value);
    if (!result.ok) return json({ result: replyWithFailure(submission, result) }, { status: 400 });
    const back = safeBack(formData.get("back"));
    return redirectWithFlash(request, back ?? BASE, { kind: "success", key: submission.value.addresseeId ? "invoices:addresses.updated" : "invoices:addresses.added" });
  }
  if (intent === "delete") {
    const addresseeId = Number(formData.get("addresseeId"));
    if (!Number.isSafeInteger(addresseeId) || addresseeId <= 0) throw badIntent();
    const result = await api.call("/sys/system/clientInfo/deleteClientAddressee", { addresseeId });
    if (!result.ok) throw failureResponse(result);
    return redirectWithFlash(request, BASE, { kind: "success", key: "invoices:addresses.deleted" });
  }
  throw badIntent();
}

function AddressForm({ editing, back }: { editing: Addressee | null; back: string | null }) {
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("invoices");
  const location = useLocation();
  const [form, fields] = useForm({
    id: editing ? `address-${editing.addresseeId}` : "address-new",
    lastResult: actionData?.result,
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
    onValidate: ({ formData }) => parseWithZod(formData, { schema: addresseeSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  return (
    <section className="card" aria-labelledby="address-form-heading">
      <h2 id="address-form-heading" className="font-semibold">{t(editing ? "addresses.edit" : "addresses.add")}</h2>
      <FormProvider context={form.context}>
        <Form method="post" action={location.pathname + location.search} {...getFormProps(form)} className="mt-4 grid gap-4 md:grid-cols-2">
          <div className="md:col-span-2"><FormErrors id={form.errorId} errors={form.errors} /></div>
          {editing ? <input type="hidden" name="addresseeId" value={editing.addresseeId} /> : null}
          {back ? <input type="hidden" name="back" value={back} /> : null}
          <TextField field={fields.name} label={t("fields.name")} autoComplete="name" />
          <TextField field={fields.mobile} label={t("fields.mobile")} type="tel" autoComplete="tel" />
          <TextField field={fields.location} label={t("fields.location")} hint={t("addresses.locationHint")} />
          <TextField field={fields.address} label={t("fields.address")} autoComplete="street-address" />
          <TextField field={fields.postalCode} label={t("fields.postalCode")} autoComplete="postal-code" />
          <TextField field={fields.email} label={t("fields.email")} type="email" autoComplete="email" />
          <div className="md:col-span-2">
            <CheckboxField field={fields.isDefault}>{t("fields.makeDefault")}</CheckboxField>
          </div>
          <div className="flex gap-2 md:col-span-2">
            <SubmitButton intent="save" className="btn-primary">{t("actions.save")}</SubmitButton>
            <Link to={back ?? BASE} className="btn-secondary">{t("common:actions.cancel")}</Link>
          </div>
        </Form>
      </FormProvider>
    </section>
  );
}

export default function InvoiceAddresses() {
  const { page, editing, adding, deleting, back } = useLoaderData<typeof loader>();
  const { t } = useTranslation("invoices");
  const showForm = adding || editing !== null;
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-xl font-semibold">{t("addresses.heading")}</h1>
        <div className="flex gap-2">
          <Link to="/g/home/userCenter/Invoices" className="btn-secondary">{t("actions.backToList")}</Link>
          {!showForm ? <Link to="?form=new" className="btn-primary">{t("addresses.add")}</Link> : null}
        </div>
      </div>
      {showForm ? <AddressForm key={editing?.addresseeId ?? "new"} editing={editing} back={back} /> : null}
      {page.rows.length === 0 ? (
        <p className="card text-center text-slate-500" data-testid="empty">{t("addresses.empty")}</p>
      ) : (
        <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white">
          {page.rows.map((r) => (
            <li key={r.addresseeId} className="p-4" data-testid="address-row">
              <div className="flex flex-wrap items-start justify-between gap-3">
                <div>
                  <p className="font-semibold text-slate-900">
                    {r.name} · {r.mobile}
                    {r.isDefault ? <span className="ml-2 rounded-full bg-brand-50 px-2 py-0.5 text-xs text-brand-700">{t("fields.default")}</span> : null}
                  </p>
                  <p className="mt-1 text-sm text-slate-600">{r.location} · {r.address}{r.postalCode ? ` · ${r.postalCode}` : ""}</p>
                  {r.email ? <p className="text-sm text-slate-600">{r.email}</p> : null}
                </div>
                <div className="flex items-center gap-3">
                  <Link to={`?edit=${r.addresseeId}`} className="link text-sm">{t("actions.edit")}</Link>
                  <ConfirmDelete
                    id={r.addresseeId}
                    idName="addresseeId"
                    label={t("actions.delete")}
                    question={t("addresses.deleteQuestion", { name: r.name })}
                    confirmHref={`?page=${page.pageIndex}&delete=${r.addresseeId}`}
                    closeHref={`?page=${page.pageIndex}`}
                    open={deleting === r.addresseeId}
                    action={BASE}
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
