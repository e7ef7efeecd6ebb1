import { FormProvider, getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import {
  SUPPORT_FILE_EXTENSIONS,
  supportFileProblem,
  TICKET_STATUSES,
  TICKET_TEXT_MAX,
  ticketFormSchema,
} from "#contract/support.ts";
import { FilterPills } from "#app/components/FilterPills.tsx";
import { FileField, TextAreaField, TextField } from "#app/components/forms.tsx";
import { FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { Pagination } from "#app/components/Pagination.tsx";
import { SupportNotice } from "#app/components/support/SupportNotice.tsx";
import { TicketStatusBadge } from "#app/components/support/ticket.tsx";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { formatDate } from "#app/lib/format.ts";
import { formFailureStatus, replyWithFailure, replyWithFieldErrors } from "#app/lib/forms.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { pagingOf } from "#app/lib/paging.ts";
import { oneOf } from "#app/lib/params.ts";
import { redirectWithFlash } from "#app/lib/session.server.ts";
import { noticeNow } from "#app/lib/support.server.ts";
import { parseFormWithUploads, uploadError, uploadRef } from "#app/lib/uploads.server.ts";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { EmptyState } from "#app/components/EmptyState.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["support"],
  breadcrumb: [{ key: "menu.developerCommunity" }, { key: "menu.technicalSupport" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("technicalSupport");

/**
 * My tickets (issue 15; SPEC §2 DeveloperCommunity/TechnicalSupport; docs/decisions/041): the list with a status
 * filter and pages, the support-hours notice, and a new ticket (SPEC §5: question ≤ 500, contact email or mobile,
 * an attachment ≤ 60 MB streamed to the backend while the form is read and checked there by its content).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const url = new URL(request.url);
  const status = oneOf(TICKET_STATUSES, url.searchParams.get("status"));
  const data = await apiFor(request, viewer).load("/sys/technicalSupport/list", { ...pagingOf(url), status });
  return json({ ...data, status: status ?? null, notice: noticeNow(), language: viewer.language });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const api = apiFor(request, viewer);
  const { formData, uploads } = await parseFormWithUploads(request, api, {
    file: { kind: "support", problem: supportFileProblem, tooLarge: "support:validation.file.tooLarge" },
  });
  const submission = parseWithZod(formData, { schema: ticketFormSchema });
  const fileError = uploadError(uploads.file, null);
  if (submission.status !== "success" || fileError) {
    return json({ result: replyWithFieldErrors(submission, fileError ? { file: [fileError] } : {}) }, { status: 400 });
  }
  const result = await api.call("/sys/technicalSupport/insertTech", {
    ...submission.value,
    file: uploadRef(uploads.file),
  });
  if (!result.ok) return json({ result: replyWithFailure(submission, result) }, { status: formFailureStatus(result) });
  return redirectWithFlash(
    request,
    `/g/home/DeveloperCommunity/TechnicalSupportDetail?ticketId=${result.data.ticketId}`,
    { kind: "success", key: "support:form.created" },
  );
}

export default function TechnicalSupport() {
  const { page, status, notice, language } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("support");
  const [form, fields] = useSchemaForm(ticketFormSchema, actionData?.result, { id: "new-ticket" });
  const filters = [
    { key: "all", to: "?", label: t("list.all"), current: status === null },
    ...TICKET_STATUSES.map((s) => ({ key: s, to: `?status=${s}`, label: t(`status.${s}`), current: status === s })),
  ];
  return (
    <div className="space-y-6">
      <div>
        <PageHeader title={t("list.title")} />
        <p className="text-sm text-slate-600">{t("list.intro")}</p>
      </div>
      <SupportNotice notice={notice} language={language} />
      <section aria-labelledby="my-tickets" className="space-y-3">
        <h2 id="my-tickets" className="text-lg font-semibold">
          {t("list.mine")}
        </h2>
        <FilterPills label={t("list.filter")} links={filters} />
        {page.rows.length === 0 ? (
          <EmptyState message={status === null ? t("list.empty") : t("list.emptyFiltered")} />
        ) : (
          <ul className="space-y-2">
            {page.rows.map((r) => (
              <li
                key={r.ticketId}
                className="card flex flex-wrap items-center justify-between gap-3 p-4"
                data-testid="my-ticket"
              >
                <div className="min-w-0 flex-1">
                  <Link
                    to={`/g/home/DeveloperCommunity/TechnicalSupportDetail?ticketId=${r.ticketId}`}
                    className="link font-semibold"
                  >
                    {t("detail.title", { id: r.ticketId })}
                  </Link>
                  <p className="truncate text-sm text-slate-700">{r.question}</p>
                  <p className="text-xs text-slate-600">
                    {t("list.updated")}: {formatDate(r.updatedAt, language, true)} ·{" "}
                    {t("list.messages", { count: r.messages })}
                  </p>
                </div>
                <TicketStatusBadge status={r.status} />
              </li>
            ))}
          </ul>
        )}
        <Pagination pageIndex={page.pageIndex} pageSize={page.pageSize} total={page.total} />
      </section>
      <section aria-labelledby="new-ticket-title" className="card">
        <h2 id="new-ticket-title" className="text-lg font-semibold">
          {t("form.title")}
        </h2>
        <FormProvider context={form.context}>
          <Form
            method="post"
            encType="multipart/form-data"
            {...getFormProps(form)}
            className="mt-4 grid gap-4 md:grid-cols-2"
          >
            <div className="md:col-span-2">
              <FormErrors id={form.errorId} errors={form.errors} />
            </div>
            <TextAreaField
              field={fields.question}
              label={t("form.question")}
              hint={t("form.questionHint", { max: TICKET_TEXT_MAX })}
              rows={5}
              className="md:col-span-2"
            />
            <TextField
              field={fields.contactEmail}
              label={t("form.contactEmail")}
              type="email"
              autoComplete="email"
              hint={t("form.contactHint")}
            />
            <TextField field={fields.contactMobile} label={t("form.contactMobile")} type="tel" autoComplete="tel" />
            <div className="md:col-span-2">
              <FileField
                name="file"
                label={t("form.file")}
                hint={t("form.fileHint")}
                accept={SUPPORT_FILE_EXTENSIONS.join(",")}
                errors={(fields as Record<string, { errors?: string[] }>).file?.errors}
              />
            </div>
            <div className="md:col-span-2">
              <SubmitButton className="btn-primary">{t("form.submit")}</SubmitButton>
            </div>
          </Form>
        </FormProvider>
      </section>
    </div>
  );
}
