import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { IpfsUpgradeStatus } from "#contract/ipfs-codes.ts";
import type { IpfsUpgrade } from "#contract/ipfs.ts";
import { Badge, type Tone } from "#app/components/Badge.tsx";
import { formatDate, zoneHeader, formatUsd } from "#app/lib/format.ts";
import type { Language } from "#app/lib/i18n.ts";
import { capacityLabel } from "./badges.tsx";
import { IPFS } from "#app/lib/ipfs-urls.ts";
import { Table } from "#app/components/Table.tsx";

/** Capacity upgrades of IPFS services (SPEC §2 upgrade, new upgrade, upgrade detail; §4 IPFS upgrade; docs/decisions/039). */

export const newUpgradeHref = (ipfsServiceId: number) => `${IPFS}/Upgrade?ipfsServiceId=${ipfsServiceId}`;
export const upgradeHref = (ipfsUpgradeId: number) => `${IPFS}/UpgradeDetail?upgradeId=${ipfsUpgradeId}`;
export const billHref = (billId: number) => `/g/home/userCenter/BillDetail?billId=${billId}`;

const TONES: Record<number, Tone> = {
  [IpfsUpgradeStatus.PENDING]: "wait",
  [IpfsUpgradeStatus.PROCESSING]: "info",
  [IpfsUpgradeStatus.SUCCESS]: "ok",
  [IpfsUpgradeStatus.FAILED]: "bad",
};

/** SPEC §4 IPFS upgrade status as a pill: 0 pending, 2 operations processing, 5 success, 6 failed. */
export function UpgradeStatusBadge({ status }: { status: number }) {
  const { t } = useTranslation("ipfs");
  return (
    <Badge tone={TONES[status] ?? "off"} testId="upgrade-status">
      {t(`upgradeStatus.${status}`)}
    </Badge>
  );
}

/** A service's upgrades, newest first: from → to, the difference paid, status, links to the detail and the bill. */
export function UpgradeTable({ rows, language }: { rows: IpfsUpgrade[]; language: Language }) {
  const { t } = useTranslation("ipfs");
  const td = "px-3 py-2";
  return (
    <Table
      label={t("upgrade.listTitle")}
      testId="upgrade-table"
      head={[
        t("upgrade.capacityChange"),
        t("upgrade.priceDiff"),
        t("upgrade.status"),
        zoneHeader(t, t("upgrade.requested")),
        t("upgrade.bill"),
      ]}
    >
      {rows.map((u) => (
        <tr key={u.ipfsUpgradeId} data-testid="upgrade-row">
          <td className={td}>
            <Link className="link font-medium" to={upgradeHref(u.ipfsUpgradeId)}>
              {capacityLabel(u.fromStoreUnit)} → {capacityLabel(u.toStoreUnit)}
            </Link>
          </td>
          <td className={`${td} tabular-nums`}>{formatUsd(u.priceDiffCents, language)}</td>
          <td className={td}>
            <UpgradeStatusBadge status={u.status} />
          </td>
          <td className={td}>{formatDate(u.createdAt, language, true, false)}</td>
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
