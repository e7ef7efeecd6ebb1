import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { UpgradeRow } from "#contract/configuration.ts";
import { UpgradeStatus } from "#contract/config-upgrade-codes.ts";
import { formatDate, formatUsd } from "#app/lib/format.ts";
import type { Language } from "#app/lib/i18n.ts";
import { EmptyState } from "#app/components/EmptyState.tsx";

/** Shared pieces of Configuration, ConfigurationNew, ConfigurationDetail and the operators' queue (namespace "configuration"). */

export const CONFIGURATION = "/g/home/Configuration";
export const CONFIGURATION_NEW = "/g/home/ConfigurationNew";
export const upgradeHref = (upgradeId: number) => `/g/home/ConfigurationDetail?upgradeId=${upgradeId}`;

const TONE: Record<number, string> = {
  [UpgradeStatus.UPGRADING]: "bg-sky-50 text-sky-800 ring-sky-200",
  [UpgradeStatus.SUCCESS]: "bg-green-50 text-green-800 ring-green-200",
  [UpgradeStatus.FAILED]: "bg-red-50 text-red-800 ring-red-200",
};

/** §4 upgrade status as a badge. */
export function UpgradeStatusBadge({ status }: { status: number }) {
  const { t } = useTranslation("configuration");
  return (
    <span
      data-testid="upgrade-status"
      className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ${TONE[status] ?? ""}`}
    >
      {t(`status.${status}`)}
    </span>
  );
}

/** The payment status of an upgrade's bill, or what it waits for before it has one. */
export function payStateText(
  t: (k: string) => string,
  row: Pick<UpgradeRow, "payState" | "reviewState" | "amountCents">,
) {
  if (row.payState !== null) return t(`billing:payStates.${row.payState}`);
  if (row.amountCents === 0) return t("configuration:nothingToPay");
  return row.reviewState === 1 ? t("configuration:afterReview") : "—";
}

/** Upgrades as a table: number, service, type, time, amount, status, payment (Configuration and a service's history). */
export function UpgradeTable({
  rows,
  language,
  showService = true,
}: {
  rows: UpgradeRow[];
  language: Language;
  showService?: boolean;
}) {
  const { t } = useTranslation(["configuration", "billing"]);
  if (rows.length === 0) return <EmptyState message={t("configuration:empty")} testId="upgrades-empty" />;
  return (
    <div className="overflow-x-auto rounded-md border border-slate-200">
      <table className="min-w-full text-sm" data-testid="upgrade-table">
        <thead className="bg-slate-50 text-left text-xs uppercase tracking-wide text-slate-600">
          <tr>
            <th scope="col" className="px-3 py-2">
              {t("configuration:columns.number")}
            </th>
            {showService ? (
              <th scope="col" className="px-3 py-2">
                {t("configuration:columns.service")}
              </th>
            ) : null}
            <th scope="col" className="px-3 py-2">
              {t("configuration:columns.type")}
            </th>
            <th scope="col" className="px-3 py-2">
              {t("common:zoneHeader", { label: t("configuration:columns.time") })}
            </th>
            <th scope="col" className="px-3 py-2 text-right">
              {t("configuration:columns.amount")}
            </th>
            <th scope="col" className="px-3 py-2">
              {t("configuration:columns.status")}
            </th>
            <th scope="col" className="px-3 py-2">
              {t("configuration:columns.payState")}
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((r) => (
            <tr key={r.upgradeId} data-testid="upgrade-row">
              <td className="px-3 py-2">
                <Link className="link font-mono text-xs" to={upgradeHref(r.upgradeId)}>
                  {r.upgradeNo}
                </Link>
              </td>
              {showService ? <td className="px-3 py-2">{r.serviceName}</td> : null}
              <td className="px-3 py-2">{t(`configuration:types.${r.upgradeType}`)}</td>
              <td className="px-3 py-2">{formatDate(r.createdAt, language, true)}</td>
              <td className="px-3 py-2 text-right tabular-nums">{formatUsd(r.amountCents, language)}</td>
              <td className="px-3 py-2">
                <UpgradeStatusBadge status={r.status} />
              </td>
              <td className="px-3 py-2">{payStateText(t, r)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A configuration as a short list: node, TPS, capacity, bookkeeping nodes. */
export function ConfigList({
  nodes,
  language,
  testId,
}: {
  nodes: { cityNodeId: number; name: string; nameZh: string; tps: number; capacityGb: number; peers: number }[];
  language: Language;
  testId: string;
}) {
  const { t } = useTranslation("configuration");
  return (
    <ul className="list-disc pl-5 text-sm" data-testid={testId}>
      {nodes.map((n) => (
        <li key={n.cityNodeId}>
          {t("nodeLine", {
            node: language === "zh-CN" ? n.nameZh : n.name,
            tps: n.tps,
            gb: n.capacityGb,
            peers: n.peers,
          })}
        </li>
      ))}
    </ul>
  );
}
