import { FormProvider, getFormProps, type FieldMetadata } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { DID_CUSTODIES, DID_KEY_TYPES, DID_METHODS, didCreateSchema } from "#contract/did.ts";
import { RadioGroupField, TextAreaField, TextField } from "#app/components/forms.tsx";
import { FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { DID_HOME, didHref } from "#app/lib/did-urls.ts";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { replyWithFailure } from "#app/lib/forms.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { redirectWithFlash } from "#app/lib/session.server.ts";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = { i18n: ["did"], breadcrumb: [{ key: "titles.did", to: DID_HOME }, { key: "titles.didNew" }] };
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("didNew");

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return null;
}

/** A new DID: did:key or did:web; a key the portal makes and holds, or the user's public key pasted. */
export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const submission = parseWithZod(await request.formData(), { schema: didCreateSchema });
  if (submission.status !== "success") return json({ result: submission.reply() }, { status: 400 });
  const result = await apiFor(request, viewer).call("/sys/did/identifiers/create", submission.value);
  if (!result.ok) return json({ result: replyWithFailure(submission, result) }, { status: 400 });
  return redirectWithFlash(request, didHref(result.data.didId), {
    kind: "success",
    key: "did:create.done",
    params: { did: result.data.did },
  });
}

export default function NewDid() {
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("did");
  const [form, fields] = useSchemaForm(didCreateSchema, actionData?.result, {
    id: "new-did",
    defaultValue: { method: "key", custody: "portal", keyType: "Ed25519" },
  });
  const radio = (f: unknown) => f as FieldMetadata<string | undefined>;
  return (
    <div className="max-w-2xl space-y-4">
      <PageHeader title={t("create.title")} />
      <p className="text-sm text-slate-600">{t("create.intro")}</p>
      <div className="card">
        <FormProvider context={form.context}>
          <Form method="post" {...getFormProps(form)} className="space-y-5">
            <FormErrors id={form.errorId} errors={form.errors} />
            <TextField field={fields.label} label={t("create.label")} hint={t("create.labelHint")} autoComplete="off" />
            <RadioGroupField
              field={radio(fields.method)}
              legend={t("create.method")}
              options={DID_METHODS.map((m) => ({
                value: m,
                label: (
                  <>
                    <span className="font-medium">{t(`method.${m}`)}</span>
                    <span className="block text-xs text-slate-600">{t(`create.methodHint.${m}`)}</span>
                  </>
                ),
              }))}
            />
            <RadioGroupField
              field={radio(fields.custody)}
              legend={t("create.custody")}
              options={DID_CUSTODIES.map((c) => ({
                value: c,
                label: (
                  <>
                    <span className="font-medium">{t(`custody.${c}`)}</span>
                    <span className="block text-xs text-slate-600">{t(`create.custodyHint.${c}`)}</span>
                  </>
                ),
              }))}
            />
            <RadioGroupField
              field={radio(fields.keyType)}
              legend={t("create.keyType")}
              options={DID_KEY_TYPES.map((k) => ({ value: k, label: k }))}
            />
            <TextAreaField
              field={fields.publicKey}
              label={t("create.publicKey")}
              hint={t("create.publicKeyHint")}
              rows={4}
            />
            <div className="flex justify-end gap-2">
              <Link to={DID_HOME} className="btn-secondary">
                {t("common:actions.cancel")}
              </Link>
              <SubmitButton className="btn-primary">{t("create.submit")}</SubmitButton>
            </div>
          </Form>
        </FormProvider>
      </div>
    </div>
  );
}
