import { FormProvider } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import * as z from "zod";
import { ideRenameFormSchema, ideWorkspaceFormSchema } from "#contract/ide.ts";
import { ConfirmSubmit } from "#app/components/ConfirmSubmit.tsx";
import { IntentConfirmStep } from "#app/components/IntentConfirmStep.tsx";
import { Pagination } from "#app/components/Pagination.tsx";
import { Table, td } from "#app/components/Table.tsx";
import { RadioGroupField, TextField } from "#app/components/forms.tsx";
import { FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { portalHref } from "#app/lib/ide-urls.ts";
import { apiFor, redirectAfter, requireUser } from "#app/lib/api.server.ts";
import { formFailureStatus, replyWithFailure } from "#app/lib/forms.server.ts";
import { formatDate, zoneHeader } from "#app/lib/format.ts";
import { intentOf, parseFormOr400 } from "#app/lib/intents.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { pagingOf } from "#app/lib/paging.ts";
import { positiveParam } from "#app/lib/params.ts";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { EmptyState } from "#app/components/EmptyState.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = { i18n: ["ide"], breadcrumb: [{ key: "menu.ide" }] };
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("ideServices");

const INTENTS = ["create", "rename", "delete"] as const;
const deleteForm = z.object({
  workspaceId: z.coerce.number().int().positive(),
  confirmed: z.literal("yes").optional(),
});

/**
 * SPEC §2 IDEServices: the user's IDE workspaces (open, rename, delete after confirming) and a new workspace
 * from a template (the Solidity samples; the chaincode market's Solidity entries once merged).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const url = new URL(request.url);
  const api = apiFor(request, viewer);
  const [list, templates] = await Promise.all([
    api.load("/sys/ide/workspace/list", pagingOf(url)),
    api.load("/sys/ide/template/list", {}),
  ]);
  // Without JavaScript, deleting asks on a confirm step (?confirm=<workspaceId>).
  const confirmId = positiveParam(url.searchParams.get("confirm"));
  const confirm = list.page.rows.find((w) => w.workspaceId === confirmId) ?? null;
  return json({ page: list.page, templates, confirm, language: viewer.language });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const formData = await request.formData();
  const intent = intentOf(formData, INTENTS);
  const api = apiFor(request, viewer);
  const url = new URL(request.url);
  url.searchParams.delete("confirm");
  url.searchParams.delete("index");
  const here = url.pathname + url.search;
  if (intent === "delete") {
    const v = parseFormOr400(deleteForm, formData);
    if (v.confirmed !== "yes")
      return redirect(
        `${url.pathname}?${new URLSearchParams({ ...Object.fromEntries(url.searchParams), confirm: String(v.workspaceId) })}`,
      );
    return redirectAfter(
      request,
      await api.call("/sys/ide/workspace/delete", { workspaceId: v.workspaceId }),
      here,
      "ide:flash.deleted",
    );
  }
  const schema = intent === "create" ? ideWorkspaceFormSchema : ideRenameFormSchema;
  const submission = parseWithZod(formData, { schema });
  if (submission.status !== "success")
    return json({ intent, workspaceId: formData.get("workspaceId"), result: submission.reply() }, { status: 400 });
  const result =
    "templateId" in submission.value
      ? await api.call("/sys/ide/workspace/create", submission.value)
      : await api.call("/sys/ide/workspace/rename", submission.value);
  if (!result.ok)
    return json(
      { intent, workspaceId: formData.get("workspaceId"), result: replyWithFailure(submission, result) },
      { status: formFailureStatus(result) },
    );
  if (intent === "create") return redirect(portalHref(result.data.workspaceId));
  return redirectAfter(request, result, here, "ide:flash.renamed");
}

function NewWorkspace({ templates }: { templates: { templateId: string; title: string | null; files: string[] }[] }) {
  const { t } = useTranslation("ide");
  const last = useActionData<typeof action>();
  const [form, fields] = useSchemaForm(ideWorkspaceFormSchema, last?.intent === "create" ? last.result : null, {
    id: "new-workspace",
    defaultValue: { templateId: "storage" },
  });
  return (
    <section className="card space-y-4" aria-labelledby="new-workspace-heading">
      <h2 id="new-workspace-heading" className="text-lg font-semibold">
        {t("services.new")}
      </h2>
      <FormProvider context={form.context}>
        <Form method="post" id={form.id} onSubmit={form.onSubmit} noValidate className="grid gap-4 md:grid-cols-2">
          <FormErrors id={form.errorId} errors={form.errors} />
          <TextField field={fields.name} label={t("services.name")} />
          <RadioGroupField
            field={fields.templateId}
            legend={t("services.template")}
            options={templates.map((tpl) => ({
              value: tpl.templateId,
              label: (
                <>
                  <span className="font-medium">{tpl.title ?? t(`templates.${tpl.templateId}.name`)}</span>{" "}
                  <span className="block text-xs text-slate-600">
                    {tpl.title ? "" : t(`templates.${tpl.templateId}.description`)} {tpl.files.join(", ")}
                  </span>
                </>
              ),
            }))}
          />
          <div className="md:col-span-2">
            <SubmitButton intent="create" className="btn-primary">
              {t("services.create")}
            </SubmitButton>
          </div>
        </Form>
      </FormProvider>
    </section>
  );
}

function RenameForm({ workspaceId, name }: { workspaceId: number; name: string }) {
  const { t } = useTranslation("ide");
  const last = useActionData<typeof action>();
  const mine = last?.intent === "rename" && String(last.workspaceId) === String(workspaceId);
  const [form, fields] = useSchemaForm(ideRenameFormSchema, mine ? last.result : null, {
    id: `rename-${workspaceId}`,
    defaultValue: { workspaceId: String(workspaceId), name },
  });
  return (
    <details open={mine} className="text-sm">
      <summary className="link cursor-pointer">{t("services.rename")}</summary>
      <FormProvider context={form.context}>
        <Form
          method="post"
          id={form.id}
          onSubmit={form.onSubmit}
          noValidate
          className="mt-2 flex flex-wrap items-end gap-2"
        >
          <input type="hidden" name="workspaceId" value={workspaceId} />
          <FormErrors id={form.errorId} errors={form.errors} />
          <TextField field={fields.name} label={t("services.newName")} />
          <SubmitButton intent="rename" className="btn-secondary">
            {t("services.save")}
          </SubmitButton>
        </Form>
      </FormProvider>
    </details>
  );
}

export default function IdeServices() {
  const { page, templates, confirm, language } = useLoaderData<typeof loader>();
  const { t } = useTranslation("ide");
  const location = useLocation();
  const here = location.pathname + location.search;
  return (
    <div className="space-y-6">
      <PageHeader title={t("services.title")} description={t("services.intro")} />
      {confirm ? (
        <IntentConfirmStep
          id="delete-workspace"
          title={t("services.deleteTitle")}
          question={t("services.deleteQuestion", { name: confirm.name })}
          intent="delete"
          fields={{ workspaceId: confirm.workspaceId }}
          action={here}
          cancelTo={location.pathname}
          confirmLabel={t("services.delete")}
          cancelLabel={t("services.cancel")}
          danger
        />
      ) : null}
      {page.rows.length === 0 ? (
        <EmptyState message={t("services.empty")} testId="empty" />
      ) : (
        <Table
          label={t("services.title")}
          regionTestId="workspaces"
          head={[
            t("services.name"),
            t("services.template"),
            t("services.files"),
            zoneHeader(t, t("services.updated")),
            t("services.actions"),
          ]}
        >
          {page.rows.map((w) => (
            <tr key={w.workspaceId} data-testid="workspace-row">
              <td className={td}>
                <Link className="link font-medium" to={portalHref(w.workspaceId)}>
                  {w.name}
                </Link>
              </td>
              <td className={td}>{t(`templates.${w.templateId}.name`, { defaultValue: w.templateId })}</td>
              <td className={`${td} tabular-nums`}>{w.files.toLocaleString(language)}</td>
              <td className={td}>{formatDate(w.updatedAt, language, true, false)}</td>
              <td className={`${td} space-y-2`}>
                <Link className="btn-primary inline-block text-sm" to={portalHref(w.workspaceId)}>
                  {t("services.open")}
                </Link>
                <RenameForm workspaceId={w.workspaceId} name={w.name} />
                <Form method="post" id={`delete-${w.workspaceId}`} action={here}>
                  <input type="hidden" name="workspaceId" value={w.workspaceId} />
                  <ConfirmSubmit
                    formId={`delete-${w.workspaceId}`}
                    name="intent"
                    value="delete"
                    label={t("services.delete")}
                    title={t("services.deleteTitle")}
                    question={t("services.deleteQuestion", { name: w.name })}
                    confirmLabel={t("services.delete")}
                    className="btn-danger text-sm"
                  />
                </Form>
              </td>
            </tr>
          ))}
        </Table>
      )}
      <Pagination pageIndex={page.pageIndex} pageSize={page.pageSize} total={page.total} />
      <NewWorkspace templates={templates} />
    </div>
  );
}
