import { FormProvider, getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { secondFactorSchema } from "#contract/operator-auth.ts";
import { TextField } from "#app/components/forms.tsx";
import { FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { badRequest } from "#app/lib/api.server.ts";
import { replyWithFailure } from "#app/lib/forms.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { cancelLogin, completeLogin, requirePendingLogin } from "#app/lib/second-factor.server.ts";
import { redirectWithFlash } from "#app/lib/session.server.ts";

export const meta = pageTitle("twoFactor");

/**
 * The second step of an operator's login (docs/decisions/022): a 6-digit code of the authenticator app or
 * one of the recovery codes. Until it is passed the session opens nothing else.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { pending } = await requirePendingLogin(request, "verify");
  return json({ userName: pending.user.userName });
}

export async function action({ request }: ActionFunctionArgs) {
  const { api } = await requirePendingLogin(request, "verify");
  const formData = await request.formData();
  const intent = formData.get("intent") ?? "verify";
  if (intent === "cancel") return cancelLogin(request, api);
  if (intent !== "verify") throw badRequest();
  const submission = parseWithZod(formData, { schema: secondFactorSchema });
  if (submission.status !== "success") return json({ result: submission.reply() }, { status: 400 });
  const result = await api.call("/main/mfa/verify", submission.value);
  if (!result.ok) return json({ result: replyWithFailure(submission, result) }, { status: 400 });
  const { cookie, returnTo } = await completeLogin(request);
  if (result.data.method === "recovery") {
    return redirectWithFlash(
      request,
      returnTo,
      { kind: "info", key: "secondFactor.recoveryUsed", params: { left: String(result.data.recoveryCodesLeft) } },
      [cookie],
    );
  }
  return redirectWithFlash(request, returnTo, { kind: "success", key: "secondFactor.verified" }, [cookie]);
}

export default function TwoFactorPage() {
  const { userName } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("auth");
  const [form, fields] = useForm({
    id: "two-factor",
    lastResult: actionData?.result,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: secondFactorSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  return (
    <div className="card">
      <p className="text-xs font-medium uppercase tracking-wide text-brand-600">{t("twoFactor.step")}</p>
      <h1 className="mt-1 text-2xl font-semibold">{t("twoFactor.title")}</h1>
      <p className="mt-1 text-sm text-slate-600">{t("twoFactor.intro", { userName })}</p>
      <FormProvider context={form.context}>
        <Form method="post" {...getFormProps(form)} className="mt-6 space-y-4">
          <FormErrors id={form.errorId} errors={form.errors} />
          <TextField
            field={fields.code}
            label={t("twoFactor.code")}
            hint={t("twoFactor.codeHint")}
            autoComplete="one-time-code"
          />
          <SubmitButton intent="verify">{t("twoFactor.submit")}</SubmitButton>
        </Form>
      </FormProvider>
      <Form method="post" className="mt-4 text-sm">
        <button type="submit" name="intent" value="cancel" className="link">
          {t("twoFactor.cancel")}
        </button>
      </Form>
    </div>
  );
}
