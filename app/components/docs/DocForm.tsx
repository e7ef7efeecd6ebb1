import { FormProvider, getFormProps, type SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { docFormSchema, type DocPage } from "#contract/docs.ts";
import { CheckboxField, SelectField, TextAreaField, TextField } from "#app/components/forms.tsx";
import { FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";

type Parent = { docId: number; title: string };

/** An operator's page form: address, parent, both languages' title and Markdown text, published. */
export function DocForm({
  page,
  parents,
  result,
  cancelTo,
}: {
  page: DocPage | null;
  parents: Parent[];
  result?: SubmissionResult<string[]> | null;
  cancelTo: string;
}) {
  const { t } = useTranslation("docs");
  const [form, fields] = useSchemaForm(docFormSchema, result, {
    id: page ? `doc-${page.docId}` : "doc-new",
    defaultValue: page
      ? {
          slug: page.slug,
          parentId: page.parentId ? String(page.parentId) : "",
          titleEn: page.titleEn,
          titleZh: page.titleZh,
          bodyEn: page.bodyEn,
          bodyZh: page.bodyZh,
          published: page.published ? "on" : undefined,
        }
      : { published: "on" },
  });
  return (
    <section className="card space-y-4" aria-labelledby="doc-form-title">
      <h2 id="doc-form-title" className="text-lg font-semibold">
        {page ? t("ops.edit") : t("ops.new")}
      </h2>
      <FormProvider context={form.context}>
        <Form method="post" {...getFormProps(form)} className="space-y-4">
          <FormErrors id={form.errorId} errors={form.errors} />
          {page ? <input type="hidden" name="docId" value={page.docId} /> : null}
          <div className="grid gap-4 md:grid-cols-2">
            <TextField field={fields.slug} label={t("ops.slug")} hint={t("ops.slugHint")} />
            <SelectField
              field={fields.parentId}
              label={t("ops.parent")}
              placeholder={t("ops.top")}
              options={parents
                .filter((p) => p.docId !== page?.docId)
                .map((p) => ({ value: String(p.docId), label: p.title }))}
            />
            <TextField field={fields.titleEn} label={t("ops.titleEn")} />
            <TextField field={fields.titleZh} label={t("ops.titleZh")} />
          </div>
          <TextAreaField field={fields.bodyEn} label={t("ops.bodyEn")} rows={12} />
          <TextAreaField field={fields.bodyZh} label={t("ops.bodyZh")} rows={12} />
          <CheckboxField field={fields.published}>{t("ops.published")}</CheckboxField>
          <div className="flex gap-2">
            <SubmitButton intent="save" className="btn-primary">
              {t("ops.save")}
            </SubmitButton>
            <Link to={cancelTo} className="btn-secondary">
              {t("ops.cancel")}
            </Link>
          </div>
        </Form>
      </FormProvider>
    </section>
  );
}
