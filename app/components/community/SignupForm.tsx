import { FormProvider, getFormProps } from "@conform-to/react";
import { Form } from "@remix-run/react";
import type { SubmissionResult } from "@conform-to/react";
import { useTranslation } from "react-i18next";
import { signupSchema } from "#contract/community.ts";
import { TextAreaField, TextField } from "#app/components/forms.tsx";
import { FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";

/** SPEC §7 saveSingUpInfo: the sign-up form of an event (one schema for the action and the browser). */
export function SignupForm({
  eventId,
  defaults,
  lastResult,
}: {
  eventId: number;
  defaults: { name: string; email: string };
  lastResult?: SubmissionResult<string[]> | null;
}) {
  const { t } = useTranslation("community");
  const [form, fields] = useSchemaForm(signupSchema, lastResult, { id: "event-signup", defaultValue: defaults });
  return (
    <FormProvider context={form.context}>
      <Form method="post" {...getFormProps(form)} className="space-y-4" aria-labelledby="signup-title">
        <h2 id="signup-title" className="text-lg font-semibold">
          {t("signup.title")}
        </h2>
        <FormErrors id={form.errorId} errors={form.errors} />
        <input type="hidden" name="eventId" value={eventId} />
        <div className="grid gap-4 md:grid-cols-2">
          <TextField field={fields.name} label={t("signup.name")} autoComplete="name" />
          <TextField
            field={fields.email}
            label={t("signup.email")}
            type="email"
            autoComplete="email"
            hint={t("signup.emailHint")}
          />
          <TextField field={fields.organization} label={t("signup.organization")} autoComplete="organization" />
        </div>
        <TextAreaField field={fields.note} label={t("signup.note")} />
        <SubmitButton className="btn-primary">{t("signup.submit")}</SubmitButton>
      </Form>
    </FormProvider>
  );
}
