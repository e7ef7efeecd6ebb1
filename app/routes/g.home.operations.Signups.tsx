import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Pagination } from "#app/components/Pagination.tsx";
import { apiFor, notFound, requireOperator } from "#app/lib/api.server.ts";
import { viewListItem } from "#app/lib/community.server.ts";
import { formatDate } from "#app/lib/format.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { pagingOf } from "#app/lib/paging.ts";
import { positiveParam } from "#app/lib/params.ts";
import { EmptyState } from "#app/components/EmptyState.tsx";
import { Table } from "#app/components/Table.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["community"],
  breadcrumb: [{ key: "menu.operations", to: "/g/home/operations" }, { key: "titles.opsSignups" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("opsSignups");

/** Operations: an event's sign-ups in the order they came (?eventId=N), with a CSV export. */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireOperator(request);
  const url = new URL(request.url);
  const eventId = positiveParam(url.searchParams.get("eventId"));
  if (!eventId) throw notFound();
  const api = apiFor(request, viewer);
  const [event, data] = await Promise.all([
    api.load("/sys/ops/community/post", { postId: eventId }),
    api.load("/sys/ops/community/signups", { eventId, ...pagingOf(url) }),
  ]);
  return json({ event: viewListItem(event, viewer.language), page: data.page, language: viewer.language });
}

export default function Signups() {
  const { event, page, language } = useLoaderData<typeof loader>();
  const { t } = useTranslation("community");
  return (
    <div className="space-y-4">
      <Link to="/g/home/operations/News?kind=event" className="link text-sm">
        ← {t("ops.backToList")}
      </Link>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-lg font-semibold">{t("signups.title", { title: event.title })}</h2>
        <a href={`/g/home/operations/Signups/export.csv?eventId=${event.postId}`} className="btn-secondary" download>
          {t("signups.export")}
        </a>
      </div>
      <p className="text-sm text-slate-600">
        {t("ops.signups", { count: event.signups, capacity: event.capacity ?? 0 })}
      </p>
      {page.rows.length === 0 ? (
        <EmptyState message={t("signups.empty")} />
      ) : (
        <Table
          label={t("signups.title", { title: event.title })}
          head={(["at", "user", "name", "email", "organization", "note"] as const).map((c) =>
            t(`signups.columns.${c}`),
          )}
        >
          {page.rows.map((s) => (
            <tr key={s.signupId} className="border-t border-slate-100" data-testid="signup-row">
              <td className="px-3 py-2">{formatDate(s.createdAt, language, true)}</td>
              <td className="px-3 py-2">{s.userName}</td>
              <td className="px-3 py-2">{s.name}</td>
              <td className="px-3 py-2">{s.email}</td>
              <td className="px-3 py-2">{s.organization}</td>
              <td className="px-3 py-2">{s.note}</td>
            </tr>
          ))}
        </Table>
      )}
      <Pagination pageIndex={page.pageIndex} pageSize={page.pageSize} total={page.total} />
    </div>
  );
}
