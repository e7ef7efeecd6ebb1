import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { TICKET_STATUSES } from "#contract/support-codes.ts";
import { FilterPills } from "#app/components/FilterPills.tsx";
import { Pagination } from "#app/components/Pagination.tsx";
import { TicketStatusBadge } from "#app/components/support/ticket.tsx";
import { apiFor, requireOperator } from "#app/lib/api.server.ts";
import { formatDate } from "#app/lib/format.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { pagingOf } from "#app/lib/paging.ts";
import { oneOf } from "#app/lib/params.ts";
import { EmptyState } from "#app/components/EmptyState.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["support"],
  breadcrumb: [{ key: "menu.operations", to: "/g/home/operations" }, { key: "titles.supportTickets" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("supportTickets");

/**
 * Operations: support tickets (docs/decisions/041). By default those waiting (open first, then answered), the
 * longest waiting first; each opens on its page to read, reply and close.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireOperator(request);
  const url = new URL(request.url);
  const status = oneOf(TICKET_STATUSES, url.searchParams.get("status"));
  const data = await apiFor(request, viewer).load("/sys/ops/tickets/list", { ...pagingOf(url), status });
  return json({ ...data, status: status ?? null, language: viewer.language });
}

export default function TicketQueue() {
  const { page, status, language } = useLoaderData<typeof loader>();
  const { t } = useTranslation("support");
  const filters = [
    { key: "waiting", to: "?", label: t("ops.waiting"), current: status === null },
    ...TICKET_STATUSES.map((s) => ({ key: s, to: `?status=${s}`, label: t(`status.${s}`), current: status === s })),
  ];
  return (
    <div className="space-y-4">
      <h2 className="text-lg font-semibold">{t("ops.title")}</h2>
      <p className="text-sm text-slate-600">{t("ops.intro")}</p>
      <FilterPills label={t("list.filter")} links={filters} />
      {page.rows.length === 0 ? (
        <EmptyState message={t("ops.empty")} />
      ) : (
        <ul className="space-y-2">
          {page.rows.map((r) => (
            <li
              key={r.ticketId}
              className="card flex flex-wrap items-center justify-between gap-3 p-4"
              data-testid="ops-ticket"
            >
              <div className="min-w-0 flex-1">
                <Link to={`/g/home/operations/TicketDetail?ticketId=${r.ticketId}`} className="link font-semibold">
                  {t("detail.title", { id: r.ticketId })}
                </Link>
                <p className="truncate text-sm text-slate-700" data-user-content>
                  {r.question}
                </p>
                <p className="text-xs text-slate-600">
                  {r.owner ? <span data-user-content>{r.owner}</span> : t("ops.visitor")} ·{" "}
                  <span data-user-content>{r.contact}</span> · {t(`sources.${r.source}`)} · {t("list.updated")}:{" "}
                  {formatDate(r.updatedAt, language, true)}
                </p>
              </div>
              <TicketStatusBadge status={r.status} />
            </li>
          ))}
        </ul>
      )}
      <Pagination pageIndex={page.pageIndex} pageSize={page.pageSize} total={page.total} />
    </div>
  );
}
