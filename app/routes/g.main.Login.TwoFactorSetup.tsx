import { FormProvider, getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, type ShouldRevalidateFunction } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { enrolConfirmSchema } from "#contract/operator-auth.ts";
import { TextField } from "#app/components/forms.tsx";
import { FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { badRequest } from "#app/lib/api.server.ts";
import { replyWithFailure } from "#app/lib/forms.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { cancelLogin, completeLogin, requirePendingLogin, toVerifyStep } from "#app/lib/second-factor.server.ts";

export const meta = pageTitle("twoFactorSetup");

/**
 * An operator without a second factor enrols before anything else works (docs/decisions/022): scan the QR
 * code (or type the key) into an authenticator app, confirm one code, then save the recovery codes, which
 * are shown in the answer to that form and never again.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { pending, api } = await requirePendingLogin(request, "enrol");
  const enrolment = await api.load("/main/mfa/enrolment", {});
  return json({ userName: pending.user.userName, enrolment });
}

export async function action({ request }: ActionFunctionArgs) {
  const { api } = await requirePendingLogin(request, "enrol");
  const formData = await request.formData();
  const intent = formData.get("intent") ?? "confirm";
  if (intent === "cancel") return cancelLogin(request, api);
  if (intent === "toVerify") return toVerifyStep(request);
  if (intent !== "confirm") throw badRequest();
  const submission = parseWithZod(formData, { schema: enrolConfirmSchema });
  if (submission.status !== "success")
    return json({ result: submission.reply(), recoveryCodes: null, next: null }, { status: 400 });
  const result = await api.call("/main/mfa/confirm", submission.value);
  if (!result.ok)
    return json({ result: replyWithFailure(submission, result), recoveryCodes: null, next: null }, { status: 400 });
  // Answered, not redirected: the recovery codes exist only in this answer.
  const { cookie, returnTo } = await completeLogin(request);
  return json(
    { result: null, recoveryCodes: result.data.recoveryCodes, next: returnTo },
    { headers: { "Set-Cookie": cookie, "Cache-Control": "no-store" } },
  );
}

/** Once enrolled, the session is a full one: reloading this page's data would leave before the codes are read. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionResult, defaultShouldRevalidate }) =>
  (actionResult as { recoveryCodes?: unknown } | undefined)?.recoveryCodes ? false : defaultShouldRevalidate;

/** The key in groups of four, easier to type. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(" ") ?? secret;

function RecoveryCodes({ codes, next }: { codes: string[]; next: string }) {
  const { t } = useTranslation("auth");
  return (
    <div className="card" data-testid="recovery-codes">
      <h1 className="text-2xl font-semibold">{t("twoFactorSetup.codesTitle")}</h1>
      <p className="mt-2 text-sm text-slate-600">{t("twoFactorSetup.codesIntro")}</p>
      <ol className="mt-4 grid grid-cols-2 gap-2 font-mono text-sm">
        {codes.map((code) => (
          <li key={code} className="rounded border border-slate-200 bg-slate-50 px-2 py-1">
            {code}
          </li>
        ))}
      </ol>
      <p className="mt-4 text-sm text-slate-600">{t("twoFactorSetup.codesOnce")}</p>
      <Link to={next} className="btn-primary mt-6 inline-block">
        {t("twoFactorSetup.continue")}
      </Link>
    </div>
  );
}

export default function TwoFactorSetupPage() {
  const { userName, enrolment } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("auth");
  const [form, fields] = useForm({
    id: "two-factor-setup",
    lastResult: actionData?.result,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: enrolConfirmSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  if (actionData?.recoveryCodes && actionData.next)
    return <RecoveryCodes codes={actionData.recoveryCodes} next={actionData.next} />;
  return (
    <div className="card">
      <p className="text-xs font-medium uppercase tracking-wide text-brand-600">{t("twoFactor.step")}</p>
      <h1 className="mt-1 text-2xl font-semibold">{t("twoFactorSetup.title")}</h1>
      <p className="mt-1 text-sm text-slate-600">{t("twoFactorSetup.intro", { userName })}</p>
      {enrolment.enrolled ? (
        // Enrolled meanwhile (another tab): this login gives a code like any other.
        <Form method="post" className="mt-4 space-y-3 text-sm">
          <p>{t("twoFactorSetup.alreadyEnrolled")}</p>
          <button type="submit" name="intent" value="toVerify" className="btn-primary">
            {t("twoFactorSetup.toVerify")}
          </button>
        </Form>
      ) : (
        <>
          <ol className="mt-4 list-decimal space-y-3 pl-5 text-sm text-slate-700">
            <li>
              {t("twoFactorSetup.scan")}
              <img
                src={enrolment.qrImage}
                alt={t("twoFactorSetup.qrAlt", { userName })}
                width={192}
                height={192}
                className="mt-2 h-48 w-48 border border-slate-200 bg-white"
              />
            </li>
            <li>
              {t("twoFactorSetup.typeKey")}
              <code
                data-testid="totp-secret"
                data-secret={enrolment.secret}
                className="mt-1 block break-all rounded bg-slate-100 px-2 py-1 font-mono text-sm"
              >
                {grouped(enrolment.secret)}
              </code>
              <span className="mt-1 block text-xs text-slate-500">{t("twoFactorSetup.keyHint")}</span>
            </li>
            <li>{t("twoFactorSetup.enterCode")}</li>
          </ol>
          <FormProvider context={form.context}>
            <Form method="post" {...getFormProps(form)} className="mt-4 space-y-4">
              <FormErrors id={form.errorId} errors={form.errors} />
              <TextField field={fields.code} label={t("twoFactorSetup.code")} autoComplete="one-time-code" />
              <SubmitButton intent="confirm">{t("twoFactorSetup.submit")}</SubmitButton>
            </Form>
          </FormProvider>
        </>
      )}
      <Form method="post" className="mt-4 text-sm">
        <button type="submit" name="intent" value="cancel" className="link">
          {t("twoFactor.cancel")}
        </button>
      </Form>
    </div>
  );
}
