import { FormProvider, getFormProps, type SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { LICENCE_EXTENSIONS } from "#contract/accounts.ts";
import { CertState, resubmitFieldsSchema, type Certification } from "#contract/certification.ts";
import { Badge, type Tone } from "#app/components/Badge.tsx";
import { FileField, TextField } from "#app/components/forms.tsx";
import { FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { formatDate } from "#app/lib/format.ts";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";

const TONE: Record<number, Tone> = {
  [CertState.NONE]: "off",
  [CertState.PENDING]: "wait",
  [CertState.REJECTED]: "bad",
  [CertState.APPROVED]: "ok",
};

/** The state of an account's enterprise certification as a pill (docs/decisions/071). */
export function CertStateBadge({ state }: { state: number }) {
  const { t } = useTranslation("profile");
  return (
    <Badge tone={TONE[state] ?? "off"} testId="cert-state">
      {t(`certification.state.${state}`)}
    </Badge>
  );
}

/**
 * The user's enterprise certification (docs/decisions/071): its state, the operator's reason of a rejection,
 * and the form that submits it again (the credit code, kept or corrected, and a new licence).
 */
export function CertificationView({
  cert,
  result,
  language,
}: {
  cert: Certification;
  result: SubmissionResult<string[]> | undefined;
  language: Parameters<typeof formatDate>[1];
}) {
  const { t } = useTranslation("profile");
  const [form, fields] = useSchemaForm(resubmitFieldsSchema, result, {
    id: "certification",
    defaultValue: { creditCode: cert.creditCode ?? "" },
  });
  const licenceErrors = (result as { error?: Record<string, string[] | null> } | undefined)?.error?.licence;
  if (cert.userType !== 2)
    return (
      <p className="text-sm text-slate-600" data-testid="cert-individual">
        {t("certification.individual")}
      </p>
    );
  const canSubmit = cert.state === CertState.NONE || cert.state === CertState.REJECTED;
  return (
    <div className="space-y-6">
      <section className="card space-y-3" aria-labelledby="cert-status">
        <h2 id="cert-status" className="flex items-center gap-3 text-lg font-semibold">
          {t("certification.status")} <CertStateBadge state={cert.state} />
        </h2>
        <p className="text-sm text-slate-700" data-testid="cert-explain">
          {t(`certification.explain.${cert.state}`)}
        </p>
        {cert.state === CertState.REJECTED && cert.reason ? (
          <p className="rounded border border-red-200 bg-red-50 p-3 text-sm text-red-800" data-testid="cert-reason">
            <strong>{t("certification.reason")}:</strong> {cert.reason}
          </p>
        ) : null}
        <dl className="grid gap-2 text-sm sm:grid-cols-2">
          <div>
            <dt className="text-slate-500">{t("information.companyName")}</dt>
            <dd data-user-content="">{cert.companyName ?? "—"}</dd>
          </div>
          <div>
            <dt className="text-slate-500">{t("information.country")}</dt>
            <dd data-user-content="">{cert.country ?? "—"}</dd>
          </div>
          <div>
            <dt className="text-slate-500">{t("information.creditCode")}</dt>
            <dd className="font-mono">{cert.creditCode ?? "—"}</dd>
          </div>
          <div>
            <dt className="text-slate-500">{t("certification.licence")}</dt>
            <dd data-user-content="">{cert.licenceName ?? "—"}</dd>
          </div>
          <div>
            <dt className="text-slate-500">{t("certification.submittedAt")}</dt>
            <dd>{cert.submittedAt ? formatDate(cert.submittedAt, language, true) : "—"}</dd>
          </div>
          <div>
            <dt className="text-slate-500">{t("certification.decidedAt")}</dt>
            <dd>{cert.decidedAt ? formatDate(cert.decidedAt, language, true) : "—"}</dd>
          </div>
        </dl>
      </section>
      {canSubmit ? (
        <section className="card max-w-2xl" aria-labelledby="cert-resubmit">
          <h2 id="cert-resubmit" className="text-lg font-semibold">
            {t("certification.resubmitTitle")}
          </h2>
          <FormProvider context={form.context}>
            <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="mt-4 space-y-4">
              <FormErrors id={form.errorId} errors={form.errors} />
              <TextField
                field={fields.creditCode}
                label={t("information.creditCode")}
                hint={t("certification.creditCodeHint")}
              />
              <FileField
                name="licence"
                label={t("certification.licence")}
                hint={t("certification.licenceHint")}
                accept={LICENCE_EXTENSIONS.join(",")}
                errors={licenceErrors ?? undefined}
              />
              <SubmitButton className="btn-primary">{t("certification.resubmit")}</SubmitButton>
            </Form>
          </FormProvider>
        </section>
      ) : null}
    </div>
  );
}
