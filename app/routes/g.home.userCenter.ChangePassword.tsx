import { FormProvider, getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { changePasswordSchema } from "#contract/accounts.ts";
import { TextField } from "#app/components/forms.tsx";
import { FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { replyWithFailure } from "#app/lib/forms.server.ts";
import { redirectWithFlash } from "#app/lib/session.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["auth"],
  breadcrumb: [{ key: "menu.userCenter" }, { key: "menu.changePassword" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("changePassword");

export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  return json({ userName: viewer.user.userName });
}

/** SPEC §5 Change password, checked here and again by the backend. */
export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const submission = parseWithZod(await request.formData(), { schema: changePasswordSchema(viewer.user.userName) });
  if (submission.status !== "success") return json({ result: submission.reply() }, { status: 400 });
  const result = await apiFor(request, viewer).call("/main/updatePassword", submission.value);
  if (!result.ok) return json({ result: replyWithFailure(submission, result) }, { status: 400 });
  return redirectWithFlash(request, "/g/home/index", { kind: "success", key: "auth:changePassword.done" });
}

export default function ChangePasswordPage() {
  const { userName } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("auth");
  const schema = useMemo(() => changePasswordSchema(userName), [userName]);
  const [form, fields] = useSchemaForm(schema, actionData?.result, { id: "change-password" });
  return (
    <div className="card max-w-lg">
      <PageHeader title={t("changePassword.title")} />
      <FormProvider context={form.context}>
        <Form method="post" {...getFormProps(form)} className="mt-6 space-y-4">
          <FormErrors id={form.errorId} errors={form.errors} />
          <TextField
            field={fields.oldPassword}
            label={t("changePassword.old")}
            type="password"
            autoComplete="current-password"
          />
          <TextField
            field={fields.password}
            label={t("changePassword.new")}
            type="password"
            autoComplete="new-password"
            hint={t("changePassword.rule")}
          />
          <TextField
            field={fields.confirmPassword}
            label={t("changePassword.confirm")}
            type="password"
            autoComplete="new-password"
          />
          <SubmitButton>{t("changePassword.submit")}</SubmitButton>
        </Form>
      </FormProvider>
    </div>
  );
}
