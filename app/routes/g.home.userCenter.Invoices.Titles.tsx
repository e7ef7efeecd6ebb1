import { FormProvider, getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { invoiceTitleSchema, TITLE_TYPES, type InvoiceTitle } from "@contract/invoices";
import { CheckboxField, FormErrors, SubmitButton, TextField } from "~/components/forms";
import { Pagination } from "~/components/Pagination";
import { apiFor, failureResponse, requireUser } from "~/lib/api.server";
import { replyWithFailure } from "~/lib/forms.server";
import { pageTitle } from "~/lib/meta";
import { redirectWithFlash } from "~/lib/session.server";
import { badIntent, optionalId } from "./g.home.userCenter.Invoices/invoices.server";
import { ConfirmDelete, RadioGroupField } from "./g.home.userCenter.Invoices/ui";

export const handle = { i18n: ["invoices"], breadcrumb: [{ key: "invoices:titles.crumb" }] };
export const meta = pageTitle("invoiceTitles");

const PAGE_SIZE = 10;
const BASE = "/g/home/userCenter/Invoices/Titles";
/** After adding a title from the application wizard, the user goes back there. */
function safeBack(value: unknown): string | null {
  return typeof value === "string" && value.startsWith("/g/home/userCenter/Invoices/Add") && !value.includes("//") ? value : null;
}

/** SPEC §3 Invoice title: list, add, edit, delete (with confirmation). */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const url = new URL(request.url);
  const page = Math.max(1, Number.parseInt(url.searchParams.get("page") ?? "1", 10) || 1);
  const api = apiFor(request, viewer);
  const list = await api.load("/sys/invoicetitles/h5queryInvoiceTitleList", { page: { pageSize: PAGE_SIZE, pageIndex: page, condition: {} } });
  const editId = optionalId(url, "edit");
  let editing: InvoiceTitle | null = null;
  if (editId !== null) {
    const all = await api.load("/sys/invoicetitles/h5queryInvoiceTitleList", { page: { pageSize: 100, pageIndex: 1, condition: {} } });
    editing = all.page.rows.find((r) => r.titleId === editId) ?? null;
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
    const submission = parseWithZod(formData, { schema: invoiceTitleSchema });
    if (submission.status !== "success") return json({ result: submission.reply() }, { status: 400 });
    const { titleId, ...rest } = submission.value;
    const result = titleId
      ? await api.call("/sys/invoicetitles/h5updateInvoiceTitle", { ...rest, titleId })
      : await api.call("/sys/invoicetitles/h5insertInvoiceTitle", rest);
    if (!result.ok) return json({ result: replyWithFailure(submission, result) }, { status: 400 });
    const back = safeBack(formData.get("back"));
    return redirectWithFlash(request, back ?? BASE, { kind: "success", key: titleId ? "invoices:titles.updated" : "invoices:titles.added" });
  }
  if (intent === "delete") {
    const titleId = Number(formData.get("titleId"));
    if (!Number.isSafeInteger(titleId) || titleId <= 0) throw badIntent();
    const result = await api.call("/sys/invoicetitles/h5deleteInvoiceTitle", { titleId });
    if (!result.ok) throw failureResponse(result);
    return redirectWithFlash(request, BASE, { kind: "success", key: "invoices:titles.deleted" });
  }
  throw badIntent();
}

function TitleForm({ editing, back }: { editing: InvoiceTitle | null; back: string | null }) {
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("invoices");
  const location = useLocation();
  const [form, fields] = useForm({
    id: editing ? `title-${editing.titleId}` : "title-new",
    lastResult: actionData?.result,
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
    onValidate: ({ formData }) => parseWithZod(formData, { schema: invoiceTitleSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  return (
    <section className="card" aria-labelledby="title-form-heading">
      <h2 id="title-form-heading" className="font-semibold">{t(editing ? "titles.edit" : "titles.add")}</h2>
      <FormProvider context={form.context}>
        <Form method="post" action={location.pathname + location.search} {...getFormProps(form)} className="mt-4 grid gap-4 md:grid-cols-2">
          <div className="md:col-span-2"><FormErrors id={form.errorId} errors={form.errors} /></div>
          {editing ? <input type="hidden" name="titleId" value={editing.titleId} /> : null}
          {back ? <input type="hidden" name="back" value={back} /> : null}
          <div className="md:col-span-2">
            <RadioGroupField field={fields.titleType} legend={t("fields.titleType")} options={TITLE_TYPES.map((v) => ({ value: String(v), label: t(`titleType.${v}`) }))} />
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
          <div className="flex gap-2 md:col-span-2">
            <SubmitButton intent="save" className="btn-primary">{t("actions.save")}</SubmitButton>
            <Link to={back ?? BASE} className="btn-secondary">{t("common:actions.cancel")}</Link>
          </div>
        </Form>
      </FormProvider>
    </section>
  );
}

export default function InvoiceTitles() {
  const { page, editing, adding, deleting, back } = useLoaderData<typeof loader>();
  const { t } = useTranslation("invoices");
  const showForm = adding || editing !== null;
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-xl font-semibold">{t("titles.heading")}</h1>
        <div className="flex gap-2">
          <Link to="/g/home/userCenter/Invoices" className="btn-secondary">{t("actions.backToList")}</Link>
          {!showForm ? <Link to="?form=new" className="btn-primary">{t("titles.add")}</Link> : null}
        </div>
      </div>
      {showForm ? <TitleForm key={editing?.titleId ?? "new"} editing={editing} back={back} /> : null}
      {page.rows.length === 0 ? (
        <p className="card text-center text-slate-500" data-testid="empty">{t("titles.empty")}</p>
      ) : (
        <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white">
          {page.rows.map((r) => (
            <li key={r.titleId} className="p-4" data-testid="title-row">
              <div className="flex flex-wrap items-start justify-between gap-3">
                <div>
                  <p className="font-semibold text-slate-900">
                    {r.title}
                    {r.isDefault ? <span className="ml-2 rounded-full bg-brand-50 px-2 py-0.5 text-xs text-brand-700">{t("fields.default")}</span> : null}
                  </p>
                  <p className="mt-1 text-sm text-slate-600">
                    {t(`titleType.${r.titleType}`)}
                    {r.taxNo ? ` · ${t("fields.taxNo")}: ${r.taxNo}` : ""}
                  </p>
                  {r.bank || r.bankAccount ? <p className="text-sm text-slate-600">{[r.bank, r.bankAccount].filter(Boolean).join(" · ")}</p> : null}
                  {r.registeredAddress || r.registeredPhone ? <p className="text-sm text-slate-600">{[r.registeredAddress, r.registeredPhone].filter(Boolean).join(" · ")}</p> : null}
                </div>
                <div className="flex items-center gap-3">
                  <Link to={`?edit=${r.titleId}`} className="link text-sm">{t("actions.edit")}</Link>
                  <ConfirmDelete
                    id={r.titleId}
                    idName="titleId"
                    label={t("actions.delete")}
                    question={t("titles.deleteQuestion", { title: r.title })}
                    confirmHref={`?page=${page.pageIndex}&delete=${r.titleId}`}
                    closeHref={`?page=${page.pageIndex}`}
                    open={deleting === r.titleId}
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
