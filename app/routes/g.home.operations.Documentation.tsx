import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { textIn } from "#contract/docs.ts";
import { Badge } from "#app/components/Badge.tsx";
import { ConfirmSubmit } from "#app/components/ConfirmSubmit.tsx";
import { DocForm } from "#app/components/docs/DocForm.tsx";
import { IntentConfirmStep } from "#app/components/IntentConfirmStep.tsx";
import { apiFor, requireOperator } from "#app/lib/api.server.ts";
import { docsOpsAction, loadDocsOps } from "#app/lib/docs-ops.server.ts";
import { OPS_DOCS } from "#app/lib/docs-urls.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["docs"],
  breadcrumb: [{ key: "menu.operations", to: "/g/home/operations" }, { key: "titles.opsDocs" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("opsDocs");

/** Operations: the manual's pages (issue 15; docs/decisions/042): create, edit, reorder, publish, delete. */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireOperator(request);
  const data = await loadDocsOps(apiFor(request, viewer), new URL(request.url));
  return json({ ...data, language: viewer.language });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireOperator(request);
  return docsOpsAction(request, apiFor(request, viewer));
}

export default function DocumentationPages() {
  const { rows, editing, creating, confirm, language } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("docs");
  const titleOf = (r: { titleEn: string; titleZh: string }) => textIn(r, language).title;
  const depthOf = new Map<number, number>();
  for (const r of rows) depthOf.set(r.docId, r.parentId !== null ? (depthOf.get(r.parentId) ?? 0) + 1 : 0);
  const result = actionData && "result" in actionData ? actionData.result : null;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 className="text-lg font-semibold">{t("ops.title")}</h2>
          <p className="max-w-3xl text-sm text-slate-700">{t("ops.intro")}</p>
        </div>
        <Link to={`${OPS_DOCS}?new=1`} className="btn-primary">
          {t("ops.new")}
        </Link>
      </div>
      {confirm ? (
        <IntentConfirmStep
          id="doc-delete"
          title={t("ops.delete", { title: titleOf(confirm) })}
          question={t("ops.deleteQuestion", { title: titleOf(confirm) })}
          intent="delete"
          fields={{ docId: confirm.docId }}
          action={OPS_DOCS}
          cancelTo={OPS_DOCS}
          confirmLabel={t("ops.delete", { title: titleOf(confirm) })}
          cancelLabel={t("ops.cancel")}
          danger
        />
      ) : null}
      {editing || creating ? (
        <DocForm
          key={editing?.docId ?? "new"}
          page={editing}
          parents={rows.map((r) => ({
            docId: r.docId,
            title: `${"— ".repeat(depthOf.get(r.docId) ?? 0)}${titleOf(r)}`,
          }))}
          result={result}
          cancelTo={OPS_DOCS}
        />
      ) : null}
      <section aria-labelledby="doc-list" className="space-y-2">
        <h3 id="doc-list" className="font-semibold">
          {t("ops.list")}
        </h3>
        {rows.length === 0 ? (
          <p className="card text-sm text-slate-700">{t("ops.empty")}</p>
        ) : (
          <div className="overflow-x-auto rounded-md border border-slate-200">
            <table className="min-w-full text-sm" data-testid="doc-rows">
              <tbody className="divide-y divide-slate-100">
                {rows.map((r) => {
                  const title = titleOf(r);
                  const formId = `doc-row-${r.docId}`;
                  return (
                    <tr key={r.docId} data-testid="doc-row">
                      <th
                        scope="row"
                        className="px-3 py-2 text-left font-medium"
                        style={{ paddingLeft: `${0.75 + (depthOf.get(r.docId) ?? 0) * 1.25}rem` }}
                      >
                        {title}
                        <span className="ml-2 font-mono text-xs text-slate-500">{r.slug}</span>
                      </th>
                      <td className="px-3 py-2">
                        <Badge tone={r.published ? "ok" : "off"}>
                          {t(r.published ? "ops.state.published" : "ops.state.draft")}
                        </Badge>
                        {r.shippedKey ? (
                          <span className="ml-2 text-xs text-slate-500">
                            {t("ops.state.shipped")}
                            {r.operatorEdited ? ` · ${t("ops.state.edited")}` : ""}
                          </span>
                        ) : null}
                      </td>
                      <td className="px-3 py-2">
                        <Form method="post" id={formId} className="flex flex-wrap items-center gap-2">
                          <input type="hidden" name="docId" value={r.docId} />
                          <Link className="link" to={`${OPS_DOCS}?edit=${r.docId}`}>
                            {t("ops.edit")}
                          </Link>
                          {r.published ? (
                            <a
                              className="link"
                              href={`/g/main/documentation?page=${encodeURIComponent(r.slug)}`}
                              target="_blank"
                              rel="noopener"
                            >
                              {t("ops.view")}
                            </a>
                          ) : null}
                          <button
                            type="submit"
                            name="direction"
                            value="up"
                            className="btn-secondary px-2 py-1 text-xs"
                            aria-label={t("ops.up", { title })}
                          >
                            ↑
                          </button>
                          <button
                            type="submit"
                            name="direction"
                            value="down"
                            className="btn-secondary px-2 py-1 text-xs"
                            aria-label={t("ops.down", { title })}
                          >
                            ↓
                          </button>
                          <input type="hidden" name="intent" value="move" />
                        </Form>
                      </td>
                      <td className="px-3 py-2">
                        <div className="flex flex-wrap gap-2">
                          <Form method="post">
                            <input type="hidden" name="docId" value={r.docId} />
                            <input type="hidden" name="published" value={r.published ? "0" : "1"} />
                            <button
                              type="submit"
                              name="intent"
                              value="publish"
                              className="btn-secondary px-2 py-1 text-xs"
                            >
                              {t(r.published ? "ops.unpublishShort" : "ops.publishShort")}
                            </button>
                          </Form>
                          <Form method="post" id={`doc-delete-${r.docId}`}>
                            <input type="hidden" name="docId" value={r.docId} />
                            <input type="hidden" name="intent" value="delete" />
                            <ConfirmSubmit
                              formId={`doc-delete-${r.docId}`}
                              label={t("ops.deleteShort")}
                              title={t("ops.delete", { title })}
                              question={t("ops.deleteQuestion", { title })}
                              confirmLabel={t("ops.deleteShort")}
                              className="btn-danger px-2 py-1 text-xs"
                            />
                          </Form>
                        </div>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  );
}
