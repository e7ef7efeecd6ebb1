import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { isActiveAt } from "#contract/community-codes.ts";
import { Badge } from "#app/components/Badge.tsx";
import { FallbackBadge } from "#app/components/community/content.tsx";
import { Pagination } from "#app/components/Pagination.tsx";
import { apiFor, getViewer } from "#app/lib/api.server.ts";
import { viewListItem } from "#app/lib/community.server.ts";
import { formatDate } from "#app/lib/format.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { pagingOf } from "#app/lib/paging.ts";
import { EmptyState } from "#app/components/EmptyState.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = { i18n: ["community"] };
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("announcements");

/** SPEC §2 system announcements (public): the published ones, newest window first, the active ones marked. */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await getViewer(request);
  const data = await apiFor(request, viewer).load("/anon/community/announcements", pagingOf(new URL(request.url)));
  const now = new Date();
  return json({
    rows: data.page.rows.map((p) => ({ ...viewListItem(p, viewer.language), active: isActiveAt(p, now) })),
    page: data.page,
    language: viewer.language,
  });
}

export default function Announcements() {
  const { rows, page, language } = useLoaderData<typeof loader>();
  const { t } = useTranslation("community");
  return (
    <div className="mx-auto max-w-3xl space-y-6 px-4 py-10">
      <h1 className="text-3xl font-semibold text-slate-900">{t("announcements.title")}</h1>
      {rows.length === 0 ? (
        <EmptyState message={t("announcements.empty")} />
      ) : (
        <ul className="space-y-3">
          {rows.map((a) => (
            <li key={a.postId} className="card space-y-1" data-testid="announcement">
              <div className="flex flex-wrap items-center gap-2">
                <h2 className="font-semibold">
                  <Link to={`/g/main/announcementDetail?id=${a.postId}`} className="hover:text-brand-700">
                    {a.title}
                  </Link>
                </h2>
                {a.active ? <Badge tone="ok">{t("announcements.active")}</Badge> : null}
                <FallbackBadge fallback={a.fallback} />
              </div>
              <p className="text-xs text-slate-600">
                {formatDate(a.activeFrom, language, true)} – {formatDate(a.activeTo, language, true)}
              </p>
              {a.summary ? <p className="text-sm text-slate-700">{a.summary}</p> : null}
            </li>
          ))}
        </ul>
      )}
      <Pagination pageIndex={page.pageIndex} pageSize={page.pageSize} total={page.total} />
    </div>
  );
}
