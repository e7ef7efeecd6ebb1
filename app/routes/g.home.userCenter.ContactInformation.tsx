import { FormProvider, getFormProps } from "@conform-to/react";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import * as z from "zod";
import { contactFormSchema, type Contact } from "#contract/profile.ts";
import { TextField } from "#app/components/forms.tsx";
import { FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { RecordTable } from "#app/components/RecordTable.tsx";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { pageParam, positiveParam } from "#app/lib/params.ts";
import { savedRecordsAction } from "#app/lib/saved-records.server.ts";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["profile"],
  breadcrumb: [{ key: "menu.userCenter" }, { key: "menu.contactInformation" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("contactInformation");

const PAGE_SIZE = 10;

/** The add/edit form: §5 Contacts (name, mobile, email, department required). */
const saveSchema = contactFormSchema.extend({ contactId: z.coerce.number().int().positive().optional() });

/**
 * SPEC §2 userCenter/ContactInformation. `?edit=<id>` puts a contact in the form; `?delete=<id>` asks to
 * confirm its deletion (a confirm step that works with and without JavaScript).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const url = new URL(request.url);
  const editId = positiveParam(url.searchParams.get("edit"));
  const deleteId = positiveParam(url.searchParams.get("delete"));
  const api = apiFor(request, viewer);
  const [list, editing, deleting] = await Promise.all([
    api.load("/sys/system/clientInfo/contactList", {
      page: { pageSize: PAGE_SIZE, pageIndex: pageParam(url), condition: {} },
    }),
    editId ? api.load("/sys/system/clientInfo/contactDetail", { contactId: editId }) : null,
    deleteId ? api.load("/sys/system/clientInfo/contactDetail", { contactId: deleteId }) : null,
  ]);
  return json({ page: list.page, editing, deleting });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const api = apiFor(request, viewer);
  return savedRecordsAction(request, {
    schema: saveSchema,
    idName: "contactId",
    listPath: "/g/home/userCenter/ContactInformation",
    flash: {
      added: "profile:contacts.added",
      updated: "profile:contacts.updated",
      deleted: "profile:contacts.deleted",
    },
    save: (value) => api.call("/sys/system/clientInfo/insertContactList", value),
    remove: (contactId) => api.call("/sys/system/clientInfo/deleteContact", { contactId }),
  });
}

function ContactForm({ editing }: { editing: Contact | null }) {
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("profile");
  const [form, fields] = useSchemaForm(
    saveSchema,
    actionData && "result" in actionData ? actionData.result : undefined,
    {
      id: editing ? `contact-${editing.contactId}` : "contact-new",
      defaultValue: editing
        ? { name: editing.name, mobile: editing.mobile, email: editing.email, department: editing.department }
        : undefined,
    },
  );
  return (
    <FormProvider context={form.context}>
      <Form method="post" {...getFormProps(form)} className="card space-y-4" aria-labelledby="contact-form-title">
        <h2 id="contact-form-title" className="text-base font-semibold">
          {t(editing ? "contacts.editTitle" : "contacts.addTitle")}
        </h2>
        <FormErrors id={form.errorId} errors={form.errors} />
        {editing ? <input type="hidden" name="contactId" value={editing.contactId} /> : null}
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField field={fields.name} label={t("contacts.name")} autoComplete="name" />
          <TextField field={fields.department} label={t("contacts.department")} autoComplete="organization" />
          <TextField field={fields.mobile} label={t("contacts.mobile")} type="tel" autoComplete="tel" />
          <TextField field={fields.email} label={t("contacts.email")} type="email" autoComplete="email" />
        </div>
        <div className="flex justify-end gap-2">
          {editing ? (
            <Link to="/g/home/userCenter/ContactInformation" className="btn-secondary">
              {t("common:actions.cancel")}
            </Link>
          ) : null}
          <SubmitButton intent="save" className="btn-primary">
            {t(editing ? "contacts.save" : "contacts.add")}
          </SubmitButton>
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
      <PageHeader title={t("contacts.title")} />
      {deleting ? (
        <section role="alertdialog" aria-labelledby="delete-title" className="card border-red-200 bg-red-50">
          <h2 id="delete-title" className="font-semibold text-red-800">
            {t("contacts.confirmDelete", { name: deleting.name })}
          </h2>
          <p className="mt-1 text-sm text-red-700">
            {deleting.email} · {deleting.mobile}
          </p>
          <Form method="post" className="mt-4 flex gap-2">
            <input type="hidden" name="contactId" value={deleting.contactId} />
            <SubmitButton intent="delete" className="btn-danger">
              {t("contacts.delete")}
            </SubmitButton>
            <Link to={keep({})} className="btn-secondary">
              {t("common:actions.cancel")}
            </Link>
          </Form>
        </section>
      ) : null}
      <RecordTable
        label={t("contacts.title")}
        page={page}
        rowKey={(c) => c.contactId}
        rowTestId="contact"
        empty={t("contacts.empty")}
        columns={[
          { header: t("contacts.name"), className: "font-medium", cell: (c) => c.name, userContent: true },
          { header: t("contacts.mobile"), cell: (c) => c.mobile },
          { header: t("contacts.email"), cell: (c) => c.email },
          { header: t("contacts.department"), cell: (c) => c.department, userContent: true },
          {
            header: <span className="sr-only">{t("contacts.actions")}</span>,
            className: "whitespace-nowrap text-right",
            cell: (c) => (
              <>
                <Link
                  to={keep({ edit: String(c.contactId) })}
                  className="link"
                  aria-label={t("contacts.editOne", { name: c.name })}
                  data-user-content=""
                >
                  {t("contacts.edit")}
                </Link>
                <Link
                  to={keep({ delete: String(c.contactId) })}
                  className="link ml-3 text-red-600"
                  aria-label={t("contacts.deleteOne", { name: c.name })}
                  data-user-content=""
                >
                  {t("contacts.delete")}
                </Link>
              </>
            ),
          },
        ]}
      />
      <ContactForm key={editing?.contactId ?? "new"} editing={editing} />
    </div>
  );
}
