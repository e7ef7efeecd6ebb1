import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Badge } from "#app/components/Badge.tsx";
import { Pagination } from "#app/components/Pagination.tsx";
import { Table, td } from "#app/components/Table.tsx";
import { KeyTypeLabel } from "#app/components/public-chain/badges.tsx";
import { formatEther } from "#app/lib/format-number.ts";
import { PC, accountHref, projectHref } from "#app/lib/public-chain-urls.ts";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { formatDate, zoneHeader } from "#app/lib/format.ts";
import { chainAccountsCsvHref } from "#app/lib/list-exports.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { pageParam } from "#app/lib/params.ts";
import { idParam } from "#app/lib/public-chain.server.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { EmptyState } from "#app/components/EmptyState.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["publicChain"],
  breadcrumb: [
    { key: "menu.permissionlessServices", to: PC },
    { key: "titles.publicChainHome", to: `${PC}/Home` },
    { key: "titles.publicChainAccounts" },
  ],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("publicChainAccounts", (d: { project?: { name: string } }) => d.project?.name);

const PAGE_SIZE = 10;

/** SPEC §2 chain account management: a project's chain accounts with their gas read from the chain. */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const projectId = idParam(request, "projectId");
  const api = apiFor(request, viewer);
  const [project, accounts] = await Promise.all([
    api.load("/sys/opc/project/detail", { projectId }),
    api.load("/sys/opc/account/list", { projectId, pageIndex: pageParam(new URL(request.url)), pageSize: PAGE_SIZE }),
  ]);
  return json({ project, page: accounts.page, language: viewer.language });
}

export default function ChainAccounts() {
  const { project, page, language } = useLoaderData<typeof loader>();
  const { t } = useTranslation("publicChain");
  return (
    <div className="space-y-4">
      <PageHeader
        title={t("accounts.title", { name: project.name })}
        actions={
          <>
            <div className="flex gap-2">
              <Link className="btn-secondary" to={projectHref(project.projectId)}>
                {t("accounts.backToProject")}
              </Link>
              <a
                href={chainAccountsCsvHref(project.projectId)}
                className="btn-secondary"
                data-testid="accounts-csv"
                download
              >
                {t("accounts.export")}
              </a>
              <Link className="btn-primary" to={`${PC}/NewAccount?projectId=${project.projectId}`}>
                {t("accounts.create")}
              </Link>
            </div>
          </>
        }
      />
      {page.rows.length === 0 ? (
        <EmptyState message={t("accounts.empty")} testId="empty" />
      ) : (
        <Table
          label={t("accounts.title", { name: project.name })}
          regionTestId="account-list"
          head={[
            t("account.name"),
            t("account.address"),
            t("account.keyType"),
            t("account.gas"),
            zoneHeader(t, t("account.created")),
            t("index.actions"),
          ]}
        >
          {page.rows.map((a) => (
            <tr key={a.accountId} data-testid="account-row">
              <td className={td}>
                <Link className="link" to={accountHref(a.accountId)}>
                  {a.name}
                </Link>
              </td>
              <td className={`${td} break-all font-mono text-xs`}>{a.address}</td>
              <td className={td}>
                <KeyTypeLabel keyType={a.keyType} />
              </td>
              <td className={`${td} tabular-nums`}>
                {a.gasWei === null ? t("account.gasUnknown") : `${formatEther(a.gasWei)} ${t("account.unit")}`}
                {a.gasLow ? (
                  <div className="mt-1">
                    <Badge tone="wait" testId="gas-low">
                      {t("account.gasLow")}
                    </Badge>
                  </div>
                ) : null}
              </td>
              <td className={td}>{formatDate(a.createdAt, language, true, false)}</td>
              <td className={td}>
                <Link className="link" to={accountHref(a.accountId)}>
                  {t("accounts.detail")}
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
