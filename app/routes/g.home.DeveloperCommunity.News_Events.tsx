import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { SEARCH_QUERY_MAX } from "#contract/community-codes.ts";
import { FallbackBadge } from "#app/components/community/content.tsx";
import { PostMeta } from "#app/components/community/PostMeta.tsx";
import { Pagination } from "#app/components/Pagination.tsx";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { titleWithFeeds } from "#app/lib/community-meta.ts";
import { feedLinks, viewListItem } from "#app/lib/community.server.ts";
import { pagingOf } from "#app/lib/paging.ts";
import { oneOf } from "#app/lib/params.ts";
import { EmptyState } from "#app/components/EmptyState.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["community"],
  breadcrumb: [{ key: "menu.developerCommunity" }, { key: "menu.newsEvents" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = titleWithFeeds("newsEvents");

const TYPES = ["news", "event"] as const;
const WHEN = ["upcoming", "past"] as const;

/** SPEC §2 News_Events: published news and events, filtered (type, upcoming or past), searched, paged. */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const url = new URL(request.url);
  const type = oneOf(TYPES, url.searchParams.get("type"));
  const when = oneOf(WHEN, url.searchParams.get("when"));
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, SEARCH_QUERY_MAX);
  const data = await apiFor(request, viewer).load("/api/devGame/h5queryAllList", {
    ...pagingOf(url),
    type,
    when,
    q: q || undefined,
  });
  return json({
    rows: data.page.rows.map((p) => viewListItem(p, viewer.language)),
    page: data.page,
    filters: { type: type ?? "", when: when ?? "", q },
    language: viewer.language,
    feeds: feedLinks("news", viewer.language),
  });
}

export default function NewsEvents() {
  const { rows, page, filters, language, feeds } = useLoaderData<typeof loader>();
  const { t } = useTranslation("community");
  const filtered = filters.type || filters.when || filters.q;
  return (
    <div className="space-y-4">
      <Form method="get" role="search" className="card flex flex-wrap items-end gap-3">
        <div className="min-w-48 flex-1">
          <label htmlFor="news-q" className="label">
            {t("list.search")}
          </label>
          <input
            id="news-q"
            name="q"
            type="search"
            defaultValue={filters.q}
            maxLength={SEARCH_QUERY_MAX}
            className="input"
          />
        </div>
        <div>
          <label htmlFor="news-type" className="label">
            {t("list.type")}
          </label>
          <select id="news-type" name="type" defaultValue={filters.type} className="input">
            <option value="">{t("list.all")}</option>
            {TYPES.map((v) => (
              <option key={v} value={v}>
                {t(`kinds.${v}`)}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="news-when" className="label">
            {t("list.when")}
          </label>
          <select id="news-when" name="when" defaultValue={filters.when} className="input">
            <option value="">{t("list.anyTime")}</option>
            {WHEN.map((v) => (
              <option key={v} value={v}>
                {t(`list.${v}`)}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="btn-primary">
          {t("list.apply")}
        </button>
        {filtered ? (
          <Link to="." className="btn-secondary">
            {t("list.reset")}
          </Link>
        ) : null}
      </Form>
      {rows.length === 0 ? (
        <EmptyState message={filtered ? t("list.noMatch") : t("list.empty")} testId="news-empty" />
      ) : (
        <ul className="space-y-3">
          {rows.map((p) => (
            <li key={p.postId} className="card space-y-2" data-testid="news-item">
              <div className="flex flex-wrap items-center gap-2">
                <h2 className="text-lg font-semibold">
                  <Link
                    to={`/g/home/DeveloperCommunity/News_EventsDetail?eventId=${p.postId}`}
                    className="hover:text-brand-700"
                    lang={p.fallback ?? undefined}
                  >
                    {p.title}
                  </Link>
                </h2>
                <FallbackBadge fallback={p.fallback} />
              </div>
              <PostMeta post={p} language={language} />
              {p.summary ? (
                <p className="text-sm text-slate-700" lang={p.fallback ?? undefined}>
                  {p.summary}
                </p>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <Pagination pageIndex={page.pageIndex} pageSize={page.pageSize} total={page.total} />
      <p className="text-xs text-slate-500">
        {t("feeds.subscribe")}:{" "}
        {feeds.map((f, i) => (
          <span key={f.href}>
            {i ? " · " : ""}
            <a className="link" href={f.href}>
              {f.type.includes("atom") ? "Atom" : "RSS"}
            </a>
          </span>
        ))}
      </p>
    </div>
  );
}
