import { FormProvider, getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { resetPasswordSchema } from "#contract/accounts.ts";
import { TextField } from "#app/components/forms.tsx";
import { FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { apiFor, requireAnonymous } from "#app/lib/api.server.ts";
import { formFailureStatus, replyWithFailure } from "#app/lib/forms.server.ts";
import { redirectWithFlash } from "#app/lib/session.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";

export const meta = pageTitle("setPassword");

/** SPEC §2 SetPassWord (query phone, captcha, retrieveWay): the new password, same rule as registration. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous(request);
  const url = new URL(request.url);
  const phone = url.searchParams.get("phone");
  const captcha = url.searchParams.get("captcha");
  const retrieveWay = url.searchParams.get("retrieveWay");
  if (!phone || !captcha || !retrieveWay) throw redirect("/g/main/Login/Forget");
  return json({ phone, captcha, retrieveWay });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireAnonymous(request);
  const submission = parseWithZod(await request.formData(), { schema: resetPasswordSchema });
  if (submission.status !== "success") return json({ result: submission.reply() }, { status: 400 });
  const result = await apiFor(request, viewer, { portalPage: true }).call(
    "/main/updateEmailPassword",
    submission.value,
  );
  if (!result.ok) return json({ result: replyWithFailure(submission, result) }, { status: formFailureStatus(result) });
  return redirectWithFlash(request, "/g/main/Login/Logins", { kind: "success", key: "auth:setPassword.done" });
}

export default function SetPasswordPage() {
  const { phone, captcha, retrieveWay } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("auth");
  const [form, fields] = useSchemaForm(resetPasswordSchema, actionData?.result, { id: "set-password" });
  return (
    <div className="card">
      <p className="text-xs font-medium uppercase tracking-wide text-brand-600">
        {t("forget.step", { step: 3, total: 3 })}
      </p>
      <h1 className="mt-1 text-2xl font-semibold">{t("setPassword.title")}</h1>
      <FormProvider context={form.context}>
        <Form method="post" {...getFormProps(form)} className="mt-6 space-y-4">
          <FormErrors id={form.errorId} errors={[...(form.errors ?? []), ...(fields.captcha.errors ?? [])]} />
          <input type="hidden" name="phone" value={phone} />
          <input type="hidden" name="captcha" value={captcha} />
          <input type="hidden" name="retrieveWay" value={retrieveWay} />
          <TextField
            field={fields.password}
            label={t("setPassword.password")}
            type="password"
            autoComplete="new-password"
            hint={t("passwordRule")}
          />
          <TextField
            field={fields.confirmPassword}
            label={t("setPassword.confirm")}
            type="password"
            autoComplete="new-password"
          />
          <SubmitButton>{t("setPassword.submit")}</SubmitButton>
        </Form>
      </FormProvider>
    </div>
  );
}
