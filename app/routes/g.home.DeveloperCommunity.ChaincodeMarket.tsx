import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { LANGUAGES } from "#contract/service-codes.ts";
import { ErrorView } from "#app/components/ErrorView.tsx";
import { MarketTable } from "#app/components/market/MarketTable.tsx";
import { Pagination } from "#app/components/Pagination.tsx";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { pageParam } from "#app/lib/params.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["market"],
  breadcrumb: [{ key: "menu.developerCommunity" }, { key: "titles.chaincodeMarket" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("chaincodeMarket");

const isLanguage = (v: string | null): v is (typeof LANGUAGES)[number] =>
  (LANGUAGES as readonly (string | null)[]).includes(v);

/**
 * SPEC §2 DeveloperCommunity/ChaincodeMarket (issue 15; docs/decisions/042): sample chaincode packages with
 * language, version, description and downloads; each can be downloaded, read, or used in a new service.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const url = new URL(request.url);
  const raw = url.searchParams.get("language");
  const language = isLanguage(raw) ? raw : undefined;
  const { page } = await apiFor(request, viewer).load("/sys/market/list", {
    pageIndex: pageParam(url),
    pageSize: 20,
    language,
  });
  return json({ page, filter: language ?? "", language: viewer.language });
}

export default function ChaincodeMarket() {
  const { page, filter, language } = useLoaderData<typeof loader>();
  const { t } = useTranslation("market");
  return (
    <div className="space-y-4">
      <div>
        <PageHeader title={t("title")} />
        <p className="text-sm text-slate-700">{t("intro")}</p>
      </div>
      <Form method="get" className="flex items-end gap-2">
        <div>
          <label htmlFor="market-language" className="label">
            {t("filter.language")}
          </label>
          <select id="market-language" name="language" defaultValue={filter} className="input">
            <option value="">{t("filter.all")}</option>
            {LANGUAGES.map((l) => (
              <option key={l} value={l}>
                {t(`languages.${l}`)}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="btn-secondary">
          {t("filter.submit")}
        </button>
      </Form>
      {page.rows.length === 0 ? (
        <p className="card text-sm text-slate-700">{t("empty")}</p>
      ) : (
        <MarketTable rows={page.rows} language={language} />
      )}
      <Pagination pageIndex={page.pageIndex} pageSize={page.pageSize} total={page.total} />
    </div>
  );
}

export function ErrorBoundary() {
  return <ErrorView />;
}
