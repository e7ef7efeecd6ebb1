import { FormProvider, getFormProps, getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { projectCreateSchema } from "#contract/public-chain.ts";
import { PlanStatus } from "#contract/public-chain-codes.ts";
import { SelectField, TextField } from "#app/components/forms.tsx";
import { FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { inLanguage } from "#app/components/details.tsx";
import { PC, projectHref } from "#app/lib/public-chain-urls.ts";
import { apiFor, notFound, requireUser } from "#app/lib/api.server.ts";
import { replyWithFailure } from "#app/lib/forms.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { positiveId } from "#app/lib/params.ts";
import { redirectWithFlash } from "#app/lib/session.server.ts";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["publicChain", "services"],
  breadcrumb: [
    { key: "menu.permissionlessServices", to: PC },
    { key: "titles.publicChainHome", to: `${PC}/Home` },
    { key: "titles.publicChainNewProject" },
  ],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("publicChainNewProject");

/**
 * SPEC §2 "create project", §5 Public-chain project: name required and unique, framework required, daily
 * requests within the plan's range, the plan's project maximum; the backend checks each again (§8 texts).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const planId = positiveId(new URL(request.url).searchParams.get("planId"));
  if (!planId) throw notFound();
  const api = apiFor(request, viewer);
  const plan = (await api.load("/sys/opc/plan/list", {})).find((p) => p.planId === planId);
  if (!plan) throw notFound();
  const orgs = await api.load("/sys/pubChainOrg/queryPubOrgList", {
    page: { pageSize: 1, pageIndex: 1, condition: { orgId: plan.orgId } },
  });
  const org = orgs.page.rows[0];
  if (!org) throw notFound();
  return json({
    plan,
    limits: { min: org.haveDayMinReq, max: org.haveDayMaxReq, frameworks: org.frameworks },
    language: viewer.language,
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const submission = parseWithZod(await request.formData(), { schema: projectCreateSchema });
  if (submission.status !== "success") return json({ result: submission.reply() }, { status: 400 });
  const result = await apiFor(request, viewer).call("/sys/opc/project/create", submission.value);
  if (!result.ok)
    return json({ result: replyWithFailure(submission, result) }, { status: result.status === 404 ? 404 : 400 });
  return redirectWithFlash(request, projectHref(result.data.projectId), {
    kind: "success",
    key: "publicChain:create.done",
    params: { name: result.data.name },
  });
}

export default function NewProject() {
  const { plan, limits, language } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("publicChain");
  const [form, fields] = useSchemaForm(projectCreateSchema, actionData?.result, {
    id: "new-project",
    defaultValue: {
      planId: String(plan.planId),
      framework: limits.frameworks.length === 1 ? limits.frameworks[0] : "",
      dailyRequests: String(limits.min),
    },
  });
  const planName = `${inLanguage(plan.planName, plan.planNameZh, language)} · ${inLanguage(plan.orgName, plan.orgNameZh, language)}`;
  const closed = plan.status !== PlanStatus.ACTIVE;
  return (
    <div className="max-w-xl space-y-4">
      <PageHeader title={t("create.title")} />
      <p className="text-sm text-slate-600">
        {t("create.plan", { plan: planName, used: plan.projectNum, count: plan.projectMax })}
      </p>
      {closed ? <FormErrors errors={["errors:MSG_42003"]} /> : null}
      <div className="card">
        <FormProvider context={form.context}>
          <Form method="post" {...getFormProps(form)} className="space-y-4">
            <FormErrors id={form.errorId} errors={form.errors} />
            <input {...getInputProps(fields.planId, { type: "hidden" })} key={fields.planId.key} />
            <TextField field={fields.name} label={t("create.name")} hint={t("create.nameHint")} autoComplete="off" />
            <SelectField
              field={fields.framework}
              label={t("create.framework")}
              placeholder={t("create.chooseFramework")}
              options={limits.frameworks.map((f) => ({ value: f, label: t(`framework.${f}`, { defaultValue: f }) }))}
            />
            <TextField
              field={fields.dailyRequests}
              label={t("create.daily")}
              type="number"
              hint={t("create.dailyHint", {
                min: limits.min.toLocaleString(language),
                max: limits.max.toLocaleString(language),
              })}
              autoComplete="off"
            />
            <div className="flex justify-end gap-2">
              <Link to={`${PC}/Home`} className="btn-secondary">
                {t("common:actions.cancel")}
              </Link>
              <SubmitButton className="btn-primary">{t("create.submit")}</SubmitButton>
            </div>
          </Form>
        </FormProvider>
      </div>
    </div>
  );
}
