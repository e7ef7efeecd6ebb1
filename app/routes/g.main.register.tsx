import { FormProvider, getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { LICENCE_EXTENSIONS, licenceProblem, registerFieldsSchema, USER_TYPE } from "#contract/accounts.ts";
import { Captcha } from "#app/components/Captcha.tsx";
import { CheckboxField, FileField, TextField } from "#app/components/forms.tsx";
import { FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { apiFor, requireAnonymous } from "#app/lib/api.server.ts";
import { loadCaptcha } from "#app/lib/captcha.server.ts";
import { formFailureStatus, replyWithFailure } from "#app/lib/forms.server.ts";
import { parseFormWithUploads, uploadError, uploadRef } from "#app/lib/uploads.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = { i18n: ["auth"] };
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("register");

const HIDDEN = ["captcha"];

export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireAnonymous(request);
  const type =
    new URL(request.url).searchParams.get("type") === "enterprise" ? USER_TYPE.ENTERPRISE : USER_TYPE.INDIVIDUAL;
  return json({ type, captcha: await loadCaptcha(apiFor(request, viewer, { portalPage: true })) });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireAnonymous(request);
  const api = apiFor(request, viewer, { portalPage: true });
  // The licence is streamed to the backend while the form is read (docs/decisions/023).
  const { formData, uploads } = await parseFormWithUploads(request, api, {
    licence: { kind: "licence", problem: licenceProblem, tooLarge: "validation.licence.tooLarge" },
  });
  const submission = parseWithZod(formData, { schema: registerFieldsSchema });
  const isEnterprise = formData.get("userType") === USER_TYPE.ENTERPRISE;
  const licenceError = isEnterprise ? uploadError(uploads.licence, "validation.licence.required") : null;

  if (submission.status !== "success" || licenceError) {
    const fieldErrors: Record<string, string[]> = {};
    if (submission.status === "error") {
      for (const [name, keys] of Object.entries(submission.error ?? {})) if (keys) fieldErrors[name] = keys;
    }
    if (licenceError) fieldErrors.licence = [licenceError];
    return json({ result: submission.reply({ fieldErrors, hideFields: HIDDEN }) }, { status: 400 });
  }

  const payload = { payload: submission.value, licence: isEnterprise ? uploadRef(uploads.licence) : undefined };
  const result = await api.call("/anon/user/register", payload);
  if (!result.ok) {
    return json(
      { result: replyWithFailure(submission, result, { hideFields: HIDDEN, fieldPrefix: "payload." }) },
      { status: formFailureStatus(result) },
    );
  }
  return redirect(`/g/main/UserActivation?${new URLSearchParams({ sent: "1", email: result.data.email })}`);
}

export default function RegisterPage() {
  const { type, captcha } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("auth");
  const [form, fields] = useSchemaForm(registerFieldsSchema, actionData?.result, {
    id: `register-${type}`,
    defaultValue: { userType: type },
  });
  const f = fields as unknown as Record<string, Parameters<typeof TextField>[0]["field"]>;
  const enterprise = type === USER_TYPE.ENTERPRISE;
  const tabs = [
    { key: "individual", active: !enterprise, label: t("register.individual") },
    { key: "enterprise", active: enterprise, label: t("register.enterprise") },
  ];
  return (
    <div className="mx-auto w-full max-w-2xl px-4 py-10">
      <div className="card">
        <h1 className="text-2xl font-semibold">{t("register.title")}</h1>
        <p className="mt-1 text-sm text-slate-600">{t("register.intro")}</p>
        <nav aria-label={t("register.accountType")} className="mt-6 flex gap-2 border-b border-slate-200">
          {tabs.map((tab) => (
            <Link
              key={tab.key}
              to={`?type=${tab.key}`}
              replace
              aria-current={tab.active ? "page" : undefined}
              className={`-mb-px border-b-2 px-4 py-2 text-sm ${tab.active ? "border-brand-600 font-semibold text-brand-700" : "border-transparent text-slate-600"}`}
            >
              {tab.label}
            </Link>
          ))}
        </nav>
        <FormProvider context={form.context}>
          <Form
            method="post"
            encType="multipart/form-data"
            {...getFormProps(form)}
            className="mt-6 grid gap-4 md:grid-cols-2"
          >
            <div className="md:col-span-2">
              <FormErrors id={form.errorId} errors={form.errors} />
            </div>
            <input type="hidden" name="userType" value={type} />
            <TextField
              field={f.userName}
              label={t("register.userName")}
              hint={t("register.userNameHint")}
              autoComplete="username"
            />
            <TextField
              field={f.realName}
              label={t("register.realName")}
              hint={t("register.realNameHint")}
              autoComplete="name"
            />
            <TextField
              field={f.password}
              label={t("register.password")}
              type="password"
              hint={t("passwordRule")}
              autoComplete="new-password"
            />
            <TextField
              field={f.confirmPassword}
              label={t("register.confirmPassword")}
              type="password"
              autoComplete="new-password"
            />
            <TextField field={f.email} label={t("register.email")} type="email" autoComplete="email" />
            <TextField
              field={f.mobile}
              label={t("register.mobile")}
              type="tel"
              hint={t("register.mobileHint")}
              autoComplete="tel"
            />
            {enterprise ? (
              <fieldset className="grid gap-4 md:col-span-2 md:grid-cols-2">
                <legend className="mb-2 text-sm font-semibold text-slate-900">{t("register.companySection")}</legend>
                <TextField field={f.companyName} label={t("register.companyName")} autoComplete="organization" />
                <TextField field={f.creditCode} label={t("register.creditCode")} hint={t("register.creditCodeHint")} />
                <TextField
                  field={f.companyAddress}
                  label={t("register.companyAddress")}
                  className="md:col-span-2"
                  autoComplete="street-address"
                />
                <TextField field={f.contactName} label={t("register.contactName")} />
                <TextField field={f.country} label={t("register.country")} autoComplete="country-name" />
                <div className="md:col-span-2">
                  <FileField
                    name="licence"
                    label={t("register.licence")}
                    hint={t("register.licenceHint")}
                    accept={LICENCE_EXTENSIONS.join(",")}
                    errors={f.licence?.errors}
                  />
                </div>
              </fieldset>
            ) : null}
            <div className="md:col-span-2">
              <Captcha captcha={captcha} field={f.captcha} />
            </div>
            <div className="space-y-2 md:col-span-2">
              <CheckboxField field={f.agreeTerms}>
                {t("register.agreeTermsPrefix")}{" "}
                <Link to="/g/main/PrivateAgreement" target="_blank" className="link">
                  {t("register.terms")}
                </Link>
              </CheckboxField>
              <CheckboxField field={f.agreePrivacy}>
                {t("register.agreePrivacyPrefix")}{" "}
                <Link to="/g/main/PrivacyStatement" target="_blank" className="link">
                  {t("register.privacy")}
                </Link>
              </CheckboxField>
            </div>
            <div className="md:col-span-2">
              <SubmitButton>{t("register.submit")}</SubmitButton>
              <p className="mt-3 text-center text-sm">
                {t("register.haveAccount")}{" "}
                <Link to="/g/main/Login/Logins" className="link">
                  {t("register.login")}
                </Link>
              </p>
            </div>
          </Form>
        </FormProvider>
      </div>
    </div>
  );
}
