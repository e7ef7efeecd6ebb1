import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { LIST_STATUSES } from "#contract/participation-codes.ts";
import { Pagination } from "#app/components/Pagination.tsx";
import { SearchForm } from "#app/components/SearchForm.tsx";
import { Table, td } from "#app/components/Table.tsx";
import { AuditBadge, ListStatusBadge } from "#app/components/participation/status.tsx";
import { participatedDetailHref } from "#app/lib/participation-urls.ts";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { formatDate, zoneHeader } from "#app/lib/format.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { oneOf, pageParam, searchParam } from "#app/lib/params.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { EmptyState } from "#app/components/EmptyState.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["participation"],
  breadcrumb: [{ key: "menu.permissionedServices" }, { key: "menu.participatedServices" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("participatedServices");

const PAGE_SIZE = 10;

/** SPEC §2 ParticipatedServices: the caller's participations with the §4 participated-list statuses. */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const url = new URL(request.url);
  const name = searchParam(url.searchParams);
  const status = oneOf(LIST_STATUSES, url.searchParams.get("status"));
  const page = pageParam(url);
  const data = await apiFor(request, viewer).load("/sys/chainAppInfo/participatedList", {
    page: {
      pageSize: PAGE_SIZE,
      pageIndex: page,
      condition: { ...(name ? { name } : {}), ...(status ? { status } : {}) },
    },
  });
  return json({ ...data, name, status: status ?? "", language: viewer.language });
}

export default function ParticipatedServices() {
  const { page, name, status, language } = useLoaderData<typeof loader>();
  const { t } = useTranslation("participation");
  const filtered = !!name || !!status;
  return (
    <div className="space-y-4">
      <PageHeader title={t("list.title")} />
      <SearchForm
        idPrefix="pl"
        search={{ label: t("list.search"), value: name }}
        filter={{
          name: "status",
          label: t("list.status"),
          value: status,
          allLabel: t("list.allStatuses"),
          options: LIST_STATUSES.map((s) => ({ value: s, label: t(`listStatus.${s}`) })),
        }}
        submit={{ label: t("list.filter"), className: "btn-secondary" }}
      />
      {page.rows.length === 0 ? (
        <EmptyState message={filtered ? t("list.emptyFiltered") : t("list.empty")} testId="empty" />
      ) : (
        <Table
          label={t("list.title")}
          head={[
            t("list.name"),
            t("list.role"),
            t("list.status"),
            t("list.audit"),
            zoneHeader(t, t("list.applied")),
            t("list.actions"),
          ]}
          regionTestId="participated-list"
        >
          {page.rows.map((r) => (
            <tr key={r.appJoinAuditId}>
              <td className={td}>{r.name}</td>
              <td className={td}>{r.roleName}</td>
              <td className={td}>
                <ListStatusBadge status={r.listStatus} />
              </td>
              <td className={td}>
                <AuditBadge auditState={r.auditState} />
              </td>
              <td className={td}>{formatDate(r.createdAt, language, true, false)}</td>
              <td className={`${td} space-x-3`}>
                <Link to={participatedDetailHref(r)} className="link">
                  {t("list.detail")}
                </Link>
                {r.listStatus === "toConfirm" || r.listStatus === "confirmed" ? (
                  <Link to={`/g/home/ParticipatedServices/Access?appId=${r.appId}`} className="link">
                    {t("list.access")}
                  </Link>
                ) : null}
              </td>
            </tr>
          ))}
        </Table>
      )}
      <Pagination pageIndex={page.pageIndex} pageSize={page.pageSize} total={page.total} />
    </div>
  );
}
