import { FormProvider, getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import {
  enterpriseProfileSchema,
  individualProfileSchema,
  STAFF_OPTIONS,
  TERM_OPTIONS,
  type Profile,
} from "#contract/profile.ts";
import { SelectField, TextAreaField, TextField } from "#app/components/forms.tsx";
import { FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { BoundAddresses } from "#app/components/ddc/Bindings.tsx";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { unbindIntent } from "#app/lib/bindings.server.ts";
import { replyWithFailure } from "#app/lib/forms.server.ts";
import { intentOf } from "#app/lib/intents.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { redirectWithFlash } from "#app/lib/session.server.ts";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["profile", "ddc"],
  breadcrumb: [{ key: "menu.userCenter" }, { key: "menu.information" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("information");

const schemaFor = (userType: 1 | 2) => (userType === 2 ? enterpriseProfileSchema : individualProfileSchema);

/** SPEC §2 userCenter/information: basic information (§3 Profile, §5 Profile rules). */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const api = apiFor(request, viewer);
  const [profile, bindings] = await Promise.all([
    api.load("/sys/system/clientInfo/profile", {}),
    api.load("/sys/binding/list", {}),
  ]);
  return json({ profile, bindings: bindings.rows, language: viewer.language });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const formData = await request.formData();
  // Bound addresses (docs/decisions/045) are unbound here too; the profile form posts no intent.
  if (formData.has("intent") && intentOf(formData, ["unbind"]) === "unbind")
    return unbindIntent(request, apiFor(request, viewer), formData, "/g/home/userCenter/information");
  // The account type is in the session (set at login); the backend checks the fields by type again.
  const submission = parseWithZod(formData, { schema: schemaFor(viewer.user.userType === 2 ? 2 : 1) });
  if (submission.status !== "success") return json({ result: submission.reply() }, { status: 400 });
  const result = await apiFor(request, viewer).call("/sys/system/clientInfo/updateProfile", submission.value);
  if (!result.ok) return json({ result: replyWithFailure(submission, result) }, { status: 400 });
  return redirectWithFlash(request, "/g/home/userCenter/information", {
    kind: "success",
    key: "profile:information.saved",
  });
}

/** A field as entered; `words` when the value is the page's own words (marked as user data otherwise). */
function ReadOnly({
  label,
  value,
  words,
  children,
}: {
  label: string;
  value: string | null;
  words?: boolean;
  children?: React.ReactNode;
}) {
  return (
    <div>
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="mt-1 text-sm text-slate-900">
        <span data-user-content={words ? undefined : ""}>{value || "—"}</span>
        {children}
      </dd>
    </div>
  );
}

function defaults(p: Profile) {
  const d: Record<string, string> = {};
  for (const [k, v] of Object.entries(p)) if (typeof v === "string") d[k] = v;
  return d;
}

export default function InformationPage() {
  const { profile, bindings, language } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("profile");
  const enterprise = profile.userType === 2;
  const schema = schemaFor(profile.userType);
  const result = actionData && "result" in actionData ? actionData.result : undefined;
  const [form, fields] = useSchemaForm(schema, result, { id: "profile", defaultValue: defaults(profile) });
  const f = fields as unknown as Record<string, Parameters<typeof TextField>[0]["field"]>;
  const support = (
    <Link to="/g/main/contactUs" className="link ml-2 text-xs">
      {t("information.viaSupport")}
    </Link>
  );
  return (
    <div className="space-y-6">
      <PageHeader title={t("information.title")} />
      <section className="card" aria-labelledby="account-heading">
        <h2 id="account-heading" className="text-base font-semibold">
          {t("information.account")}
        </h2>
        <dl className="mt-4 grid gap-4 sm:grid-cols-2">
          <ReadOnly label={t("information.userName")} value={profile.userName} />
          <ReadOnly label={t("information.membership")} value={t(`common:userType.${profile.userType}`)} words />
          <ReadOnly label={t("information.realName")} value={profile.realName} />
          <ReadOnly label={t("information.email")} value={profile.email}>
            {support}
          </ReadOnly>
          <ReadOnly label={t("information.mobile")} value={profile.mobile}>
            {support}
          </ReadOnly>
          {enterprise ? (
            <>
              <ReadOnly label={t("information.companyName")} value={profile.companyName} />
              <ReadOnly label={t("information.creditCode")} value={profile.creditCode}>
                {" "}
                <Link className="link text-xs" to="/g/home/userCenter/certification">
                  {t("certification.link")}
                </Link>
              </ReadOnly>
            </>
          ) : null}
        </dl>
        <p className="mt-4 text-xs text-slate-500">{t("information.fixedHint")}</p>
      </section>
      <FormProvider context={form.context}>
        <Form method="post" {...getFormProps(form)} className="card space-y-4">
          <h2 className="text-base font-semibold">{t(enterprise ? "information.company" : "information.personal")}</h2>
          <FormErrors id={form.errorId} errors={form.errors} />
          <TextField field={f.country} label={t("information.country")} autoComplete="country-name" />
          <TextAreaField
            field={f.selfIntroduction}
            label={t("information.selfIntroduction")}
            hint={t("information.max", { max: 500 })}
          />
          {enterprise ? (
            <>
              <div className="grid gap-4 sm:grid-cols-2">
                <SelectField
                  field={f.termOfBusiness}
                  label={t("information.termOfBusiness")}
                  placeholder={t("information.choose")}
                  options={TERM_OPTIONS.map((v) => ({ value: v, label: t(`information.terms.${v}`) }))}
                />
                <SelectField
                  field={f.staffCount}
                  label={t("information.staffCount")}
                  placeholder={t("information.choose")}
                  options={STAFF_OPTIONS.map((v) => ({ value: v, label: t(`information.staff.${v}`) }))}
                />
              </div>
              <TextAreaField
                field={f.companyProfile}
                label={t("information.companyProfile")}
                hint={t("information.max", { max: 1000 })}
              />
              <TextAreaField field={f.businessInformation} label={t("information.businessInformation")} rows={3} />
              <TextField field={f.mainBusiness} label={t("information.mainBusiness")} />
              <TextField
                field={f.companyAddress}
                label={t("information.companyAddress")}
                autoComplete="street-address"
              />
              <div className="grid gap-4 sm:grid-cols-2">
                <TextField field={f.contactName} label={t("information.contactName")} autoComplete="name" />
                <TextField field={f.fax} label={t("information.fax")} type="tel" />
              </div>
              <TextField field={f.companyUrl} label={t("information.companyUrl")} type="url" autoComplete="url" />
            </>
          ) : null}
          <div className="flex justify-end">
            <SubmitButton className="btn-primary">{t("information.save")}</SubmitButton>
          </div>
        </Form>
      </FormProvider>
      <BoundAddresses
        rows={bindings}
        language={language}
        action="/g/home/userCenter/information"
        confirm={actionData && "unbindConfirm" in actionData ? actionData.unbindConfirm : null}
      />
    </div>
  );
}
