import { FormProvider, getFormProps, getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { accountCreateSchema } from "#contract/public-chain.ts";
import { KEY_TYPES } from "#contract/public-chain-codes.ts";
import { RadioGroupField, TextAreaField, TextField } from "#app/components/forms.tsx";
import { FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { PC, accountHref, accountsHref } from "#app/lib/public-chain-urls.ts";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { replyWithFailure } from "#app/lib/forms.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { idParam } from "#app/lib/public-chain.server.ts";
import { redirectWithFlash } from "#app/lib/session.server.ts";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["publicChain"],
  breadcrumb: [
    { key: "menu.permissionlessServices", to: PC },
    { key: "titles.publicChainHome", to: `${PC}/Home` },
    { key: "titles.publicChainNewAccount" },
  ],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("publicChainNewAccount", (d: { project?: { name: string } }) => d.project?.name);

/**
 * SPEC §2 "create chain account", §4 key types (1 custody, 2 public key upload, 3 chain address upload), §5
 * Chain account: the name unique, at most 50 of letters, digits, Chinese, spaces and .:-_@; the address
 * required, valid and unique; the gas warning value required. Each rule is shown beside its field.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const projectId = idParam(request, "projectId");
  const project = await apiFor(request, viewer).load("/sys/opc/project/detail", { projectId });
  return json({ project });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const projectId = idParam(request, "projectId");
  const formData = await request.formData();
  formData.set("projectId", String(projectId));
  const submission = parseWithZod(formData, { schema: accountCreateSchema });
  if (submission.status !== "success") return json({ result: submission.reply() }, { status: 400 });
  const result = await apiFor(request, viewer).call("/sys/opc/account/create", submission.value);
  if (!result.ok)
    return json({ result: replyWithFailure(submission, result) }, { status: result.status === 404 ? 404 : 400 });
  return redirectWithFlash(request, accountHref(result.data.accountId), {
    kind: "success",
    key: "publicChain:accountCreate.done",
    params: { name: result.data.name },
  });
}

export default function NewChainAccount() {
  const { project } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("publicChain");
  const [form, fields] = useSchemaForm(accountCreateSchema, actionData?.result, {
    id: "new-account",
    defaultValue: { projectId: String(project.projectId), keyType: "1", gasWarning: "0.01" },
  });
  return (
    <div className="max-w-xl space-y-4">
      <PageHeader title={t("accountCreate.title", { name: project.name })} />
      <div className="card">
        <FormProvider context={form.context}>
          <Form method="post" {...getFormProps(form)} className="space-y-4">
            <FormErrors id={form.errorId} errors={form.errors} />
            <input {...getInputProps(fields.projectId, { type: "hidden" })} key={fields.projectId.key} />
            <TextField
              field={fields.name}
              label={t("account.name")}
              hint={t("accountCreate.nameRule")}
              autoComplete="off"
            />
            <RadioGroupField
              field={fields.keyType}
              legend={t("account.keyType")}
              options={KEY_TYPES.map((k) => ({
                value: String(k),
                label: (
                  <>
                    <span className="font-medium">{t(`keyType.${k}`)}</span>{" "}
                    <span className="text-slate-600">{t(`keyTypeHint.${k}`)}</span>
                  </>
                ),
              }))}
            />
            <TextAreaField
              field={fields.publicKey}
              label={t("account.publicKey")}
              rows={2}
              hint={t("accountCreate.publicKeyRule")}
            />
            <TextField
              field={fields.address}
              label={t("account.address")}
              hint={t("accountCreate.addressRule")}
              autoComplete="off"
            />
            <TextField
              field={fields.gasWarning}
              label={t("account.gasWarning")}
              hint={t("accountCreate.gasWarningRule")}
              autoComplete="off"
            />
            <div className="flex justify-end gap-2">
              <Link to={accountsHref(project.projectId)} className="btn-secondary">
                {t("common:actions.cancel")}
              </Link>
              <SubmitButton className="btn-primary">{t("accountCreate.submit")}</SubmitButton>
            </div>
          </Form>
        </FormProvider>
      </div>
    </div>
  );
}
