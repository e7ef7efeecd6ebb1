import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { isStorableText } from "#contract/text.ts";
import { SEARCH_KINDS, SEARCH_KIND_LIMIT, SEARCH_QUERY_MAX } from "#contract/search-codes.ts";
import type { SearchHit } from "#contract/search.ts";
import { EmptyState } from "#app/components/EmptyState.tsx";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";
import { searchHref } from "#app/lib/search-links.ts";

export const handle = { i18n: ["common", "search"], breadcrumb: [{ key: "menu.search" }] };
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("search");

/**
 * The console's search results (issue 35 §2, docs/decisions/086): what the top bar's box (a GET form, `?q=`)
 * found among the acting account's records and in the manual, grouped by kind, each leading to its own page.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const raw = (new URL(request.url).searchParams.get("q") ?? "").trim();
  const q = isStorableText(raw) ? raw.slice(0, SEARCH_QUERY_MAX) : "";
  if (!q) return json({ q, groups: null });
  const { hits } = await apiFor(request, viewer).load("/sys/search", { q });
  const groups = SEARCH_KINDS.map((kind) => ({ kind, hits: hits.filter((h) => h.kind === kind) })).filter(
    (g) => g.hits.length > 0,
  );
  return json({ q, groups });
}

function Hit({ hit }: { hit: SearchHit }) {
  const { t } = useTranslation("search");
  return (
    <li className="py-2" data-testid="search-hit" data-kind={hit.kind}>
      <Link to={searchHref(hit.target)} className="font-medium text-brand-700 hover:underline">
        <span data-user-content className="break-all">
          {hit.label}
        </span>
      </Link>
      {hit.match === "exact" ? <span className="ml-2 text-xs text-slate-500">{t("exact")}</span> : null}
      {hit.detail ? (
        <p className="break-all text-sm text-slate-600" data-user-content>
          {hit.detail}
        </p>
      ) : null}
    </li>
  );
}

export default function SearchPage() {
  const { q, groups } = useLoaderData<typeof loader>();
  const { t } = useTranslation("search");
  return (
    <section className="space-y-4" aria-labelledby="search-title">
      <PageHeader
        title={t("title")}
        titleId="search-title"
        description={
          q ? (
            <>
              {t("for")} <q data-user-content>{q}</q>
            </>
          ) : (
            t("intro")
          )
        }
      />
      {groups === null ? (
        <EmptyState message={t("ask")} hint={t("scope")} testId="search-ask" />
      ) : groups.length === 0 ? (
        <EmptyState message={t("empty")} hint={t("scope")} testId="search-empty" />
      ) : (
        <>
          {groups.map((g) => (
            <section
              key={g.kind}
              className="card"
              aria-labelledby={`search-${g.kind}`}
              data-testid={`search-${g.kind}`}
            >
              <h2 id={`search-${g.kind}`} className="text-base font-semibold">
                {t(`kinds.${g.kind}`)} <span className="text-sm font-normal text-slate-500">({g.hits.length})</span>
              </h2>
              <ul className="divide-y divide-slate-100">
                {g.hits.map((h) => (
                  <Hit key={`${h.target.page}-${h.target.id}-${h.label}`} hit={h} />
                ))}
              </ul>
              {g.hits.length >= SEARCH_KIND_LIMIT ? (
                <p className="mt-2 text-sm text-slate-500">{t("more", { count: SEARCH_KIND_LIMIT })}</p>
              ) : null}
            </section>
          ))}
          <p className="text-sm text-slate-500">{t("scope")}</p>
        </>
      )}
    </section>
  );
}
