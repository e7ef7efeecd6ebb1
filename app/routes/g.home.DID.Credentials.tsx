import { CertState } from "#contract/certification.ts";
import { FormProvider, getFormProps, type FieldMetadata } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { enterpriseRequestSchema } from "#contract/did.ts";
import { FilterPills } from "#app/components/FilterPills.tsx";
import { SelectField } from "#app/components/forms.tsx";
import { FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { Pagination } from "#app/components/Pagination.tsx";
import { DidTabs } from "#app/components/did/views.tsx";
import { DID_HOME, credentialHref } from "#app/lib/did-urls.ts";
import { CredentialTable } from "#app/components/did/credentials.tsx";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { replyWithFailure } from "#app/lib/forms.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { oneOf, pageParam } from "#app/lib/params.ts";
import { redirectWithFlash } from "#app/lib/session.server.ts";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["did", "services"],
  breadcrumb: [{ key: "titles.did", to: DID_HOME }, { key: "titles.didCredentials" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("didCredentials");

const PAGE_SIZE = 10;
const SIDES = ["issued", "received"] as const;

/** Credentials issued by the user and to them (`?side=`), the enterprise credential to ask for, and the way to issue role credentials. */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const url = new URL(request.url);
  const side = oneOf(SIDES, url.searchParams.get("side")) ?? "received";
  const api = apiFor(request, viewer);
  const [list, options] = await Promise.all([
    api.load(side === "issued" ? "/sys/did/credentials/issued" : "/sys/did/credentials/received", {
      pageIndex: pageParam(url),
      pageSize: PAGE_SIZE,
    }),
    api.load("/sys/did/credentials/options", {}),
  ]);
  return json({
    side,
    page: list.page,
    ownDids: options.ownDids,
    certified: options.certifiedEnterprise,
    certState: options.userType === 2 ? options.certState : null,
    canIssue: options.participants.length > 0,
    language: viewer.language,
  });
}

/** The platform's "enterprise certified" credential to one of the user's DIDs. */
export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const submission = parseWithZod(await request.formData(), { schema: enterpriseRequestSchema });
  if (submission.status !== "success") return json({ result: submission.reply() }, { status: 400 });
  const result = await apiFor(request, viewer).call("/sys/did/credentials/requestEnterprise", submission.value);
  if (!result.ok)
    return json({ result: replyWithFailure(submission, result) }, { status: result.status === 404 ? 404 : 400 });
  return redirectWithFlash(request, credentialHref(result.data.credentialId), {
    kind: "success",
    key: "did:enterprise.done",
  });
}

export default function Credentials() {
  const { side, page, ownDids, certified, certState, canIssue, language } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("did");
  const [form, fields] = useSchemaForm(enterpriseRequestSchema, actionData?.result, { id: "enterprise" });
  return (
    <div className="space-y-6">
      <PageHeader
        title={t("credentials.title")}
        description={t("credentials.intro")}
        actions={
          <>
            {canIssue ? (
              <Link to={`${DID_HOME}/Issue`} className="btn-primary">
                {t("credentials.issue")}
              </Link>
            ) : null}
          </>
        }
      />
      <DidTabs />
      {!canIssue ? (
        <p className="text-sm text-slate-600" data-testid="no-participants">
          {t("credentials.noParticipants")}
        </p>
      ) : null}
      <FilterPills
        label={t("credentials.side")}
        links={SIDES.map((s) => ({
          key: s,
          to: `?side=${s}`,
          label: t(`credentials.sides.${s}`),
          current: s === side,
        }))}
      />
      {page.rows.length === 0 ? (
        <div className="card text-center text-slate-600" data-testid="empty">
          {t(`credentials.empty.${side}`)}
        </div>
      ) : (
        <CredentialTable rows={page.rows} language={language} side={side} />
      )}
      <Pagination pageIndex={page.pageIndex} pageSize={page.pageSize} total={page.total} />
      <section className="card max-w-2xl space-y-3" aria-labelledby="enterprise-title">
        <h2 id="enterprise-title" className="text-lg font-semibold">
          {t("enterprise.title")}
        </h2>
        {!certified ? (
          <p className="text-sm text-slate-600" data-testid="not-certified">
            {certState === CertState.PENDING || certState === CertState.REJECTED ? (
              <>
                {t(certState === CertState.PENDING ? "enterprise.certPending" : "enterprise.certRejected")}{" "}
                <Link className="link" to="/g/home/userCenter/certification">
                  {t("enterprise.certPage")}
                </Link>
              </>
            ) : (
              t("enterprise.notCertified")
            )}
          </p>
        ) : ownDids.length === 0 ? (
          <p className="text-sm text-slate-600">
            {t("enterprise.noDid")}{" "}
            <Link className="link" to={`${DID_HOME}/New`}>
              {t("list.new")}
            </Link>
          </p>
        ) : (
          <FormProvider context={form.context}>
            <p className="text-sm text-slate-600">{t("enterprise.intro")}</p>
            <Form method="post" {...getFormProps(form)} className="space-y-4">
              <FormErrors id={form.errorId} errors={form.errors} />
              <SelectField
                field={fields.subjectDidId as unknown as FieldMetadata<string | number | undefined>}
                label={t("enterprise.subject")}
                placeholder={t("form.choose")}
                options={ownDids.map((d) => ({ value: String(d.didId), label: `${d.label} · ${d.did}` }))}
              />
              <SubmitButton className="btn-primary">{t("enterprise.submit")}</SubmitButton>
            </Form>
          </FormProvider>
        )}
      </section>
    </div>
  );
}
