import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { UpgradeRow } from "#contract/configuration.ts";
import { UpgradeReview, UpgradeStatus } from "#contract/config-upgrade-codes.ts";
import { formatDate, formatUsd } from "#app/lib/format.ts";
import type { Language } from "#app/lib/i18n.ts";
import { EmptyState } from "#app/components/EmptyState.tsx";
import { upgradeHref } from "#app/lib/configuration-urls.ts";
import { Table } from "#app/components/Table.tsx";

/** Shared pieces of Configuration, ConfigurationNew, ConfigurationDetail and the operators' queue (namespace "configuration"). */

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
  return row.reviewState === UpgradeReview.PENDING ? t("configuration:afterReview") : "—";
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
    <Table
      label={t("configuration:title")}
      testId="upgrade-table"
      columns={[
        {
          header: t("configuration:columns.number"),
          cell: (r) => (
            <Link className="link font-mono text-xs" to={upgradeHref(r.upgradeId)}>
              {r.upgradeNo}
            </Link>
          ),
        },
        ...(showService
          ? [{ header: t("configuration:columns.service"), userContent: true, cell: (r: UpgradeRow) => r.serviceName }]
          : []),
        { header: t("configuration:columns.type"), cell: (r) => t(`configuration:types.${r.upgradeType}`) },
        {
          header: t("common:zoneHeader", { label: t("configuration:columns.time") }),
          cell: (r) => formatDate(r.createdAt, language, true, false),
        },
        {
          header: t("configuration:columns.amount"),
          cell: (r) => formatUsd(r.amountCents, language),
          numeric: true,
        },
        { header: t("configuration:columns.status"), cell: (r) => <UpgradeStatusBadge status={r.status} /> },
        { header: t("configuration:columns.payState"), cell: (r) => payStateText(t, r) },
      ]}
      rows={rows}
      rowKey={(r) => r.upgradeId}
      rowTestId="upgrade-row"
    />
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
