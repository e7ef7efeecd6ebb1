import { FormProvider, getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { forgetSchema, RETRIEVE_WAY } from "#contract/accounts.ts";
import { Captcha } from "#app/components/Captcha.tsx";
import { TextField } from "#app/components/forms.tsx";
import { FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { apiFor, requireAnonymous } from "#app/lib/api.server.ts";
import { loadCaptcha } from "#app/lib/captcha.server.ts";
import { formFailureStatus, replyWithFailure } from "#app/lib/forms.server.ts";
import { redirectWithFlash } from "#app/lib/session.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";

export const meta = pageTitle("forget");

export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireAnonymous(request);
  return json({ captcha: await loadCaptcha(apiFor(request, viewer, { portalPage: true })) });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireAnonymous(request);
  const submission = parseWithZod(await request.formData(), { schema: forgetSchema });
  if (submission.status !== "success") {
    return json({ result: submission.reply({ hideFields: ["captcha"] }) }, { status: 400 });
  }
  const result = await apiFor(request, viewer, { portalPage: true }).call(
    "/anon/password/sendResetCode",
    submission.value,
  );
  if (!result.ok)
    return json(
      { result: replyWithFailure(submission, result, { hideFields: ["captcha"] }) },
      { status: formFailureStatus(result) },
    );
  const query = new URLSearchParams({ phone: result.data.phone, retrieveWay: RETRIEVE_WAY.EMAIL });
  return redirectWithFlash(request, `/g/main/Login/forgetTwo?${query}`, {
    kind: "info",
    key: "auth:forget.codeSent",
    params: { email: result.data.maskedEmail },
  });
}

export default function ForgetPage() {
  const { captcha } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("auth");
  const [form, fields] = useSchemaForm(forgetSchema, actionData?.result, { id: "forget" });
  return (
    <div className="card">
      <p className="text-xs font-medium uppercase tracking-wide text-brand-600">
        {t("forget.step", { step: 1, total: 3 })}
      </p>
      <h1 className="mt-1 text-2xl font-semibold">{t("forget.title")}</h1>
      <p className="mt-1 text-sm text-slate-600">{t("forget.intro")}</p>
      <FormProvider context={form.context}>
        <Form method="post" {...getFormProps(form)} className="mt-6 space-y-4">
          <FormErrors id={form.errorId} errors={form.errors} />
          <input type="hidden" name="retrieveWay" value={RETRIEVE_WAY.EMAIL} />
          <TextField
            field={fields.phone}
            label={t("forget.account")}
            hint={t("forget.accountHint")}
            autoComplete="username"
          />
          <Captcha captcha={captcha} field={fields.captcha} />
          <SubmitButton>{t("forget.submit")}</SubmitButton>
        </Form>
      </FormProvider>
      <p className="mt-4 text-sm">
        <Link to="/g/main/Login/Logins" className="link">
          {t("forget.backToLogin")}
        </Link>
      </p>
    </div>
  );
}
