import { FormProvider, getFormProps, type SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { contactAddressesFormSchema, type ContactAddresses } from "#contract/legal.ts";
import { TextField } from "#app/components/forms.tsx";
import { FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";

/** The contact page's addresses (docs/decisions/089): an empty field leaves that address not configured. */
export function ContactAddressesForm({
  contact,
  result,
}: {
  contact: ContactAddresses;
  result?: SubmissionResult<string[]> | null;
}) {
  const { t } = useTranslation("legal");
  const [form, fields] = useSchemaForm(contactAddressesFormSchema, result, {
    id: "contact-addresses",
    defaultValue: contact,
  });
  return (
    <section className="card space-y-4" aria-labelledby="contact-form-title">
      <h3 id="contact-form-title" className="text-lg font-semibold">
        {t("ops.contactTitle")}
      </h3>
      <p className="text-sm text-slate-700">{t("ops.contactIntro")}</p>
      <FormProvider context={form.context}>
        <Form method="post" {...getFormProps(form)} className="space-y-4">
          <FormErrors id={form.errorId} errors={form.errors} />
          <div className="grid gap-4 md:grid-cols-2">
            <TextField field={fields.supportEmail} type="email" label={t("ops.supportEmail")} />
            <TextField field={fields.partnersEmail} type="email" label={t("ops.partnersEmail")} />
          </div>
          <SubmitButton intent="contact" className="btn-primary">
            {t("ops.saveContact")}
          </SubmitButton>
        </Form>
      </FormProvider>
    </section>
  );
}
