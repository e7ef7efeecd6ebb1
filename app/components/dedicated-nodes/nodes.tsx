import { Suspense, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Chart } from "#app/components/billing/UsageChart.tsx";
import { Table, td } from "#app/components/Table.tsx";
import { formatDate } from "#app/lib/format.ts";
import type { Language } from "#app/lib/i18n.ts";
import { NodeStatusBadge } from "./badges.tsx";
import { formatBytes } from "#app/lib/format-number.ts";

/** A node of a project as the provisioner reports it (SPEC §4 node component types; docs/decisions/046). */
export type ProjectNode = {
  name: string;
  type: number;
  status: string;
  endpoint: string;
  height: number | null;
  lag: number | null;
  requestsPerMinute: number;
  bytesUsed: number;
  /** What the node enforces (docs/decisions/074); null: none. */
  limits: { requestsPerSecond: number; storageBytes: number } | null;
  certificate: { subject: string; serial: string; notAfter: string; fingerprint: string } | null;
};

const dash = "—";

/** The nodes with their live figures: the page's content without JavaScript, and always shown. */
export function NodesTable({ nodes, origin, language }: { nodes: ProjectNode[]; origin: string; language: Language }) {
  const { t } = useTranslation("dedicatedNodes");
  return (
    <Table
      label={t("check.nodes")}
      regionTestId="node-list"
      head={[
        t("check.node"),
        t("check.type"),
        t("check.status"),
        t("check.endpoint"),
        t("check.height"),
        t("check.lag"),
        t("check.rpm"),
        t("check.dataUsed"),
        t("check.limits"),
        t("check.certificate"),
      ]}
    >
      {nodes.map((n) => (
        <tr key={n.name} data-testid="node-row" data-node={n.name}>
          <th scope="row" className={`${td} text-left font-medium`}>
            {n.name}
          </th>
          <td className={td} data-testid="node-type">
            {t(`nodeType.${n.type}`)}
          </td>
          <td className={td}>
            <NodeStatusBadge status={n.status} />
          </td>
          <td
            className={`${td} break-all font-mono text-xs`}
            data-testid="node-endpoint"
          >{`${origin}${n.endpoint}`}</td>
          <td className={`${td} tabular-nums`} data-testid="node-height">
            {n.height === null ? dash : n.height.toLocaleString(language)}
          </td>
          <td className={`${td} tabular-nums`} data-testid="node-lag">
            {n.lag === null ? dash : n.lag.toLocaleString(language)}
          </td>
          <td className={`${td} tabular-nums`}>{n.requestsPerMinute.toLocaleString(language)}</td>
          <td className={`${td} whitespace-nowrap tabular-nums`}>{formatBytes(n.bytesUsed)}</td>
          <td className={`${td} whitespace-nowrap text-xs`}>
            {n.limits ? (
              <dl className="space-y-0.5" data-testid="node-limits">
                <div>
                  <dt className="inline text-slate-500">{t("check.rateLimit")}: </dt>
                  <dd className="inline tabular-nums" data-testid="node-rate-limit">
                    {t("check.perSecond", { count: n.limits.requestsPerSecond })}
                  </dd>
                </div>
                <div>
                  <dt className="inline text-slate-500">{t("check.storageLimit")}: </dt>
                  <dd className="inline tabular-nums" data-testid="node-storage-limit">
                    {formatBytes(n.limits.storageBytes)}
                  </dd>
                </div>
              </dl>
            ) : (
              dash
            )}
          </td>
          <td className={`${td} text-xs`}>
            {n.certificate ? (
              <dl className="space-y-0.5" data-testid="node-certificate">
                <div>
                  <dt className="inline text-slate-500">{t("check.certSubject")}: </dt>
                  <dd className="inline font-mono">{n.certificate.subject}</dd>
                </div>
                <div>
                  <dt className="inline text-slate-500">{t("check.certSerial")}: </dt>
                  <dd className="inline break-all font-mono">{n.certificate.serial}</dd>
                </div>
                <div>
                  <dt className="inline text-slate-500">{t("check.certNotAfter")}: </dt>
                  <dd className="inline">{formatDate(n.certificate.notAfter, language, true)}</dd>
                </div>
                <div>
                  <dt className="inline text-slate-500">{t("check.certFingerprint")}: </dt>
                  <dd className="inline break-all font-mono">{n.certificate.fingerprint}</dd>
                </div>
              </dl>
            ) : (
              dash
            )}
          </td>
        </tr>
      ))}
    </Table>
  );
}

/**
 * Block height and lag of the orderer and each peer, and the requests per minute of every node, as bars:
 * with JavaScript only (react-apexcharts after hydration); the table above says the same without it.
 */
export function NodesChart({ nodes, language }: { nodes: ProjectNode[]; language: Language }) {
  const { t } = useTranslation("dedicatedNodes");
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const chained = nodes.filter((n) => n.type === 1 || n.type === 3);
  if (!hydrated || chained.length === 0) return null;
  const format = (v: number) => Math.round(v).toLocaleString(language);
  return (
    <section className="card space-y-2" aria-labelledby="prn-chart-title">
      <h2 id="prn-chart-title" className="font-semibold">
        {t("check.chartTitle")}
      </h2>
      <div role="img" aria-label={t("check.chartTitle")} data-testid="nodes-chart" className="min-h-64">
        <Suspense fallback={<div className="h-64 animate-pulse rounded bg-slate-100" />}>
          <Chart
            type="bar"
            height={256}
            series={[
              { name: t("check.chartHeight"), data: chained.map((n) => n.height ?? 0) },
              { name: t("check.chartLag"), data: chained.map((n) => n.lag ?? 0) },
              { name: t("check.chartRequests"), data: chained.map((n) => n.requestsPerMinute) },
            ]}
            options={{
              chart: { toolbar: { show: false }, animations: { enabled: false }, fontFamily: "inherit" },
              xaxis: { categories: chained.map((n) => n.name) },
              yaxis: { labels: { formatter: format } },
              dataLabels: { enabled: false },
              legend: { position: "bottom" },
              tooltip: { y: { formatter: format } },
              colors: ["#2563eb", "#ea580c", "#16a34a"],
            }}
          />
        </Suspense>
      </div>
    </section>
  );
}
