import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { BlockedLink } from "#app/components/BlockedAction.tsx";
import { Pagination } from "#app/components/Pagination.tsx";
import { inLanguage } from "#app/components/details.tsx";
import { Table, td } from "#app/components/Table.tsx";
import { CapacityMeter, ServiceStatusBadge, capacityLabel } from "#app/components/ipfs/badges.tsx";
import { IPFS, serviceHref, trafficHref } from "#app/lib/ipfs-urls.ts";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { formatDate, zoneHeader } from "#app/lib/format.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { pageParam } from "#app/lib/params.ts";
import { blockOf } from "#app/lib/unpaid-guard.server.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { EmptyState } from "#app/components/EmptyState.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = { i18n: ["ipfs", "billing", "services"], breadcrumb: [{ key: "titles.ipfs" }] };
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("ipfs");

const PAGE_SIZE = 10;

/**
 * IPFS storage (SPEC §1, §2 IPFS service screens, §3): the user's services with their capacity used, files,
 * city node gateways and status; a new service is blocked by unpaid bills (§5 "new services").
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const api = apiFor(request, viewer);
  const [list, block] = await Promise.all([
    api.load("/sys/ipfsBusiness/ipfs/list", { pageIndex: pageParam(new URL(request.url)), pageSize: PAGE_SIZE }),
    blockOf(api, 1),
  ]);
  return json({ page: list.page, block, language: viewer.language });
}

export default function IpfsServices() {
  const { page, block, language } = useLoaderData<typeof loader>();
  const { t } = useTranslation("ipfs");
  return (
    <div className="space-y-6">
      <PageHeader
        title={t("list.title")}
        description={t("list.intro")}
        actions={
          <>
            <BlockedLink to={`${IPFS}/New`} action="newIpfsService" block={block} className="btn-primary">
              {t("list.new")}
            </BlockedLink>
          </>
        }
      />
      {page.rows.length === 0 ? (
        <EmptyState
          message={t("list.empty")}
          action={
            <>
              <p className="mt-2 text-sm">
                <Link className="link" to="/g/main/documentation?page=ipfs-gateway">
                  {t("list.guide")}
                </Link>
              </p>
            </>
          }
          testId="empty"
        />
      ) : (
        <Table
          label={t("list.title")}
          regionTestId="ipfs-list"
          head={[
            t("service.name"),
            t("service.capacity"),
            t("service.files"),
            t("service.gateways"),
            t("service.status"),
            zoneHeader(t, t("service.created")),
            t("list.actions"),
          ]}
        >
          {page.rows.map((s) => (
            <tr key={s.ipfsServiceId} data-testid="ipfs-row">
              <td className={td}>
                <Link className="link font-medium" to={serviceHref(s.ipfsServiceId)}>
                  {s.name}
                </Link>
                <span className="block text-xs text-slate-600">{capacityLabel(s.storeUnit)}</span>
              </td>
              <td className={td}>
                <CapacityMeter used={s.usedBytes} capacity={s.capacityBytes} />
              </td>
              <td className={`${td} tabular-nums`}>{s.files.toLocaleString(language)}</td>
              <td className={td}>{s.gateways.map((g) => inLanguage(g.orgName, g.orgNameZh, language)).join(", ")}</td>
              <td className={td}>
                <ServiceStatusBadge status={s.status} />
              </td>
              <td className={td}>{formatDate(s.createdAt, language, true, false)}</td>
              <td className={`${td} space-x-3 whitespace-nowrap`}>
                <Link className="link" to={serviceHref(s.ipfsServiceId)}>
                  {t("list.open")}
                </Link>
                <Link className="link" to={trafficHref(s.ipfsServiceId)}>
                  {t("list.traffic")}
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
