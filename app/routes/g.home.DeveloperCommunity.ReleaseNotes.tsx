import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FallbackBadge, MarkdownBody } from "#app/components/community/content.tsx";
import { Pagination } from "#app/components/Pagination.tsx";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { titleWithFeeds } from "#app/lib/community-meta.ts";
import { feedLinks, viewPost } from "#app/lib/community.server.ts";
import { formatDate } from "#app/lib/format.ts";
import { pagingOf } from "#app/lib/paging.ts";
import { EmptyState } from "#app/components/EmptyState.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["community"],
  breadcrumb: [{ key: "menu.developerCommunity" }, { key: "menu.releaseNotes" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = titleWithFeeds("releaseNotes");

/** SPEC §2 ReleaseNotes: published release notes, newest first, each with its version and Markdown. */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const data = await apiFor(request, viewer).load("/api/devGame/releaseNotes", pagingOf(new URL(request.url)));
  return json({
    rows: data.page.rows.map((p) => viewPost(p, viewer.language)),
    page: data.page,
    language: viewer.language,
    feeds: feedLinks("releaseNotes", viewer.language),
  });
}

export default function ReleaseNotes() {
  const { rows, page, language, feeds } = useLoaderData<typeof loader>();
  const { t } = useTranslation("community");
  return (
    <div className="space-y-4">
      {rows.length === 0 ? (
        <EmptyState message={t("releases.empty")} />
      ) : (
        <ol className="space-y-4">
          {rows.map((r) => (
            <li key={r.postId} id={`release-${r.postId}`} className="card space-y-2" data-testid="release-note">
              <div className="flex flex-wrap items-center gap-2">
                <h2 className="text-lg font-semibold">
                  <span className="font-mono">{r.version}</span> · {r.title}
                </h2>
                <FallbackBadge fallback={r.fallback} />
              </div>
              {r.publishedAt ? (
                <p className="text-xs text-slate-600">
                  {t("published")}: {formatDate(r.publishedAt, language)}
                </p>
              ) : null}
              <MarkdownBody html={r.html} lang={r.fallback ?? undefined} />
            </li>
          ))}
        </ol>
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
