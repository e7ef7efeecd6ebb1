import { FormProvider, getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { loginSchema } from "#contract/accounts.ts";
import { Captcha } from "#app/components/Captcha.tsx";
import { TextField } from "#app/components/forms.tsx";
import { FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { apiFor, requireAnonymous, SECOND_FACTOR_PAGES } from "#app/lib/api.server.ts";
import { loadCaptcha } from "#app/lib/captcha.server.ts";
import { formFailureStatus, replyWithFailure } from "#app/lib/forms.server.ts";
import { commitSession, getSession, safeReturnTo } from "#app/lib/session.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";

export const meta = pageTitle("login");

export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireAnonymous(request);
  const api = apiFor(request, viewer, { portalPage: true });
  return json({ captcha: await loadCaptcha(api) });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireAnonymous(request);
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: loginSchema });
  if (submission.status !== "success") {
    return json({ result: submission.reply({ hideFields: ["captcha"] }) }, { status: 400 });
  }
  const api = apiFor(request, viewer, { portalPage: true });
  const result = await api.call("/main/user/login", submission.value);
  if (!result.ok) {
    return json(
      { result: replyWithFailure(submission, result, { hideFields: ["captcha"] }) },
      { status: formFailureStatus(result) },
    );
  }
  const session = await getSession(request);
  const { token, user, secondFactor } = result.data;
  session.set("token", token);
  session.set("user", {
    userId: user.userId,
    userName: user.userName,
    realName: user.realName,
    userType: user.userType,
    role: user.role,
  });
  if (secondFactor) {
    // An operator: enrol or give a code first; the page asked for is kept for after (docs/decisions/022).
    session.set("secondFactor", secondFactor);
    return redirect(SECOND_FACTOR_PAGES[secondFactor], { headers: { "Set-Cookie": await commitSession(session) } });
  }
  const returnTo = safeReturnTo(session.get("returnTo"));
  session.unset("returnTo");
  session.unset("secondFactor");
  return redirect(returnTo, { headers: { "Set-Cookie": await commitSession(session) } });
}

export default function LoginPage() {
  const { captcha } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("auth");
  const [form, fields] = useSchemaForm(loginSchema, actionData?.result, { id: "login" });
  return (
    <div className="card">
      <h1 className="text-2xl font-semibold text-slate-900">{t("login.title")}</h1>
      <p className="mt-1 text-sm text-slate-600">{t("login.subtitle")}</p>
      <FormProvider context={form.context}>
        <Form method="post" {...getFormProps(form)} className="mt-6 space-y-4">
          <FormErrors id={form.errorId} errors={form.errors} />
          <TextField field={fields.username} label={t("login.username")} autoComplete="username" />
          <TextField
            field={fields.password}
            label={t("login.password")}
            type="password"
            autoComplete="current-password"
          />
          <Captcha captcha={captcha} field={fields.captcha} />
          <SubmitButton>{t("login.submit")}</SubmitButton>
        </Form>
      </FormProvider>
      <div className="mt-4 flex justify-between text-sm">
        <Link to="/g/main/Login/Forget" className="link">
          {t("login.forgot")}
        </Link>
        <Link to="/g/main/register" className="link">
          {t("login.register")}
        </Link>
      </div>
    </div>
  );
}
