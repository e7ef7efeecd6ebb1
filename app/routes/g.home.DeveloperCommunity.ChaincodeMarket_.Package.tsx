import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ErrorView } from "#app/components/ErrorView.tsx";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { apiFor, notFound, requireUser } from "#app/lib/api.server.ts";
import { MARKET, marketDownloadUrl, newServiceUrl } from "#app/lib/market.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { positiveParam } from "#app/lib/params.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["market"],
  breadcrumb: [
    { key: "menu.developerCommunity" },
    { key: "titles.chaincodeMarket", to: MARKET },
    { key: "titles.chaincodeMarketPackage" },
  ],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("chaincodeMarketPackage", (data) => data?.pkg?.name);

/** A market package: its fields, functions and every file's text (issue 15; the IDE reads the same path). */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const marketPackageId = positiveParam(new URL(request.url).searchParams.get("marketPackageId"));
  if (!marketPackageId) throw notFound();
  const pkg = await apiFor(request, viewer).load("/sys/market/detail", { marketPackageId });
  return json({ pkg, language: viewer.language });
}

export default function MarketPackagePage() {
  const { pkg, language } = useLoaderData<typeof loader>();
  const { t } = useTranslation("market");
  return (
    <div className="space-y-4">
      <p className="text-sm">
        <Link className="link" to={MARKET}>
          {t("detail.back")}
        </Link>
      </p>
      <PageHeader
        titleClassName="font-mono text-xl font-semibold"
        title={
          <>
            {pkg.name}{" "}
            <span className="text-base font-normal text-slate-600">
              {pkg.version} · {t(`languages.${pkg.language}`)}
            </span>
          </>
        }
      />
      <p className="text-slate-800">{language === "zh-CN" ? pkg.descriptionZh : pkg.descriptionEn}</p>
      <div className="flex flex-wrap gap-3">
        <a className="btn-secondary" href={marketDownloadUrl(pkg.marketPackageId)} download>
          {t("actions.download")}
        </a>
        <Link className="btn-primary" to={newServiceUrl(pkg.marketPackageId)}>
          {t("actions.use")}
        </Link>
      </div>
      <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="font-medium">{t("detail.mainPath")}</dt>
        <dd className="font-mono">{pkg.mainPath}</dd>
        <dt className="font-medium">{t("detail.initParams")}</dt>
        <dd className="font-mono">{pkg.initParams || t("detail.none")}</dd>
        <dt className="font-medium">{t("table.downloads")}</dt>
        <dd>{pkg.downloads}</dd>
      </dl>
      <section aria-labelledby="market-functions">
        <h2 id="market-functions" className="font-semibold">
          {t("detail.functions")}
        </h2>
        <ul className="mt-1 list-disc pl-6 text-sm">
          {pkg.functions.map((f) => (
            <li key={f.func}>
              <code>{f.func}</code> · {f.name} · <code>{f.inputFormat}</code> → <code>{f.outputFormat}</code>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="market-files" className="space-y-3">
        <h2 id="market-files" className="font-semibold">
          {t("files", { name: pkg.name })}
        </h2>
        {pkg.files.map((f) => (
          <details
            key={f.path}
            open={f.path === pkg.mainPath}
            className="rounded-md border border-slate-200 px-3 py-2"
            data-testid="market-file"
          >
            <summary className="cursor-pointer font-mono text-sm">
              {f.path} <span className="text-slate-500">({f.size} B)</span>
            </summary>
            {f.text === null ? (
              <p className="mt-2 text-sm text-slate-600">{t("detail.binary")}</p>
            ) : (
              <pre
                className="mt-2 max-h-[32rem] overflow-auto rounded bg-slate-900 p-3 text-xs text-slate-100"
                tabIndex={0}
              >
                {f.text}
              </pre>
            )}
          </details>
        ))}
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <ErrorView />;
}
