import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Pagination } from "#app/components/Pagination.tsx";
import { Table, td } from "#app/components/Table.tsx";
import { TestServiceBadge } from "#app/components/test-services/badges.tsx";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { formatDate, zoneHeader } from "#app/lib/format.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { pagingOf } from "#app/lib/paging.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { EmptyState } from "#app/components/EmptyState.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = { i18n: ["testServices"], breadcrumb: [{ key: "menu.testServices" }] };
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("testServices");

/** SPEC §2 TestServices: the caller's test services, newest first, paged; an empty state leads to the first one. */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const url = new URL(request.url);
  const data = await apiFor(request, viewer).load("/sys/testService/list", pagingOf(url));
  return json({ ...data, language: viewer.language });
}

export default function TestServices() {
  const { page, language } = useLoaderData<typeof loader>();
  const { t } = useTranslation("testServices");
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <PageHeader title={t("list.title")} />
          <p className="text-sm text-slate-600">{t("list.intro")}</p>
        </div>
        <Link to="/g/home/TestServices/TestServicesNew" className="btn-primary">
          {t("list.new")}
        </Link>
      </div>
      {page.rows.length === 0 ? (
        <EmptyState
          message={t("list.empty")}
          action={
            <>
              <Link to="/g/home/TestServices/TestServicesNew" className="mt-2 inline-block underline">
                {t("list.emptyAction")}
              </Link>
            </>
          }
          testId="empty"
        />
      ) : (
        <Table
          label={t("list.title")}
          head={[
            t("fields.name"),
            t("fields.version"),
            t("fields.platform"),
            zoneHeader(t, t("list.deployTime")),
            t("fields.status"),
            t("list.actions"),
          ]}
          regionTestId="test-services"
        >
          {page.rows.map((s) => (
            <tr key={s.testServiceId} data-testid="test-service-row">
              <td className={td} data-user-content="">
                {s.name}
              </td>
              <td className={td}>{s.version}</td>
              <td className={td}>{t(`platforms.${s.platform}`)}</td>
              <td className={td}>{s.deployTime ? formatDate(s.deployTime, language, true, false) : "—"}</td>
              <td className={td}>
                <TestServiceBadge status={s.status} />
              </td>
              <td className={td}>
                <Link to={`/g/home/TestServices/TestServicesDetail?id=${s.testServiceId}`} className="underline">
                  {t("list.details")}
                </Link>
              </td>
            </tr>
          ))}
        </Table>
      )}
      <Pagination pageIndex={page.pageIndex} pageSize={page.pageSize} total={page.total} sizes />
    </div>
  );
}
