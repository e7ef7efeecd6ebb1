import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { IPFS_TRAFFIC_DAYS } from "#contract/ipfs-codes.ts";
import { inLanguage } from "#app/components/details.tsx";
import { Table, td } from "#app/components/Table.tsx";
import { DayChart, type DaySeries } from "#app/components/public-chain/DayChart.tsx";
import { formatBytes } from "#app/lib/format-number.ts";
import { IPFS, serviceHref } from "#app/lib/ipfs-urls.ts";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { formatUsd } from "#app/lib/format.ts";
import { ipfsTrafficCsvHref } from "#app/lib/list-exports.ts";
import { serviceIdParam } from "#app/lib/ipfs.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["ipfs", "publicChain", "services", "billing"],
  breadcrumb: [{ key: "titles.ipfs", to: IPFS }, { key: "titles.ipfsTraffic" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("ipfsTraffic", (d: { service?: { name: string } }) => d.service?.name);

/**
 * SPEC §2 "download traffic detail" and §9: the bytes each city node gateway of the service served per UTC+8
 * day over 30 days, as a chart with JavaScript and a table without; billed weekly at each gateway's price.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const ipfsServiceId = serviceIdParam(request);
  const api = apiFor(request, viewer);
  const [service, traffic] = await Promise.all([
    api.load("/sys/ipfsBusiness/ipfs/detail", { ipfsServiceId }),
    api.load("/sys/ipfsBusiness/ipfs/traffic", { ipfsServiceId }),
  ]);
  return json({ service, traffic, language: viewer.language });
}

export default function IpfsTraffic() {
  const { service: s, traffic, language } = useLoaderData<typeof loader>();
  const { t } = useTranslation("ipfs");
  const index = new Map(traffic.days.map((d, i) => [d, i]));
  const byGateway = new Map(traffic.gateways.map((g) => [g.orgCode, traffic.days.map(() => 0)]));
  for (const r of traffic.rows) {
    const i = index.get(r.day);
    const row = byGateway.get(r.orgCode);
    if (i !== undefined && row) row[i] += r.bytes;
  }
  const series: DaySeries = {
    days: traffic.days,
    series:
      traffic.rows.length === 0
        ? []
        : traffic.gateways.map((g) => ({
            name: inLanguage(g.orgName, g.orgNameZh, language),
            data: byGateway.get(g.orgCode)!,
          })),
  };
  return (
    <div className="space-y-6">
      <PageHeader
        title={t("traffic.title", { name: s.name })}
        actions={
          <>
            <div className="flex gap-2">
              <a
                href={ipfsTrafficCsvHref(s.ipfsServiceId)}
                className="btn-secondary"
                data-testid="traffic-csv"
                download
              >
                {t("traffic.export")}
              </a>
              <Link className="btn-secondary" to={serviceHref(s.ipfsServiceId)}>
                {t("traffic.back")}
              </Link>
            </div>
          </>
        }
      />
      <section className="card space-y-3">
        <p className="text-sm text-slate-600" data-testid="traffic-total">
          {t("traffic.total", { total: formatBytes(traffic.totalBytes), days: IPFS_TRAFFIC_DAYS })}
        </p>
        <DayChart
          data={series}
          language={language}
          testId="traffic"
          unit=""
          format={formatBytes}
          texts={{
            title: t("traffic.chart", { days: IPFS_TRAFFIC_DAYS }),
            day: t("traffic.day"),
            total: t("traffic.dayTotal"),
            showTable: t("traffic.showTable"),
            empty: t("traffic.none"),
          }}
        />
      </section>
      <section className="space-y-2">
        <h2 className="text-lg font-semibold">{t("traffic.byGateway")}</h2>
        <Table
          label={t("traffic.byGateway")}
          regionTestId="traffic-gateways"
          head={[t("gateway.node"), t("gateway.price"), t("traffic.served")]}
        >
          {traffic.gateways.map((g) => (
            <tr key={g.orgCode}>
              <td className={td}>{inLanguage(g.orgName, g.orgNameZh, language)}</td>
              <td className={`${td} tabular-nums`}>
                {t("create.trafficPrice", { price: formatUsd(g.flowPriceCents, language) })}
              </td>
              <td className={`${td} tabular-nums`} data-testid={`served-${g.orgCode}`}>
                {formatBytes(byGateway.get(g.orgCode)!.reduce((a, b) => a + b, 0))}
              </td>
            </tr>
          ))}
        </Table>
        <p className="text-xs text-slate-600">{t("traffic.billing")}</p>
      </section>
      {traffic.topFiles.length > 0 ? (
        <section className="space-y-2">
          <h2 className="text-lg font-semibold">{t("traffic.topFiles")}</h2>
          <Table
            label={t("traffic.topFiles")}
            regionTestId="traffic-files"
            head={[t("traffic.file"), t("traffic.cid"), t("traffic.served")]}
          >
            {traffic.topFiles.map((f) => (
              <tr key={f.cid}>
                <td className={td} data-user-content="">
                  {f.name ?? "—"}
                </td>
                <td className={`${td} font-mono text-xs break-all`}>{f.cid}</td>
                <td className={`${td} tabular-nums`}>{formatBytes(f.bytes)}</td>
              </tr>
            ))}
          </Table>
          <p className="text-xs text-slate-600">{t("traffic.topFilesNote")}</p>
        </section>
      ) : null}
    </div>
  );
}
