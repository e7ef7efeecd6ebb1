import { FormProvider, getFormProps, type FieldMetadata } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { VALID_DAYS_DEFAULT, roleIssueSchema } from "#contract/did.ts";
import { SelectField, TextField } from "#app/components/forms.tsx";
import { FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { DID_HOME, credentialHref } from "#app/lib/did-urls.ts";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { replyWithFailure } from "#app/lib/forms.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { redirectWithFlash } from "#app/lib/session.server.ts";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["did"],
  breadcrumb: [
    { key: "titles.did", to: DID_HOME },
    { key: "titles.didCredentials", to: `${DID_HOME}/Credentials` },
    { key: "titles.didIssue" },
  ],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("didIssue");

/** A publisher issues a role credential to a participant of one of their services, signed by one of their portal-held DIDs. */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const options = await apiFor(request, viewer).load("/sys/did/credentials/options", {});
  return json({ issuerDids: options.issuerDids, participants: options.participants });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const submission = parseWithZod(await request.formData(), { schema: roleIssueSchema });
  if (submission.status !== "success") return json({ result: submission.reply() }, { status: 400 });
  const result = await apiFor(request, viewer).call("/sys/did/credentials/issueRole", submission.value);
  if (!result.ok)
    return json({ result: replyWithFailure(submission, result) }, { status: result.status === 404 ? 404 : 400 });
  return redirectWithFlash(request, credentialHref(result.data.credentialId), {
    kind: "success",
    key: "did:issue.done",
  });
}

export default function IssueRoleCredential() {
  const { issuerDids, participants } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("did");
  const [form, fields] = useSchemaForm(roleIssueSchema, actionData?.result, {
    id: "issue-role",
    defaultValue: { validDays: String(VALID_DAYS_DEFAULT) },
  });
  const ready = issuerDids.length > 0 && participants.length > 0;
  return (
    <div className="max-w-2xl space-y-4">
      <PageHeader title={t("issue.title")} />
      <p className="text-sm text-slate-600">{t("issue.intro")}</p>
      {!ready ? (
        <div className="card space-y-2 text-sm text-slate-600" data-testid="issue-unavailable">
          {issuerDids.length === 0 ? (
            <p>
              {t("issue.noIssuer")}{" "}
              <Link className="link" to={`${DID_HOME}/New`}>
                {t("list.new")}
              </Link>
            </p>
          ) : null}
          {participants.length === 0 ? <p>{t("credentials.noParticipants")}</p> : null}
        </div>
      ) : (
        <div className="card">
          <FormProvider context={form.context}>
            <Form method="post" {...getFormProps(form)} className="space-y-5">
              <FormErrors id={form.errorId} errors={form.errors} />
              <SelectField
                field={fields.issuerDidId as unknown as FieldMetadata<string | number | undefined>}
                label={t("issue.issuer")}
                placeholder={t("form.choose")}
                options={issuerDids.map((d) => ({ value: String(d.didId), label: `${d.label} · ${d.did}` }))}
              />
              <SelectField
                field={fields.appJoinAuditId as unknown as FieldMetadata<string | number | undefined>}
                label={t("issue.participant")}
                placeholder={t("form.choose")}
                options={participants.map((p) => ({
                  value: String(p.appJoinAuditId),
                  label: t("issue.participantOption", { user: p.userName, service: p.appName, role: p.roleName }),
                }))}
              />
              <TextField
                field={fields.subjectDid}
                label={t("issue.subject")}
                hint={t("issue.subjectHint")}
                autoComplete="off"
              />
              <TextField
                field={fields.validDays as unknown as FieldMetadata<string | undefined>}
                label={t("issue.validDays")}
                type="number"
              />
              <div className="flex justify-end gap-2">
                <Link to={`${DID_HOME}/Credentials`} className="btn-secondary">
                  {t("common:actions.cancel")}
                </Link>
                <SubmitButton className="btn-primary">{t("issue.submit")}</SubmitButton>
              </div>
            </Form>
          </FormProvider>
        </div>
      )}
    </div>
  );
}
