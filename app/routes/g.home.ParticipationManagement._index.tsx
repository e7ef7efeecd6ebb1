import { json, redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { AUDIT_STATES } from "#contract/participation-codes.ts";
import { Pagination } from "#app/components/Pagination.tsx";
import { SearchForm } from "#app/components/SearchForm.tsx";
import { Table, td } from "#app/components/Table.tsx";
import { AuditBadge } from "#app/components/participation/status.tsx";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { formatDate, zoneHeader } from "#app/lib/format.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { oneOf, positiveParam, searchParam } from "#app/lib/params.ts";
import { manageQueryHeader, readManageQuery } from "#app/lib/participation.server.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { EmptyState } from "#app/components/EmptyState.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["participation"],
  breadcrumb: [{ key: "menu.permissionedServices" }, { key: "menu.participationManagement" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("participationManagement");

const PAGE_SIZE = 10;
const KEYS = ["name", "auditState", "page"] as const;

/**
 * SPEC §2 ParticipationManagement ("kept alive"): the requests to join the publisher's services. Filters and
 * page live in the URL; the last query is remembered in a cookie, so the menu link (no query) comes back to
 * it (docs/decisions/013).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const url = new URL(request.url);
  const own = new URLSearchParams();
  for (const k of KEYS) {
    const v = url.searchParams.get(k);
    if (v) own.set(k, v.slice(0, 50));
  }
  if (![...own.keys()].length && !url.searchParams.has("all")) {
    const last = await readManageQuery(request);
    if (last) throw redirect(`${url.pathname}?${last}`);
  }
  const name = searchParam(own);
  const auditState = oneOf(AUDIT_STATES, own.get("auditState"));
  const page = positiveParam(own.get("page")) ?? 1;
  const data = await apiFor(request, viewer).load("/sys/chainAppInfo/joinManageList", {
    page: {
      pageSize: PAGE_SIZE,
      pageIndex: page,
      condition: { ...(name ? { name } : {}), ...(auditState !== undefined ? { auditState } : {}) },
    },
  });
  return json(
    { ...data, name, auditState: auditState ?? "", query: own.toString(), language: viewer.language },
    { headers: { "Set-Cookie": await manageQueryHeader(own.toString()) } },
  );
}

export default function ParticipationManagement() {
  const { page, name, auditState, query, language } = useLoaderData<typeof loader>();
  const { t } = useTranslation("participation");
  const back = encodeURIComponent(query);
  return (
    <div className="space-y-4">
      <PageHeader title={t("manage.title")} />
      <SearchForm
        idPrefix="pm"
        search={{ label: t("manage.search"), value: name }}
        filter={{
          name: "auditState",
          label: t("manage.audit"),
          value: String(auditState),
          allLabel: t("manage.all"),
          options: AUDIT_STATES.map((s) => ({ value: s, label: t(`audit.${s}`) })),
        }}
        submit={{ label: t("manage.filter"), className: "btn-secondary" }}
      >
        <input type="hidden" name="all" value="1" />
      </SearchForm>
      {page.rows.length === 0 ? (
        <EmptyState
          message={name || auditState !== "" ? t("manage.emptyFiltered") : t("manage.empty")}
          testId="empty"
        />
      ) : (
        <Table
          label={t("manage.title")}
          head={[
            t("manage.service"),
            t("manage.applicant"),
            t("manage.role"),
            zoneHeader(t, t("manage.applied")),
            t("manage.state"),
            "",
          ]}
          regionTestId="manage-list"
        >
          {page.rows.map((r) => (
            <tr key={r.appJoinAuditId}>
              <td className={td} data-user-content="">
                {r.name}
              </td>
              <td className={td} data-user-content="">
                {r.applicant}
              </td>
              <td className={td} data-user-content="">
                {r.roleName}
              </td>
              <td className={td}>{formatDate(r.createdAt, language, true, false)}</td>
              <td className={`${td} space-x-1`}>
                <AuditBadge auditState={r.auditState} />
                {r.disabled ? <span className="text-xs text-red-700">{t("manage.disabled")}</span> : null}
              </td>
              <td className={td}>
                <Link
                  to={`/g/home/ParticipationManagement/View?appJoinAuditId=${r.appJoinAuditId}&back=${back}`}
                  className="link"
                >
                  {t("manage.view")}
                </Link>
              </td>
            </tr>
          ))}
        </Table>
      )}
      <Pagination pageIndex={page.pageIndex} pageSize={page.pageSize} total={page.total} />
    </div>
  );
}
