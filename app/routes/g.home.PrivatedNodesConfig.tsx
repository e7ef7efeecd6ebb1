import { FormProvider, getFormProps, getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { prnPasswordSchema } from "#contract/dedicated-nodes.ts";
import { PrnStatus } from "#contract/dedicated-nodes-codes.ts";
import { BlockedLink } from "#app/components/BlockedAction.tsx";
import { TextField } from "#app/components/forms.tsx";
import { FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { Pagination } from "#app/components/Pagination.tsx";
import { ProjectStatusBadge } from "#app/components/dedicated-nodes/badges.tsx";
import { PRN, checkHref, configHref, configNewHref } from "#app/lib/dedicated-nodes-urls.ts";
import { UpgradeTable } from "#app/components/dedicated-nodes/upgrades.tsx";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { canonicalName, prnProjectIdParam } from "#app/lib/dedicated-nodes.server.ts";
import { formFailureStatus, replyWithFailure } from "#app/lib/forms.server.ts";
import { intentOf } from "#app/lib/intents.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { pageParam } from "#app/lib/params.ts";
import { redirectWithFlash } from "#app/lib/session.server.ts";
import { blockOf } from "#app/lib/unpaid-guard.server.ts";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { EmptyState } from "#app/components/EmptyState.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["dedicatedNodes", "dedicatedNodeRules", "billing"],
  breadcrumb: [{ key: "titles.privatedNodes", to: PRN }, { key: "titles.privatedNodesConfig" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("privatedNodesConfig", (d: { project?: { name: string } }) => d.project?.name);

const PAGE_SIZE = 10;

/**
 * A project's configuration (SPEC §2 PrivatedNodesConfig (prnProjectId, prnProjectName), §4 dedicated node
 * upgrade): its upgrades (type, from → to, price difference, status, time) with pagination, the entry to a new
 * upgrade (blocked by unpaid dedicated-node bills, payType 2), and the change of the authorized password
 * (new and confirmed, §5).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const prnProjectId = prnProjectIdParam(request);
  const api = apiFor(request, viewer);
  const project = await api.load("/sys/prn/detail", { prnProjectId });
  canonicalName(request, project.name, configHref(prnProjectId, project.name));
  const [upgrades, block] = await Promise.all([
    api.load("/sys/prn/upgrade/list", {
      prnProjectId,
      pageIndex: pageParam(new URL(request.url)),
      pageSize: PAGE_SIZE,
    }),
    blockOf(api, 2),
  ]);
  const { network: _network, ...rest } = project;
  return json({ project: rest, upgrades: upgrades.page, block, language: viewer.language });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const prnProjectId = prnProjectIdParam(request);
  const formData = await request.formData();
  intentOf(formData, ["password"]);
  formData.set("prnProjectId", String(prnProjectId));
  const submission = parseWithZod(formData, { schema: prnPasswordSchema });
  if (submission.status !== "success") return json({ result: submission.reply() }, { status: 400 });
  const api = apiFor(request, viewer);
  const result = await api.call("/sys/prn/password", submission.value);
  if (!result.ok)
    return json(
      { result: replyWithFailure(submission, result) },
      { status: result.status === 404 ? 404 : formFailureStatus(result) },
    );
  const project = await api.load("/sys/prn/detail", { prnProjectId });
  return redirectWithFlash(request, configHref(prnProjectId, project.name), {
    kind: "success",
    key: "dedicatedNodes:config.passwordDone",
    params: { name: project.name },
  });
}

export default function DedicatedNodeConfig() {
  const { project: p, upgrades, block, language } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation(["dedicatedNodes", "dedicatedNodeRules"]);
  const running = p.status === PrnStatus.RUNNING;
  const [form, fields] = useSchemaForm(prnPasswordSchema, actionData?.result, {
    id: "prn-password",
    defaultValue: { prnProjectId: String(p.prnProjectId) },
  });
  return (
    <div className="space-y-6">
      <PageHeader
        title={t("config.title", { name: p.name })}
        actions={
          <>
            <div className="flex flex-wrap items-start gap-2">
              <Link className="btn-secondary" to={checkHref(p.prnProjectId)}>
                {t("list.check")}
              </Link>
              {running && !p.openUpgradeId ? (
                <BlockedLink
                  to={configNewHref(p.prnProjectId, p.name)}
                  action="dedicatedNode"
                  block={block}
                  className="btn-primary"
                >
                  {t("config.new")}
                </BlockedLink>
              ) : null}
            </div>
          </>
        }
      />
      <p className="text-sm">
        <ProjectStatusBadge status={p.status} />{" "}
        {!running ? <span className="text-slate-600">{t("config.notRunning")}</span> : null}
      </p>
      <section className="space-y-2" aria-labelledby="prn-upgrades-title">
        <h2 id="prn-upgrades-title" className="text-lg font-semibold">
          {t("config.upgrades")}
        </h2>
        {upgrades.rows.length === 0 ? (
          <EmptyState message={t("config.none")} testId="no-upgrades" />
        ) : (
          <UpgradeTable rows={upgrades.rows} language={language} />
        )}
        <Pagination pageIndex={upgrades.pageIndex} pageSize={upgrades.pageSize} total={upgrades.total} />
      </section>
      {running ? (
        <section className="card max-w-xl space-y-3" aria-labelledby="prn-password-title">
          <h2 id="prn-password-title" className="text-lg font-semibold">
            {t("config.password")}
          </h2>
          <p className="text-sm text-slate-600">{t("config.passwordIntro")}</p>
          <FormProvider context={form.context}>
            <Form method="post" {...getFormProps(form)} className="space-y-3">
              <FormErrors id={form.errorId} errors={form.errors} />
              <input {...getInputProps(fields.prnProjectId, { type: "hidden" })} key={fields.prnProjectId.key} />
              <TextField
                field={fields.password}
                type="password"
                label={t("config.newPassword")}
                hint={t("create.passwordHint")}
                autoComplete="new-password"
              />
              <TextField
                field={fields.confirmPassword}
                type="password"
                label={t("config.confirmPassword")}
                autoComplete="new-password"
              />
              <div className="flex justify-end">
                <SubmitButton intent="password" className="btn-primary">
                  {t("config.passwordSubmit")}
                </SubmitButton>
              </div>
            </Form>
          </FormProvider>
        </section>
      ) : null}
    </div>
  );
}
