import { FormProvider, getFormProps, getInputProps, type FieldMetadata } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ddcFileProblem, ddcMintFormSchema, metadataOfText } from "#contract/ddc.ts";
import { FileField, RadioGroupField, SelectField, TextAreaField, TextField } from "#app/components/forms.tsx";
import { FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { DDC_HOME, ddcDetailHref } from "#app/lib/ddc-urls.ts";
import { apiFor, failureStatus, requireUser } from "#app/lib/api.server.ts";
import { formatUsd } from "#app/lib/format.ts";
import { replyWithFailure, replyWithFieldErrors } from "#app/lib/forms.server.ts";
import { intentOf } from "#app/lib/intents.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { newIdempotencyKey } from "#app/lib/payments.server.ts";
import { redirectWithFlash } from "#app/lib/session.server.ts";
import { parseFormWithUploads, uploadError, uploadRef } from "#app/lib/uploads.server.ts";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = { i18n: ["ddc"], breadcrumb: [{ key: "titles.ddc", to: DDC_HOME }, { key: "titles.ddcNew" }] };
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("ddcNew");

/**
 * Mint a DDC (docs/decisions/045): from one of the user's custody chain accounts (its open-alliance project
 * follows), with a name, description, "key=value" metadata and an image or file kept on the user's IPFS service
 * or by the platform. The fee is bill type 91; the gas is paid on chain by the account.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const options = await apiFor(request, viewer).load("/sys/ddc/options", {});
  return json({ options, idempotencyKey: newIdempotencyKey(), language: viewer.language });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const api = apiFor(request, viewer);
  const { formData, uploads } = await parseFormWithUploads(request, api, {
    file: { kind: "ddc", problem: ddcFileProblem, tooLarge: "ddc:validation.fileTooLarge" },
  });
  intentOf(formData, ["mint"]);
  const submission = parseWithZod(formData, { schema: ddcMintFormSchema });
  const fileError = uploadError(uploads.file, "ddc:validation.fileRequired");
  if (submission.status !== "success" || fileError)
    return json({ result: replyWithFieldErrors(submission, fileError ? { file: [fileError] } : {}) }, { status: 400 });
  const { metadataText, accountId, ipfsServiceId, ...rest } = submission.value;
  const options = await api.load("/sys/ddc/options", {});
  const project = options.projects.find((p) => p.accounts.some((a) => a.accountId === accountId));
  if (!project)
    return json({ result: submission.reply({ fieldErrors: { accountId: ["validation.required"] } }) }, { status: 400 });
  const result = await api.call("/sys/ddc/mint", {
    ...rest,
    projectId: project.projectId,
    accountId,
    ipfsServiceId: rest.storage === "ipfs" ? ipfsServiceId : null,
    metadata: metadataOfText(metadataText),
    file: uploadRef(uploads.file)!,
  });
  if (!result.ok)
    return json(
      { result: replyWithFailure(submission, result, { hideFields: ["file"] }) },
      { status: failureStatus(result) },
    );
  return redirectWithFlash(request, ddcDetailHref(result.data.ddcId), {
    kind: "success",
    key: "ddc:mint.done",
    params: { name: result.data.name },
  });
}

export default function MintDdc() {
  const { options, idempotencyKey, language } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("ddc");
  const [form, fields] = useSchemaForm(ddcMintFormSchema, actionData?.result, {
    id: "ddc-mint",
    defaultValue: { idempotencyKey, storage: "product" },
  });
  const accounts = options.projects.flatMap((p) =>
    p.accounts.map((a) => ({
      value: String(a.accountId),
      label: `${p.name} · ${a.name} (${a.address.slice(0, 10)}…)`,
    })),
  );
  const fileErrors =
    (actionData?.result as { error?: Record<string, string[] | null> } | undefined)?.error?.file ?? undefined;
  if (!accounts.length) {
    return (
      <div className="card max-w-2xl space-y-2" data-testid="ddc-no-account">
        <PageHeader title={t("mint.title")} />
        <p className="text-slate-600">{t("mint.noAccount")}</p>
        <Link className="link" to="/g/home/PermissionlessServices/Home">
          {t("mint.toProjects")}
        </Link>
      </div>
    );
  }
  return (
    <div className="card max-w-2xl">
      <PageHeader title={t("mint.title")} />
      <p className="mt-1 text-sm text-slate-600">
        {t("mint.intro", { fee: formatUsd(options.mintFeeCents, language) })}
      </p>
      <FormProvider context={form.context}>
        <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="mt-6 space-y-4">
          <FormErrors id={form.errorId} errors={form.errors} />
          <input {...getInputProps(fields.idempotencyKey, { type: "hidden" })} key={fields.idempotencyKey.key} />
          <SelectField
            field={fields.accountId as unknown as FieldMetadata<string | undefined>}
            label={t("fields.account")}
            options={accounts}
            placeholder={t("mint.chooseAccount")}
          />
          <TextField field={fields.name} label={t("fields.name")} autoComplete="off" />
          <TextAreaField field={fields.description} label={t("fields.description")} rows={3} />
          <TextAreaField
            field={fields.metadataText}
            label={t("fields.metadata")}
            hint={t("mint.metadataHint")}
            rows={4}
          />
          <FileField
            name="file"
            label={t("fields.file")}
            hint={t("mint.fileHint")}
            accept=".png,.jpg,.jpeg,.pdf,.txt"
            errors={fileErrors}
          />
          <RadioGroupField
            field={fields.storage as unknown as FieldMetadata<string | undefined>}
            legend={t("fields.storage")}
            options={[
              { value: "product", label: t("storage.product") },
              { value: "ipfs", label: t("storage.ipfs"), disabled: !options.ipfsServices.length },
            ]}
          />
          {options.ipfsServices.length ? (
            <SelectField
              field={fields.ipfsServiceId as unknown as FieldMetadata<string | undefined>}
              label={t("fields.ipfsService")}
              placeholder={t("mint.chooseIpfs")}
              options={options.ipfsServices.map((s) => ({ value: String(s.ipfsServiceId), label: s.name }))}
            />
          ) : (
            <p className="text-xs text-slate-600">{t("mint.noIpfs")}</p>
          )}
          <div className="flex justify-end gap-2">
            <Link to={DDC_HOME} className="btn-secondary">
              {t("common:actions.cancel")}
            </Link>
            <SubmitButton intent="mint" className="btn-primary">
              {t("mint.submit")}
            </SubmitButton>
          </div>
        </Form>
      </FormProvider>
    </div>
  );
}
