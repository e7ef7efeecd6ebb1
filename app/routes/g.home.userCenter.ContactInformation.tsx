import { FormProvider, getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import * as z from "zod";
import { contactFormSchema, type Contact } from "@contract/profile";
import { FormErrors, SubmitButton, TextField } from "~/components/forms";
import { Pagination } from "~/components/Pagination";
import { apiFor, failureResponse, requireUser } from "~/lib/api.server";
import { replyWithFailure } from "~/lib/forms.server";
import { pageTitle } from "~/lib/meta";
import { redirectWithFlash } from "~/lib/session.server";

export const handle = {
  i18n: ["profile"],
  breadcrumb: [{ key: "menu.userCenter" }, { key: "menu.contactInformation" }],
};
export const meta = pageTitle("contactInformation");

const PAGE_SIZE = 10;
const positiveId = (value: string | null) => {
  const n = Number.parseInt(value ?? "", 10);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
};

/** The add/edit form: §5 Contacts (name, mobile, email, department required). */
const saveSchema = contactFormSchema.extend({ contactId: z.coerce.number().int().positive().optional() });

/**
 * SPEC §2 userCenter/ContactInformation. `?edit=<id>` puts a contact in the form; `?delete=<id>` asks to
 * confirm its deletion (a confirm step that works with and without JavaScript).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const url = new URL(request.url);
  const page = positiveId(url.searchParams.get("page")) ?? 1;
  const editId = positiveId(url.searchParams.get("edit"));
  const deleteId = positiveId(url.searchParams.get("delete"));
  const api = apiFor(request, viewer);
  const [list, editing, deleting] = await Promise.all([
    api.load("/sys/system/clientInfo/contactList", { page: { pageSize: PAGE_SIZE, pageIndex: page, condition: {} } }),
    editId ? api.load("/sys/system/clientInfo/contactDetail", { contactId: editId }) : null,
    deleteId ? api.load("/sys/system/clientInfo/contactDetail", { contactId: deleteId }) : null,
  ]);
  return json({ page: list.page, editing, deleting });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const formData = await request.formData();
  const intent = formData.get("intent");
  const api = apiFor(request, viewer);
  if (intent === "delete") {
    const contactId = positiveId(String(formData.get("contactId") ?? ""));
    if (!contactId) throw json({ messageKey: "errors:http.400" }, { status: 400 });
    const result = await api.call("/sys/system/clientInfo/deleteContact", { contactId });
    if (!result.ok) throw failureResponse(result);
    return redirectWithFlash(request, "/g/home/userCenter/ContactInformation", { kind: "success", key: "profile:contacts.deleted" });
  }
  // House habit 2: an unknown intent is a 400.
  if (intent !== "save") throw json({ messageKey: "errors:http.400" }, { status: 400 });
  const submission = parseWithZod(formData, { schema: saveSchema });
  if (submission.status !== "success") return json({ result: submission.reply() }, { status: 400 });
  const result = await api.call("/sys/system/clientInfo/insertContactList", submission.value);
  if (!result.ok) return json({ result: replyWithFailure(submission, result) }, { status: 400 });
  return redirectWithFlash(request, "/g/home/userCenter/ContactInformation", {
    kind: "success",
    key: submission.value.contactId ? "profile:contacts.updated" : "profile:contacts.added",
  });
}

function ContactForm({ editing }: { editing: Contact | null }) {
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("profile");
  const [form, fields] = useForm({
    id: editing ? `contact-${editing.contactId}` : "contact-new",
    lastResult: actionData && "result" in actionData ? actionData.result : undefined,
    defaultValue: editing ? { name: editing.name, mobile: editing.mobile, email: editing.email, department: editing.department } : undefined,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: saveSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  return (
    <FormProvider context={form.context}>
      <Form method="post" {...getFormProps(form)} className="card space-y-4" aria-labelledby="contact-form-title">
        <h2 id="contact-form-title" className="text-base font-semibold">{t(editing ? "contacts.editTitle" : "contacts.addTitle")}</h2>
        <FormErrors id={form.errorId} errors={form.errors} />
        {editing ? <input type="hidden" name="contactId" value={editing.contactId} /> : null}
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField field={fields.name} label={t("contacts.name")} autoComplete="name" />
          <TextField field={fields.department} label={t("contacts.department")} autoComplete="organization" />
          <TextField field={fields.mobile} label={t("contacts.mobile")} type="tel" autoComplete="tel" />
          <TextField field={fields.email} label={t("contacts.email")} type="email" autoComplete="email" />
        </div>
        <div className="flex justify-end gap-2">
          {editing ? <Link to="/g/home/userCenter/ContactInformation" className="btn-secondary">{t("common:actions.cancel")}</Link> : null}
          <SubmitButton intent="save" className="btn-primary">{t(editing ? "contacts.save" : "contacts.add")}</SubmitButton>
        </div>
      </Form>
    </FormProvider>
  );
}

export default function ContactInformationPage() {
  const { page, editing, deleting } = useLoaderData<typeof loader>();
  const { t } = useTranslation("profile");
  const location = useLocation();
  const keep = (params: Record<string, string>) => {
    const q = new URLSearchParams(location.search);
    q.delete("edit");
    q.delete("delete");
    for (const [k, v] of Object.entries(params)) q.set(k, v);
    return `?${q}`;
  };
  return (
    <div className="space-y-6">
      <h1 className="text-xl font-semibold">{t("contacts.title")}</h1>
      {deleting ? (
        <section role="alertdialog" aria-labelledby="delete-title" className="card border-red-200 bg-red-50">
          <h2 id="delete-title" className="font-semibold text-red-800">{t("contacts.confirmDelete", { name: deleting.name })}</h2>
          <p className="mt-1 text-sm text-red-700">{deleting.email} · {deleting.mobile}</p>
          <Form method="post" className="mt-4 flex gap-2">
            <input type="hidden" name="contactId" value={deleting.contactId} />
            <SubmitButton intent="delete" className="btn-danger">{t("contacts.delete")}</SubmitButton>
            <Link to={keep({})} className="btn-secondary">{t("common:actions.cancel")}</Link>
          </Form>
        </section>
      ) : null}
      {page.rows.length === 0 ? (
        <p className="card text-center text-slate-500">{t("contacts.empty")}</p>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
          <table className="min-w-full divide-y divide-slate-200 text-sm">
            <thead className="bg-slate-50 text-left text-xs font-semibold uppercase text-slate-500">
              <tr>
                <th scope="col" className="px-4 py-2">{t("contacts.name")}</th>
                <th scope="col" className="px-4 py-2">{t("contacts.mobile")}</th>
                <th scope="col" className="px-4 py-2">{t("contacts.email")}</th>
                <th scope="col" className="px-4 py-2">{t("contacts.department")}</th>
                <th scope="col" className="px-4 py-2"><span className="sr-only">{t("contacts.actions")}</span></th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {page.rows.map((c) => (
                <tr key={c.contactId} data-testid="contact">
                  <td className="px-4 py-2 font-medium">{c.name}</td>
                  <td className="px-4 py-2">{c.mobile}</td>
                  <td className="px-4 py-2">{c.email}</td>
                  <td className="px-4 py-2">{c.department}</td>
                  <td className="whitespace-nowrap px-4 py-2 text-right">
                    <Link to={keep({ edit: String(c.contactId) })} className="link" aria-label={t("contacts.editOne", { name: c.name })}>{t("contacts.edit")}</Link>
                    <Link to={keep({ delete: String(c.contactId) })} className="link ml-3 text-red-600" aria-label={t("contacts.deleteOne", { name: c.name })}>{t("contacts.delete")}</Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pagination pageIndex={page.pageIndex} pageSize={page.pageSize} total={page.total} />
      <ContactForm key={editing?.contactId ?? "new"} editing={editing} />
    </div>
  );
}
