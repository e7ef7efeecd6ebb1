import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ACTIVITY_KINDS, type ActivityEntry } from "#contract/activity.ts";
import { DateFilter, ListFilterForm, SelectFilter } from "#app/components/ListFilters.tsx";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { RecordTable, type Column } from "#app/components/RecordTable.tsx";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { activityFilterFromQuery, activityQuery } from "#app/lib/activity.server.ts";
import { detailsText } from "#app/lib/audit.ts";
import { formatDate, zoneHeader } from "#app/lib/format.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { pageParam } from "#app/lib/params.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["common", "activity"],
  breadcrumb: [{ key: "menu.userCenter" }, { key: "menu.activity" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("activity");

const PAGE = "/g/home/userCenter/Activity";
const PAGE_SIZE = 20;

/**
 * Team activity (issue 33 "who did what", docs/decisions/079): every change made in the acting account's name
 * with the member who made it, newest first; filtered by member, kind and UTC+8 days with a GET form (no
 * JavaScript needed); the same filters export as CSV. Every role reads it; an individual sees their own.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const url = new URL(request.url);
  const filter = activityFilterFromQuery(url.searchParams);
  const data = await apiFor(request, viewer).load("/sys/team/activity", {
    ...filter,
    pageIndex: pageParam(url),
    pageSize: PAGE_SIZE,
  });
  return json({
    ...data,
    filter,
    exportHref: `${PAGE}/export.csv${activityQuery(filter)}`,
    language: viewer.language,
  });
}

export default function ActivityPage() {
  const { page, actors, filter, exportHref, language } = useLoaderData<typeof loader>();
  const { t } = useTranslation("activity");
  const columns: Column<ActivityEntry>[] = [
    {
      header: zoneHeader(t, t("columns.at")),
      cell: (e) => formatDate(e.at, language, true, false),
      className: "whitespace-nowrap",
    },
    { header: t("columns.member"), cell: (e) => e.memberName, userContent: true, cellTestId: "activity-member" },
    {
      header: t("columns.action"),
      cell: (e) => t(`actions.${e.action}`, { defaultValue: e.action }),
      cellTestId: "activity-action",
    },
    { header: t("columns.kind"), cell: (e) => t(`kinds.${e.kind}`, { defaultValue: e.kind }) },
    { header: t("columns.target"), cell: (e) => e.targetId ?? "—", className: "font-mono text-xs" },
    {
      header: t("columns.details"),
      cell: (e) => <span className="font-mono text-xs">{detailsText(e.details)}</span>,
      className: "max-w-xs break-words",
      userContent: true,
    },
  ];
  return (
    <section className="space-y-4" aria-labelledby="activity-title">
      <PageHeader
        title={t("title")}
        titleId="activity-title"
        description={t("intro")}
        actions={
          <a href={exportHref} download className="btn-secondary" data-testid="activity-export">
            {t("export")}
          </a>
        }
      />
      <ListFilterForm
        label={t("filters.label")}
        grid="lg:grid-cols-4"
        searchLabel={t("filters.search")}
        resetLabel={t("filters.reset")}
        resetTo={PAGE}
      >
        <SelectFilter
          id="activity-member"
          name="memberId"
          label={t("filters.member")}
          value={filter.memberId}
          allLabel={t("filters.all")}
          options={actors.map((a) => ({ value: a.memberId, label: a.memberName, userContent: true }))}
        />
        <SelectFilter
          id="activity-kind"
          name="kind"
          label={t("filters.kind")}
          value={filter.kind}
          allLabel={t("filters.all")}
          options={ACTIVITY_KINDS.map((k) => ({ value: k, label: t(`kinds.${k}`) }))}
        />
        <DateFilter id="activity-from" name="dateFrom" label={t("filters.dateFrom")} value={filter.dateFrom} />
        <DateFilter id="activity-to" name="dateTo" label={t("filters.dateTo")} value={filter.dateTo} />
      </ListFilterForm>
      <RecordTable
        label={t("title")}
        page={page}
        columns={columns}
        rowKey={(e) => e.id}
        rowTestId="activity-entry"
        testId="activity-table"
        empty={t("empty")}
        emptyTestId="activity-empty"
      />
    </section>
  );
}
