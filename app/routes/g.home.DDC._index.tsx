import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Pagination } from "#app/components/Pagination.tsx";
import { Table, td } from "#app/components/Table.tsx";
import { DdcStatusBadge, VaultLink } from "#app/components/ddc/details.tsx";
import { DDC_HOME, ddcDetailHref } from "#app/lib/ddc-urls.ts";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { getEnv } from "#app/lib/env.server.ts";
import { formatDate, zoneHeader } from "#app/lib/format.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { pageParam } from "#app/lib/params.ts";
import { EmptyState } from "#app/components/EmptyState.tsx";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = { i18n: ["ddc"], breadcrumb: [{ key: "titles.ddc" }] };
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("ddc");

const PAGE_SIZE = 10;

/** My DDCs (docs/decisions/045): the certificates the user minted, newest first. */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const list = await apiFor(request, viewer).load("/sys/ddc/list", {
    pageIndex: pageParam(new URL(request.url)),
    pageSize: PAGE_SIZE,
  });
  return json({ page: list.page, vaultUrl: getEnv().DDC_VAULT_URL, language: viewer.language });
}

export default function MyDdcs() {
  const { page, vaultUrl, language } = useLoaderData<typeof loader>();
  const { t } = useTranslation("ddc");
  return (
    <div className="space-y-6">
      <PageHeader
        title={t("list.title")}
        description={
          <>
            <p>{t("list.intro")}</p>
            <p className="mt-1">
              <VaultLink href={vaultUrl} />
            </p>
          </>
        }
        actions={
          <Link to={`${DDC_HOME}/New`} className="btn-primary" data-testid="ddc-new">
            {t("list.new")}
          </Link>
        }
      />
      {page.rows.length === 0 ? (
        <EmptyState message={t("list.empty")} testId="empty" />
      ) : (
        <Table
          label={t("list.title")}
          regionTestId="ddc-list"
          head={[
            t("fields.name"),
            t("fields.project"),
            t("fields.tokenId"),
            t("fields.storage"),
            t("fields.status"),
            zoneHeader(t, t("fields.created")),
          ]}
        >
          {page.rows.map((d) => (
            <tr key={d.ddcId} data-testid="ddc-row">
              <td className={td}>
                <Link className="link font-medium" to={ddcDetailHref(d.ddcId)}>
                  {d.name}
                </Link>
              </td>
              <td className={td}>
                {d.projectName}
                <span className="block text-xs text-slate-600">{d.accountName}</span>
              </td>
              <td className={`${td} tabular-nums`}>{d.tokenId}</td>
              <td className={td}>{t(`storage.${d.storage}`)}</td>
              <td className={td}>
                <DdcStatusBadge status={d.status} />
              </td>
              <td className={td}>{formatDate(d.createdAt, language, true, false)}</td>
            </tr>
          ))}
        </Table>
      )}
      <Pagination pageIndex={page.pageIndex} pageSize={page.pageSize} total={page.total} />
    </div>
  );
}
