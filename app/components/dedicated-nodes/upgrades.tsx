import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { PrnUpgrade } from "#contract/dedicated-nodes.ts";
import { Table, td } from "#app/components/Table.tsx";
import { formatDate, zoneHeader, formatUsd } from "#app/lib/format.ts";
import type { Language } from "#app/lib/i18n.ts";
import { UpgradeStatusBadge } from "./badges.tsx";
import { billHref, configDetailHref } from "#app/lib/dedicated-nodes-urls.ts";
import { hostOf } from "#app/lib/host-config.ts";

/** A value of an upgrade as its type reads: peers, a host configuration, a data capacity in GB. */
export function useUpgradeValue() {
  const { t } = useTranslation("dedicatedNodes");
  return (updateType: number, value: string, hostConfigs?: { code: string; cpu: number; memoryGb: number }[]) => {
    if (updateType === 2) {
      const h = hostConfigs?.find((x) => x.code === value) ?? hostOf(value);
      return h ? t("hostConfig", { cpu: h.cpu, memory: h.memoryGb }) : value;
    }
    if (updateType === 3) return t("dataCapacity", { gb: value });
    return t("peers", { count: Number(value) });
  };
}

/** A project's upgrades, newest first: type, from → to, the difference paid, status and time. */
export function UpgradeTable({ rows, language }: { rows: PrnUpgrade[]; language: Language }) {
  const { t } = useTranslation("dedicatedNodes");
  const valueOf = useUpgradeValue();
  return (
    <Table
      label={t("config.upgrades")}
      regionTestId="prn-upgrades"
      head={[
        t("config.type"),
        t("config.change"),
        t("config.priceDiff"),
        t("config.status"),
        zoneHeader(t, t("config.time")),
        t("upgrade.bill"),
      ]}
    >
      {rows.map((u) => (
        <tr key={u.prnProjectUpdateId} data-testid="prn-upgrade-row">
          <td className={td}>
            <Link className="link font-medium" to={configDetailHref(u.prnProjectUpdateId, u.updateType, u.projectName)}>
              {t(`updateType.${u.updateType}`)}
            </Link>
          </td>
          <td className={td} data-testid="prn-upgrade-change">
            {valueOf(u.updateType, u.fromValue)} → {valueOf(u.updateType, u.toValue)}
          </td>
          <td className={`${td} tabular-nums`}>{formatUsd(u.priceDiffCents, language)}</td>
          <td className={td}>
            <UpgradeStatusBadge status={u.status} />
          </td>
          <td className={`${td} whitespace-nowrap`}>{formatDate(u.createdAt, language, true, false)}</td>
          <td className={td}>
            {u.billId ? (
              <Link className="link font-mono text-xs" to={billHref(u.billId)}>
                {u.billNo}
              </Link>
            ) : (
              "—"
            )}
          </td>
        </tr>
      ))}
    </Table>
  );
}
