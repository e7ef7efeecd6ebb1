import { FormProvider, getFormProps, type SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { legalTextFormSchema, type LegalPage, type LegalTextForm as Values } from "#contract/legal.ts";
import { TextAreaField, TextField } from "#app/components/forms.tsx";
import { FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";

/** An operator's form for one legal or contact page: title, introduction and sections, in both languages. */
export function LegalTextForm({
  page,
  values,
  draft,
  result,
  cancelTo,
}: {
  page: LegalPage;
  values: Values;
  draft: boolean;
  result?: SubmissionResult<string[]> | null;
  cancelTo: string;
}) {
  const { t } = useTranslation("legal");
  const [form, fields] = useSchemaForm(legalTextFormSchema, result, { id: `legal-${page}`, defaultValue: values });
  return (
    <section className="card space-y-4" aria-labelledby="legal-form-title">
      <h3 id="legal-form-title" className="text-lg font-semibold">
        {t("ops.editTitle", { page: t(`pages.${page}`) })}
      </h3>
      {draft ? (
        <p className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          {t("ops.draftNote")}
        </p>
      ) : null}
      <p className="text-sm text-slate-700">{t("ops.format")}</p>
      <FormProvider context={form.context}>
        <Form method="post" {...getFormProps(form)} className="space-y-4">
          <FormErrors id={form.errorId} errors={form.errors} />
          <input type="hidden" name="page" value={page} />
          <div className="grid gap-4 md:grid-cols-2">
            <TextField field={fields.titleEn} label={t("ops.titleEn")} />
            <TextField field={fields.titleZh} label={t("ops.titleZh")} />
            <TextAreaField field={fields.introEn} label={t("ops.introEn")} rows={3} />
            <TextAreaField field={fields.introZh} label={t("ops.introZh")} rows={3} />
          </div>
          <TextAreaField field={fields.bodyEn} label={t("ops.bodyEn")} rows={14} />
          <TextAreaField field={fields.bodyZh} label={t("ops.bodyZh")} rows={14} />
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
