import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Badge } from "#app/components/Badge.tsx";
import { ContactAddressesForm } from "#app/components/legal/ContactAddressesForm.tsx";
import { LegalTextForm } from "#app/components/legal/LegalTextForm.tsx";
import { apiFor, requireOperator } from "#app/lib/api.server.ts";
import { formatDate } from "#app/lib/format.ts";
import { legalOpsAction, loadLegalOps } from "#app/lib/legal.server.ts";
import { LEGAL_PUBLIC_URL, OPS_LEGAL } from "#app/lib/legal-urls.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["legal"],
  breadcrumb: [{ key: "menu.operations", to: "/g/home/operations" }, { key: "titles.opsLegal" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("opsLegal");

/**
 * Operations: the legal and contact texts (issue 30 item 16; docs/decisions/089). Each page's state (the product's
 * draft, or saved by whom and when), `?page=<page>` opens its form; the contact addresses below.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireOperator(request);
  const data = await loadLegalOps(apiFor(request, viewer), new URL(request.url));
  return json({ ...data, language: viewer.language });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireOperator(request);
  return legalOpsAction(request, apiFor(request, viewer));
}

export default function LegalTexts() {
  const { pages, contact, editing, language } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("legal");
  const resultOf = (form: "text" | "contact") =>
    actionData && "form" in actionData && actionData.form === form ? actionData.result : null;
  return (
    <div className="space-y-6">
      <div>
        <h2 className="text-lg font-semibold">{t("ops.title")}</h2>
        <p className="max-w-3xl text-sm text-slate-700">{t("ops.intro")}</p>
      </div>
      {editing ? (
        <LegalTextForm
          key={editing.page}
          page={editing.page}
          values={editing.values}
          draft={editing.draft}
          result={resultOf("text")}
          cancelTo={OPS_LEGAL}
        />
      ) : null}
      <section aria-labelledby="legal-pages" className="space-y-2">
        <h3 id="legal-pages" className="font-semibold">
          {t("ops.pages")}
        </h3>
        <div className="overflow-x-auto rounded-md border border-slate-200">
          <table className="min-w-full text-sm" data-testid="legal-rows">
            <tbody className="divide-y divide-slate-100">
              {pages.map((p) => (
                <tr key={p.page} data-testid="legal-row">
                  <th scope="row" className="px-3 py-2 text-left font-medium">
                    {t(`pages.${p.page}`)}
                  </th>
                  <td className="px-3 py-2">
                    {p.updatedAt ? (
                      <>
                        <Badge tone="ok">{t("ops.reviewed", { date: formatDate(p.updatedAt, language) })}</Badge>
                        <span className="ml-2 text-xs text-slate-600" data-user-content="">
                          {p.updatedBy}
                        </span>
                      </>
                    ) : (
                      <Badge tone="wait">{t("ops.draft")}</Badge>
                    )}
                  </td>
                  <td className="px-3 py-2">
                    <div className="flex flex-wrap gap-3">
                      <Link className="link" to={`${OPS_LEGAL}?page=${p.page}`}>
                        {t("ops.edit", { page: t(`pages.${p.page}`) })}
                      </Link>
                      <a className="link" href={LEGAL_PUBLIC_URL[p.page]} target="_blank" rel="noopener">
                        {t("ops.view", { page: t(`pages.${p.page}`) })}
                      </a>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      <ContactAddressesForm contact={contact} result={resultOf("contact")} />
    </div>
  );
}
