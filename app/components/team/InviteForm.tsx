import { FormProvider, getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { inviteSchema } from "#contract/team.ts";
import { ASSIGNABLE_ROLES } from "#contract/team-roles.ts";
import { SelectField, TextField } from "#app/components/forms.tsx";
import { ButtonBesideFields, FormErrors } from "#app/components/form-parts.tsx";

/** The action's answer to a refused invitation: Conform's reply, with the typed email and the role kept. */
export type InviteAnswer = { kind: "invite"; result: SubmissionResult<string[]> };

/**
 * The owner's invitation form (issue 33): an email and a role. Checked here with the contract's schema and again by
 * the backend; a refusal (a malformed address, someone already a member) is shown at its field with what was
 * typed, with and without JavaScript.
 */
export function InviteForm({ lastResult }: { lastResult: SubmissionResult<string[]> | null }) {
  const { t } = useTranslation();
  const [form, fields] = useForm({
    id: "invite",
    lastResult,
    shouldValidate: "onBlur",
    defaultValue: { role: "developer" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: inviteSchema }),
  });
  return (
    <FormProvider context={form.context}>
      <Form method="post" {...getFormProps(form)} className="space-y-2">
        <FormErrors id={form.errorId} errors={form.errors} />
        <div className="flex flex-wrap items-start gap-2">
          <TextField field={fields.email} label={t("team.email")} type="email" autoComplete="off" />
          <SelectField
            field={fields.role}
            label={t("team.role")}
            options={ASSIGNABLE_ROLES.map((r) => ({ value: r, label: t(`team.roles.${r}`) }))}
          />
          <ButtonBesideFields type="submit" name="intent" value="invite" className="btn-primary">
            {t("team.invite.send")}
          </ButtonBesideFields>
        </div>
      </Form>
    </FormProvider>
  );
}
