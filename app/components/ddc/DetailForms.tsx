import { FormProvider, getFormProps, getInputProps, type SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ddcPasswordFormSchema, ddcTransferFormSchema } from "#contract/ddc.ts";
import { ConfirmSubmit } from "#app/components/ConfirmSubmit.tsx";
import { TextField } from "#app/components/forms.tsx";
import { FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";

/** The transfer form of a DDC held by one of the user's accounts (confirmed: a dialog, or a confirm step without JavaScript). */
export function TransferForm({
  ddcId,
  holder,
  fee,
  lastResult,
}: {
  ddcId: number;
  holder: string;
  fee: string;
  lastResult?: SubmissionResult<string[]> | null;
}) {
  const { t } = useTranslation("ddc");
  const [form, fields] = useSchemaForm(ddcTransferFormSchema, lastResult, {
    id: "ddc-transfer",
    defaultValue: { ddcId: String(ddcId) },
  });
  const canOpen = () => {
    const element = document.getElementById(form.id);
    const ok =
      element instanceof HTMLFormElement &&
      ddcTransferFormSchema.safeParse(Object.fromEntries(new FormData(element))).success;
    if (!ok) form.validate();
    return ok;
  };
  return (
    <FormProvider context={form.context}>
      <Form method="post" {...getFormProps(form)} className="space-y-3">
        <FormErrors id={form.errorId} errors={form.errors} />
        <input {...getInputProps(fields.ddcId, { type: "hidden" })} key={fields.ddcId.key} />
        <p className="text-sm text-slate-600">{t("transfer.intro", { holder, fee })}</p>
        <TextField field={fields.to} label={t("transfer.to")} hint={t("transfer.toHint")} autoComplete="off" />
        <ConfirmSubmit
          formId={form.id}
          name="intent"
          value="transfer"
          label={t("transfer.submit")}
          title={t("transfer.confirmTitle")}
          question={t("transfer.confirmQuestion", { to: fields.to.value ?? "" })}
          confirmLabel={t("transfer.confirm")}
          canOpen={canOpen}
        />
      </Form>
    </FormProvider>
  );
}

/** Set (or change) the QR-code password; clearing it is confirmed. */
export function PasswordForm({
  ddcId,
  passwordSet,
  lastResult,
}: {
  ddcId: number;
  passwordSet: boolean;
  lastResult?: SubmissionResult<string[]> | null;
}) {
  const { t } = useTranslation("ddc");
  const [form, fields] = useSchemaForm(ddcPasswordFormSchema, lastResult, {
    id: "ddc-password",
    defaultValue: { ddcId: String(ddcId) },
  });
  return (
    <div className="space-y-3">
      <p className="text-sm text-slate-600" data-testid="ddc-password-state">
        {t(passwordSet ? "password.isSet" : "password.notSet")}
      </p>
      <FormProvider context={form.context}>
        <Form method="post" {...getFormProps(form)} className="space-y-3">
          <FormErrors id={form.errorId} errors={form.errors} />
          <input {...getInputProps(fields.ddcId, { type: "hidden" })} key={fields.ddcId.key} />
          <TextField
            field={fields.password}
            type="password"
            label={t(passwordSet ? "password.change" : "password.set")}
            hint={t("password.hint")}
            autoComplete="new-password"
          />
          <SubmitButton intent="password" className="btn-primary">
            {t("password.save")}
          </SubmitButton>
        </Form>
      </FormProvider>
      {passwordSet ? (
        <Form method="post" id="ddc-password-clear">
          <input type="hidden" name="ddcId" value={ddcId} />
          <ConfirmSubmit
            formId="ddc-password-clear"
            name="intent"
            value="clearPassword"
            label={t("password.clear")}
            title={t("confirm.clearPassword.title")}
            question={t("confirm.clearPassword.question")}
            confirmLabel={t("confirm.clearPassword.confirm")}
            className="btn-secondary"
          />
        </Form>
      ) : null}
    </div>
  );
}
