import { FormProvider, getFormProps, type SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { visitorTicketFormSchema } from "#contract/support.ts";
import { TICKET_TEXT_MAX } from "#contract/support-codes.ts";
import { Captcha } from "#app/components/Captcha.tsx";
import { type CaptchaData } from "#app/lib/captcha.ts";
import { TextAreaField, TextField } from "#app/components/forms.tsx";
import { FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";

/**
 * A visitor's question (the public support page and the contact page): question, name, contact email or mobile
 * (SPEC §5: one of them, valid) and the captcha. Posted without JavaScript as well; the action answers errors here.
 */
export function VisitorTicketForm({
  source,
  captcha,
  lastResult,
}: {
  source: "support" | "contact";
  captcha: CaptchaData;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const { t } = useTranslation("support");
  const [form, fields] = useSchemaForm(visitorTicketFormSchema, lastResult, {
    id: `visitor-ticket-${source}`,
    defaultValue: { source },
  });
  return (
    <FormProvider context={form.context}>
      <Form
        method="post"
        {...getFormProps(form)}
        className="grid gap-4 md:grid-cols-2"
        aria-label={t("visitor.formLabel")}
      >
        <div className="md:col-span-2">
          <FormErrors id={form.errorId} errors={form.errors} />
        </div>
        <input type="hidden" name="source" value={source} />
        <TextAreaField
          field={fields.question}
          label={t("form.question")}
          hint={t("form.questionHint", { max: TICKET_TEXT_MAX })}
          rows={5}
          className="md:col-span-2"
        />
        <TextField
          field={fields.contactName}
          label={t("form.contactName")}
          autoComplete="name"
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
          <Captcha captcha={captcha} field={fields.captcha} />
        </div>
        <div className="md:col-span-2">
          <SubmitButton className="btn-primary">{t("form.send")}</SubmitButton>
        </div>
      </Form>
    </FormProvider>
  );
}
