import { FormProvider } from "@conform-to/react";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ideEditorFormSchema } from "#contract/ide.ts";
import { IntentConfirmStep } from "#app/components/IntentConfirmStep.tsx";
import { FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { DeployForm, Deployments, FunctionForms } from "#app/components/ide/Chain.tsx";
import { SolidityEditor } from "#app/components/ide/Editor.tsx";
import { Diagnostics, FileTree } from "#app/components/ide/Files.tsx";
import { IDE_SERVICES, portalUrl } from "#app/lib/ide-urls.ts";
import { isUnderWay, useRefreshWhile } from "#app/components/public-chain/contracts.tsx";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { formatDate } from "#app/lib/format.ts";
import { portalAction, portalData } from "#app/lib/ide.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { requiredId } from "#app/lib/params.server.ts";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { ContractStatus } from "#contract/contracts-codes.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = { i18n: ["ide", "contracts"] };
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("idePortal", (d: { workspace?: { name: string } }) => d.workspace?.name);

/**
 * SPEC §2 /ide/portal?workspaceId=N (logged in, outside /g; docs/decisions/044): the workspace's files and
 * folders, the editor (a textarea that CodeMirror enhances after hydration), compile on the server with the
 * messages at file and line, deploy to one of the user's projects, and forms from the ABI for its functions.
 * Opening the page issues the short-lived IDE authorisation; a form refused because it expired (§8 MSG_20016)
 * answers with the posted content kept, to be saved once authorised again.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const url = new URL(request.url);
  const data = await portalData(apiFor(request, viewer), url, requiredId(url, "workspaceId"));
  return json({ ...data, language: viewer.language });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const url = new URL(request.url);
  return portalAction(request, apiFor(request, viewer), requiredId(url, "workspaceId"), await request.formData());
}

function ExpiredNotice({ kept, action }: { kept: { fileId: number; content: string } | null; action: string }) {
  const { t } = useTranslation("ide");
  return (
    <div role="alert" className="card space-y-3 border-amber-300 bg-amber-50" data-testid="ide-expired">
      <p className="font-semibold">{t("errors:MSG_20016")}</p>
      <p className="text-sm">{kept ? t("portal.expiredKept") : t("portal.expired")}</p>
      <Form method="post" action={action} className="space-y-2">
        {kept ? (
          <>
            <input type="hidden" name="fileId" value={kept.fileId} />
            <label htmlFor="kept-content" className="label">
              {t("portal.keptContent")}
            </label>
            <textarea
              id="kept-content"
              name="content"
              readOnly
              defaultValue={kept.content}
              rows={6}
              className="input font-mono text-xs"
            />
          </>
        ) : null}
        <SubmitButton intent="reauthorise" className="btn-primary">
          {kept ? t("portal.reauthoriseSave") : t("portal.reauthorise")}
        </SubmitButton>
      </Form>
    </div>
  );
}

export default function IdePortal() {
  const { workspace, file, accounts, deployment, confirm, language } = useLoaderData<typeof loader>();
  const last = useActionData<typeof action>();
  const { t } = useTranslation("ide");
  const location = useLocation();
  const here = location.pathname + location.search;
  const url = new URL(here, "http://portal.invalid");
  const hrefOf = (set: Record<string, string | number | null>) => portalUrl(url, set);
  const kept = last?.expired && last.kept && last.kept.fileId === file?.fileId ? last.kept.content : null;
  const [form, fields] = useSchemaForm(
    ideEditorFormSchema,
    last && (last.target === "save" || last.target === "compile") ? last.result : null,
    { id: "editor" },
  );
  useRefreshWhile(workspace.deployments.some((d) => isUnderWay(d.status)));
  const errors = workspace.diagnostics.filter((d) => d.severity === "error");
  const lineErrors = errors.flatMap((d) =>
    d.file === file?.path && d.line ? [{ line: d.line, message: d.message }] : [],
  );
  return (
    <main className="mx-auto max-w-screen-2xl space-y-4 p-4">
      <header className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <p className="text-sm">
            <Link className="link" to={IDE_SERVICES}>
              {t("portal.back")}
            </Link>
          </p>
          <PageHeader title={workspace.name} />
        </div>
        <p className="text-xs text-slate-600" data-testid="grant">
          {t("portal.grant", { time: formatDate(workspace.grantExpiresAt, language, true) })}
        </p>
      </header>
      {last?.expired ? <ExpiredNotice kept={last.kept} action={here} /> : null}
      {confirm ? (
        <IntentConfirmStep
          id="delete-file"
          title={t("portal.deleteTitle")}
          question={t(confirm.folder ? "portal.deleteFolderQuestion" : "portal.deleteQuestion", { path: confirm.path })}
          intent="deleteFile"
          fields={{ fileId: confirm.fileId }}
          action={here}
          cancelTo={hrefOf({})}
          confirmLabel={t("portal.delete")}
          cancelLabel={t("portal.cancel")}
          danger
        />
      ) : null}
      <div className="grid gap-4 lg:grid-cols-[16rem_minmax(0,1fr)_24rem]">
        <div className="card">
          <h2 className="mb-2 font-semibold">{t("portal.files")}</h2>
          <FileTree
            files={workspace.files}
            current={file?.fileId ?? null}
            hrefOf={(fileId) => hrefOf({ fileId })}
            diagnostics={workspace.diagnostics}
            action={here}
            last={last}
          />
        </div>
        <div className="space-y-4">
          {file ? (
            <section className="card space-y-3" aria-labelledby="editor-heading">
              <h2 id="editor-heading" className="font-mono text-sm font-semibold" data-testid="editor-file">
                {file.path}
              </h2>
              <FormProvider context={form.context}>
                <Form
                  method="post"
                  action={here}
                  id={form.id}
                  onSubmit={form.onSubmit}
                  noValidate
                  className="space-y-3"
                >
                  <input type="hidden" name="fileId" value={file.fileId} />
                  <FormErrors id={form.errorId} errors={form.errors} />
                  <SolidityEditor
                    id="editor-content"
                    name={fields.content.name}
                    defaultValue={kept ?? file.content}
                    label={t("portal.content", { path: file.path })}
                    describedBy="diagnostics-heading"
                    errors={lineErrors}
                  />
                  <div className="flex gap-2">
                    <SubmitButton intent="save" className="btn-secondary">
                      {t("portal.save")}
                    </SubmitButton>
                    <SubmitButton intent="compile" className="btn-primary">
                      {t("portal.compile")}
                    </SubmitButton>
                  </div>
                </Form>
              </FormProvider>
            </section>
          ) : (
            <p className="card text-slate-600">{t("portal.noFiles")}</p>
          )}
          <section className="card space-y-2" aria-labelledby="diagnostics-heading">
            <h2 id="diagnostics-heading" className="font-semibold">
              {t("portal.messages")}
            </h2>
            {workspace.compiler ? (
              <p className="text-xs text-slate-500">{t("portal.compiler", { version: workspace.compiler })}</p>
            ) : null}
            <Diagnostics
              diagnostics={workspace.diagnostics}
              file={file?.path ?? null}
              compiledAt={workspace.compiledAt}
            />
          </section>
        </div>
        <div className="space-y-4">
          <section className="card space-y-3" aria-labelledby="deploy-heading">
            <h2 id="deploy-heading" className="font-semibold">
              {t("portal.deployHeading")}
            </h2>
            <DeployForm
              compiled={workspace.compiled}
              hasErrors={errors.length > 0}
              accounts={accounts}
              action={here}
              last={last}
            />
          </section>
          <section className="card space-y-3" aria-labelledby="deployments-heading">
            <h2 id="deployments-heading" className="font-semibold">
              {t("portal.deployments")}
            </h2>
            <Deployments
              deployments={workspace.deployments}
              chosen={deployment}
              hrefOf={(d) => hrefOf({ contractId: d.contractId, network: d.network === "test" ? "test" : null })}
            />
          </section>
          {deployment && deployment.status === ContractStatus.SUCCESS ? (
            <section className="card space-y-3" aria-labelledby="functions-heading">
              <h2 id="functions-heading" className="font-semibold">
                {t("portal.functions", { name: deployment.name })}
              </h2>
              <FunctionForms deployment={deployment} accounts={accounts} action={here} last={last} />
            </section>
          ) : null}
        </div>
      </div>
    </main>
  );
}
