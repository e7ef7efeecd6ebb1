import { FormProvider, getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { resetCodeSchema } from "#contract/accounts.ts";
import { TextField } from "#app/components/forms.tsx";
import { FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { apiFor, requireAnonymous } from "#app/lib/api.server.ts";
import { formFailureStatus, replyWithFailure } from "#app/lib/forms.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";

export const meta = pageTitle("forgetTwo");

/** SPEC §2 forgetTwo (query phone, retrieveWay): enter the code that was mailed. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous(request);
  const url = new URL(request.url);
  const phone = url.searchParams.get("phone");
  const retrieveWay = url.searchParams.get("retrieveWay");
  if (!phone || !retrieveWay) throw redirect("/g/main/Login/Forget");
  return json({ phone, retrieveWay });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireAnonymous(request);
  const submission = parseWithZod(await request.formData(), { schema: resetCodeSchema });
  if (submission.status !== "success") return json({ result: submission.reply() }, { status: 400 });
  const result = await apiFor(request, viewer, { portalPage: true }).call(
    "/anon/password/checkResetCode",
    submission.value,
  );
  if (!result.ok) return json({ result: replyWithFailure(submission, result) }, { status: formFailureStatus(result) });
  const query = new URLSearchParams({
    phone: submission.value.phone,
    captcha: submission.value.captcha,
    retrieveWay: submission.value.retrieveWay,
  });
  return redirect(`/g/main/Login/SetPassWord?${query}`);
}

export default function ForgetTwoPage() {
  const { phone, retrieveWay } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("auth");
  const [form, fields] = useSchemaForm(resetCodeSchema, actionData?.result, {
    id: "forget-two",
    defaultValue: { phone, retrieveWay },
  });
  return (
    <div className="card">
      <p className="text-xs font-medium uppercase tracking-wide text-brand-600">
        {t("forget.step", { step: 2, total: 3 })}
      </p>
      <h1 className="mt-1 text-2xl font-semibold">{t("forgetTwo.title")}</h1>
      <p className="mt-1 text-sm text-slate-600">{t("forgetTwo.intro", { account: phone })}</p>
      <FormProvider context={form.context}>
        <Form method="post" {...getFormProps(form)} className="mt-6 space-y-4">
          <FormErrors id={form.errorId} errors={form.errors} />
          <input type="hidden" name="phone" value={phone} />
          <input type="hidden" name="retrieveWay" value={retrieveWay} />
          <TextField field={fields.captcha} label={t("forgetTwo.code")} autoComplete="one-time-code" />
          <SubmitButton>{t("forgetTwo.submit")}</SubmitButton>
        </Form>
      </FormProvider>
      <p className="mt-4 text-sm">
        <Link to="/g/main/Login/Forget" className="link">
          {t("forgetTwo.resend")}
        </Link>
      </p>
    </div>
  );
}
