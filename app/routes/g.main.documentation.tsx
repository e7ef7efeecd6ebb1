import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { DocArticle } from "#app/components/docs/DocArticle.tsx";
import { DocsSearch } from "#app/components/docs/DocsSearch.tsx";
import { DocsToc } from "#app/components/docs/DocsToc.tsx";
import { ErrorView } from "#app/components/ErrorView.tsx";
import { apiFor, getViewer } from "#app/lib/api.server.ts";
import { loadManual } from "#app/lib/docs.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { siteOrigin } from "#app/lib/public-chain.server.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = { i18n: ["docs"] };
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("documentation", (data) => data?.page?.title);

/**
 * The help manual (SPEC §2 documentation, help manual; issue 15; docs/decisions/042): the table of contents,
 * one page (`?page=<slug>`), or a search in both languages (`?q=`, `?lang=`). Public, and allowed on phones.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await getViewer(request);
  const data = await loadManual(
    apiFor(request, viewer, { portalPage: true }),
    new URL(request.url),
    siteOrigin(request),
  );
  return json(data);
}

export default function Documentation() {
  const { toc, search, page } = useLoaderData<typeof loader>();
  const { t } = useTranslation("docs");
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-8 px-4 py-8 md:flex-row">
      <aside className="md:w-64 md:shrink-0">
        <DocsToc items={toc} current={page?.slug ?? null} />
        <p className="mt-4 text-sm">
          <Link className="link" to="/g/main/documentation/api">
            {t("apiReference.link")}
          </Link>
        </p>
      </aside>
      <div className="min-w-0 flex-1 space-y-6">
        <DocsSearch q={search?.q ?? ""} lang={search?.lang ?? ""} />
        {search ? (
          <section aria-labelledby="docs-results" data-testid="docs-results">
            <h1 id="docs-results" className="text-2xl font-semibold">
              {t("search.results", { q: search.q })}
            </h1>
            {search.results.length === 0 ? (
              <p className="mt-3 text-slate-700">{t("search.none")}</p>
            ) : (
              <ul className="mt-4 space-y-4">
                {search.results.map((r) => (
                  <li key={`${r.slug}:${r.lang}`} data-testid="docs-hit" lang={r.lang}>
                    <Link className="link text-lg" to={`/g/main/documentation?page=${encodeURIComponent(r.slug)}`}>
                      {r.title}
                    </Link>
                    <span className="ml-2 text-xs text-slate-500">{t(`languages.${r.lang}`)}</span>
                    <p className="mt-1 text-sm text-slate-700">{r.snippet}</p>
                  </li>
                ))}
              </ul>
            )}
          </section>
        ) : page ? (
          <DocArticle page={page} />
        ) : (
          <p className="text-slate-700">{t("empty")}</p>
        )}
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  return <ErrorView />;
}
