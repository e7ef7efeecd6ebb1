import { FormProvider, getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { verifyFormSchema, type Verification } from "#contract/did.ts";
import { FileField, TextAreaField } from "#app/components/forms.tsx";
import { FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { DidTabs, VerificationResult } from "#app/components/did/views.tsx";
import { DID_HOME } from "#app/lib/did-urls.ts";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { replyWithFailure, replyWithFieldErrors } from "#app/lib/forms.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { parseFormWithUploads, uploadError, uploadRef } from "#app/lib/uploads.server.ts";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["did", "services"],
  breadcrumb: [{ key: "titles.did", to: DID_HOME }, { key: "titles.didVerify" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("didVerify");

const credentialFile = {
  kind: "credential" as const,
  problem: (f: { name: string }) => (/\.(jwt|txt)$/i.test(f.name) ? null : "did:verify.fileType"),
  tooLarge: "did:verify.fileTooLarge",
};

export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  return json({ language: viewer.language });
}

/** Verifies a credential pasted or uploaded (a .jwt or .txt file, through the upload path): the result, or why it failed. */
export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const api = apiFor(request, viewer);
  const { formData, uploads } = await parseFormWithUploads(request, api, { file: credentialFile });
  const submission = parseWithZod(formData, { schema: verifyFormSchema });
  const fileError = uploadError(uploads.file, null);
  if (submission.status !== "success" || fileError)
    return json(
      { result: replyWithFieldErrors(submission, fileError ? { file: [fileError] } : {}), verification: null },
      { status: 400 },
    );
  const upload = uploadRef(uploads.file);
  const outcome = await api.call(
    "/sys/did/verify",
    submission.value.jwt ? { jwt: submission.value.jwt } : { uploadId: upload?.uploadId },
  );
  if (!outcome.ok) return json({ result: replyWithFailure(submission, outcome), verification: null }, { status: 400 });
  return json({ result: submission.reply(), verification: outcome.data as Verification });
}

export default function VerifyCredential() {
  const { language } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("did");
  const [form, fields] = useSchemaForm(verifyFormSchema, actionData?.result, { id: "verify" });
  const fileErrors = (actionData?.result as { error?: Record<string, string[] | null> } | undefined)?.error;
  const fileErrorList = fileErrors?.file ?? fileErrors?.uploadId ?? undefined;
  return (
    <div className="space-y-6">
      <PageHeader title={t("verify.title")} description={t("verify.intro")} />
      <DidTabs />
      <div className="card max-w-3xl">
        <FormProvider context={form.context}>
          <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="space-y-5">
            <FormErrors id={form.errorId} errors={form.errors} />
            <TextAreaField field={fields.jwt} label={t("verify.jwt")} hint={t("verify.jwtHint")} rows={6} />
            <FileField
              name="file"
              label={t("verify.file")}
              hint={t("verify.fileHint")}
              accept=".jwt,.txt"
              errors={fileErrorList}
            />
            <SubmitButton className="btn-primary">{t("verify.submit")}</SubmitButton>
          </Form>
        </FormProvider>
      </div>
      {actionData?.verification ? <VerificationResult result={actionData.verification} language={language} /> : null}
    </div>
  );
}
