import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { AUDIT_ACTIONS, AUDIT_TARGETS, type AuditEntry } from "#contract/audit.ts";
import { DateFilter, ListFilterForm, SelectFilter } from "#app/components/ListFilters.tsx";
import { RecordTable, type Column } from "#app/components/RecordTable.tsx";
import { apiFor, requireOperator } from "#app/lib/api.server.ts";
import { detailsText } from "#app/lib/audit.ts";
import { auditFilterFromQuery, auditQuery } from "#app/lib/audit.server.ts";
import { formatDate, zoneHeader } from "#app/lib/format.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { pageParam } from "#app/lib/params.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = { i18n: ["audit", "legal"], breadcrumb: [{ key: "titles.auditLog" }] };
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("auditLog");

const PAGE_SIZE = 20;

/**
 * Operations → Audit log (docs/decisions/022): every operator decision and second-factor event, newest
 * first, filtered by operator, action, target and UTC+8 days; the same filters export as CSV.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireOperator(request);
  const url = new URL(request.url);
  const filter = auditFilterFromQuery(url.searchParams);
  const data = await apiFor(request, viewer).load("/sys/ops/audit/list", {
    ...filter,
    pageIndex: pageParam(url),
    pageSize: PAGE_SIZE,
  });
  return json({
    ...data,
    filter,
    exportHref: `/g/home/operations/AuditLog/export.csv${auditQuery(filter)}`,
    language: viewer.language,
  });
}

export default function AuditLogPage() {
  const { page, filter, exportHref, language } = useLoaderData<typeof loader>();
  const { t } = useTranslation("audit");
  // A legal or contact page is named by its title (its id is the page's internal key); other targets by their id.
  const targetId = (e: AuditEntry) =>
    !e.targetId
      ? ""
      : ` ${e.targetType === "legalText" ? t(`legal:pages.${e.targetId}`, { defaultValue: e.targetId }) : e.targetId}`;
  const columns: Column<AuditEntry>[] = [
    {
      header: zoneHeader(t, t("columns.at")),
      cell: (e) => formatDate(e.at, language, true, false),
      className: "whitespace-nowrap",
    },
    { header: t("columns.actor"), cell: (e) => e.actorName, userContent: true },
    {
      header: t("columns.action"),
      cell: (e) => t(`actions.${e.action}`, { defaultValue: e.action }),
      cellTestId: "audit-action",
    },
    {
      header: t("columns.target"),
      cell: (e) => `${t(`targets.${e.targetType}`, { defaultValue: e.targetType })}${targetId(e)}`,
      cellTestId: "audit-target",
    },
    {
      header: t("columns.decision"),
      cell: (e) => (e.decision ? t(`decisions.${e.decision}`, { defaultValue: e.decision }) : "—"),
      cellTestId: "audit-decision",
    },
    {
      header: t("columns.comments"),
      cell: (e) => e.comments ?? "",
      className: "max-w-xs break-words",
      userContent: true,
    },
    {
      header: t("columns.details"),
      cell: (e) => <span className="font-mono text-xs">{detailsText(e.details)}</span>,
      className: "max-w-xs break-words",
    },
    { header: t("columns.clientIp"), cell: (e) => e.clientIp ?? "—", className: "font-mono text-xs" },
  ];
  return (
    <section className="space-y-4" aria-labelledby="audit-title">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="audit-title" className="text-lg font-semibold">
          {t("title")}
        </h2>
        <a href={exportHref} download className="btn-secondary" data-testid="audit-export">
          {t("export")}
        </a>
      </div>
      <p className="text-sm text-slate-600">{t("intro")}</p>
      <ListFilterForm
        label={t("filters.label")}
        grid="lg:grid-cols-4"
        searchLabel={t("filters.search")}
        resetLabel={t("filters.reset")}
        resetTo="/g/home/operations/AuditLog"
      >
        <div>
          <label htmlFor="audit-actor" className="label">
            {t("filters.actor")}
          </label>
          <input id="audit-actor" name="actor" defaultValue={filter.actor ?? ""} maxLength={25} className="input" />
        </div>
        <SelectFilter
          id="audit-action"
          name="action"
          label={t("filters.action")}
          value={filter.action}
          allLabel={t("filters.all")}
          options={AUDIT_ACTIONS.map((a) => ({ value: a, label: t(`actions.${a}`) }))}
        />
        <SelectFilter
          id="audit-target-type"
          name="targetType"
          label={t("filters.targetType")}
          value={filter.targetType}
          allLabel={t("filters.all")}
          options={AUDIT_TARGETS.map((a) => ({ value: a, label: t(`targets.${a}`) }))}
        />
        <div>
          <label htmlFor="audit-target-id" className="label">
            {t("filters.targetId")}
          </label>
          <input
            id="audit-target-id"
            name="targetId"
            defaultValue={filter.targetId ?? ""}
            maxLength={40}
            className="input"
          />
        </div>
        <DateFilter id="audit-from" name="dateFrom" label={t("filters.dateFrom")} value={filter.dateFrom} />
        <DateFilter id="audit-to" name="dateTo" label={t("filters.dateTo")} value={filter.dateTo} />
      </ListFilterForm>
      <RecordTable
        label={t("title")}
        page={page}
        columns={columns}
        rowKey={(e) => e.id}
        rowTestId="audit-entry"
        testId="audit-table"
        empty={t("empty")}
        emptyTestId="audit-empty"
      />
    </section>
  );
}
