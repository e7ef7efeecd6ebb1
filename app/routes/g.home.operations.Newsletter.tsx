import { FormProvider, getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { newsletterFormSchema } from "#contract/support.ts";
import { IssueStatus } from "#contract/support-codes.ts";
import { Badge } from "#app/components/Badge.tsx";
import { TextAreaField, TextField } from "#app/components/forms.tsx";
import { FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { Pagination } from "#app/components/Pagination.tsx";
import { apiFor, requireOperator } from "#app/lib/api.server.ts";
import { formatDate, zoneHeader } from "#app/lib/format.ts";
import { formFailureStatus, replyWithFailure } from "#app/lib/forms.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { pagingOf } from "#app/lib/paging.ts";
import { redirectWithFlash } from "#app/lib/session.server.ts";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";
import { EmptyState } from "#app/components/EmptyState.tsx";
import { Table } from "#app/components/Table.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["support"],
  breadcrumb: [{ key: "menu.operations", to: "/g/home/operations" }, { key: "titles.newsletter" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("newsletter");

/**
 * Operations: the newsletter (docs/decisions/041). Subscribers confirmed and pending; a new issue with subject and
 * Markdown body in both languages goes to every confirmed subscriber in their language, by a background job.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireOperator(request);
  const data = await apiFor(request, viewer).load("/sys/ops/newsletter/list", pagingOf(new URL(request.url)));
  return json({ ...data, language: viewer.language });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireOperator(request);
  const submission = parseWithZod(await request.formData(), { schema: newsletterFormSchema });
  if (submission.status !== "success") return json({ result: submission.reply() }, { status: 400 });
  const result = await apiFor(request, viewer).call("/sys/ops/newsletter/send", submission.value);
  if (!result.ok) return json({ result: replyWithFailure(submission, result) }, { status: formFailureStatus(result) });
  return redirectWithFlash(request, "/g/home/operations/Newsletter", {
    kind: "success",
    key: "support:ops.newsletterQueued",
    params: { count: String(result.data.recipients) },
  });
}

export default function NewsletterOps() {
  const { page, confirmed, pending, language } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("support");
  const [form, fields] = useSchemaForm(newsletterFormSchema, actionData?.result, { id: "newsletter-issue" });
  return (
    <div className="space-y-4">
      <h2 className="text-lg font-semibold">{t("ops.newsletterTitle")}</h2>
      <p className="text-sm text-slate-600" data-testid="subscriber-counts">
        {t("ops.subscribers", { confirmed, pending })}
      </p>
      <FormProvider context={form.context}>
        <Form method="post" {...getFormProps(form)} className="card grid gap-4 md:grid-cols-2">
          <div className="md:col-span-2">
            <FormErrors id={form.errorId} errors={form.errors} />
          </div>
          <TextField field={fields.subjectEn} label={t("ops.subjectEn")} />
          <TextField field={fields.subjectZh} label={t("ops.subjectZh")} />
          <TextAreaField field={fields.bodyEn} label={t("ops.bodyEn")} hint={t("ops.markdownHint")} rows={8} />
          <TextAreaField field={fields.bodyZh} label={t("ops.bodyZh")} hint={t("ops.markdownHint")} rows={8} />
          <div className="md:col-span-2">
            <SubmitButton className="btn-primary">{t("ops.send")}</SubmitButton>
          </div>
        </Form>
      </FormProvider>
      <h3 className="font-semibold">{t("ops.issues")}</h3>
      {page.rows.length === 0 ? (
        <EmptyState message={t("ops.noIssues")} />
      ) : (
        <Table
          label={t("ops.issues")}
          head={[t("ops.subject"), t("ops.progress"), zoneHeader(t, t("ops.created")), t("ops.state")]}
        >
          {page.rows.map((i) => (
            <tr key={i.issueId} className="border-t border-slate-200" data-testid="newsletter-issue">
              <td className="py-2">{language === "zh-CN" ? i.subjectZh : i.subjectEn}</td>
              <td>
                {i.sent} / {i.recipients}
              </td>
              <td>{formatDate(i.createdAt, language, true, false)}</td>
              <td>
                <Badge tone={i.status === IssueStatus.SENT ? "ok" : "wait"}>{t(`ops.issueStatus.${i.status}`)}</Badge>
              </td>
            </tr>
          ))}
        </Table>
      )}
      <Pagination pageIndex={page.pageIndex} pageSize={page.pageSize} total={page.total} />
    </div>
  );
}
