import { FormProvider, getFormProps, type SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { replyFormSchema } from "#contract/support.ts";
import { TICKET_TEXT_MAX } from "#contract/support-codes.ts";
import { TextAreaField } from "#app/components/forms.tsx";
import { FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";

/** A reply to a ticket's conversation (intent "reply"), by its asker or by an operator. */
export function ReplyForm({
  lastResult,
  label,
}: {
  lastResult: SubmissionResult<string[]> | undefined;
  label: string;
}) {
  const { t } = useTranslation("support");
  const [form, fields] = useSchemaForm(replyFormSchema, lastResult, { id: "ticket-reply" });
  return (
    <FormProvider context={form.context}>
      <Form method="post" {...getFormProps(form)} className="card space-y-3">
        <FormErrors id={form.errorId} errors={form.errors} />
        <TextAreaField
          field={fields.content}
          label={label}
          hint={t("form.questionHint", { max: TICKET_TEXT_MAX })}
          rows={4}
        />
        <SubmitButton intent="reply" className="btn-primary">
          {t("detail.send")}
        </SubmitButton>
      </Form>
    </FormProvider>
  );
}
