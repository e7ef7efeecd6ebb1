import { FormProvider, getFormProps, type FieldMetadata, type SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { postFormSchema, type PostKind } from "#contract/community.ts";
import { TextAreaField, TextField } from "#app/components/forms.tsx";
import { FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";

/**
 * The operators' form of a post (contract postFormSchema): both languages side by side, Markdown bodies, and
 * the fields of its kind. Times are UTC+8 wall-clock times.
 */
export function PostForm({
  kind,
  postId,
  defaults,
  lastResult,
}: {
  kind: PostKind;
  postId: number | null;
  defaults?: Record<string, string>;
  lastResult?: SubmissionResult<string[]> | null;
}) {
  const { t } = useTranslation("community");
  const [form, fields] = useSchemaForm(postFormSchema, lastResult, { id: `post-${kind}`, defaultValue: defaults });
  return (
    <FormProvider context={form.context}>
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <FormErrors id={form.errorId} errors={form.errors} />
        <input type="hidden" name="kind" value={kind} />
        {postId ? <input type="hidden" name="postId" value={postId} /> : null}
        <p className="text-sm text-slate-600">{t("form.languagesHint")}</p>
        <div className="grid gap-4 lg:grid-cols-2">
          <fieldset className="space-y-3">
            <legend className="font-semibold">{t("form.english")}</legend>
            <TextField field={fields.titleEn} label={t("form.titleEn")} />
            <TextAreaField field={fields.bodyEn} label={t("form.bodyEn")} hint={t("form.markdownHint")} rows={10} />
          </fieldset>
          <fieldset className="space-y-3" lang="zh-CN">
            <legend className="font-semibold">{t("form.chinese")}</legend>
            <TextField field={fields.titleZh} label={t("form.titleZh")} />
            <TextAreaField field={fields.bodyZh} label={t("form.bodyZh")} hint={t("form.markdownHint")} rows={10} />
          </fieldset>
        </div>
        {kind === "event" ? (
          <div className="grid gap-4 md:grid-cols-2">
            <TextField
              field={fields.startsAt}
              label={t("form.startsAt")}
              type="datetime-local"
              hint={t("form.timeHint")}
            />
            <TextField
              field={fields.signupDeadline}
              label={t("form.signupDeadline")}
              type="datetime-local"
              hint={t("form.timeHint")}
            />
            <TextField
              field={fields.capacity as FieldMetadata<string | undefined>}
              label={t("form.capacity")}
              type="number"
            />
            <TextField field={fields.location} label={t("form.location")} />
          </div>
        ) : null}
        {kind === "release" ? (
          <TextField field={fields.version} label={t("form.version")} hint={t("form.versionHint")} />
        ) : null}
        {kind === "announcement" ? (
          <div className="grid gap-4 md:grid-cols-2">
            <TextField
              field={fields.activeFrom}
              label={t("form.activeFrom")}
              type="datetime-local"
              hint={t("form.timeHint")}
            />
            <TextField
              field={fields.activeTo}
              label={t("form.activeTo")}
              type="datetime-local"
              hint={t("form.timeHint")}
            />
          </div>
        ) : null}
        <SubmitButton className="btn-primary">{t("form.save")}</SubmitButton>
      </Form>
    </FormProvider>
  );
}
