import { useTranslation } from "react-i18next";
import { PRN_FRAMEWORKS } from "#contract/dedicated-nodes-codes.ts";
import { Badge, type Tone } from "#app/components/Badge.tsx";

/** Shared bits of the dedicated-node screens (SPEC §2 PrivatedNodes*, §4 dedicated node service and upgrades). */

export const PRN = "/g/home/PrivatedNodes";
export const newProjectHref = () => `${PRN}New`;
export const checkHref = (prnProjectId: number) => `${PRN}Check?prnProjectId=${prnProjectId}`;
const withName = (prnProjectId: number, name: string) =>
  `prnProjectId=${prnProjectId}&prnProjectName=${encodeURIComponent(name)}`;
export const configHref = (prnProjectId: number, name: string) => `${PRN}Config?${withName(prnProjectId, name)}`;
export const configNewHref = (prnProjectId: number, name: string) => `${PRN}ConfigNew?${withName(prnProjectId, name)}`;
export const configDetailHref = (prnProjectUpdateId: number, prnUpdateType: number, name: string) =>
  `${PRN}ConfigDetail?prnProjectUpdateId=${prnProjectUpdateId}&prnUpdateType=${prnUpdateType}&prnProjectName=${encodeURIComponent(name)}`;
export const billHref = (billId: number) => `/g/home/userCenter/BillDetail?billId=${billId}`;

const PROJECT_TONES: Record<number, Tone> = { 1: "wait", 2: "info", 3: "ok", 4: "bad", 5: "off", 6: "off" };
const UPGRADE_TONES: Record<number, Tone> = { 1: "info", 2: "ok", 3: "bad" };
const NODE_TONES: Record<string, Tone> = {
  starting: "info",
  running: "ok",
  syncing: "wait",
  stopped: "off",
  failed: "bad",
};

/** SPEC §4 dedicated node service: 1 not deployed, 2 deploying, 3 running, 4 failed, 5 deleted, 6 unsubscribed. */
export function ProjectStatusBadge({ status }: { status: number }) {
  const { t } = useTranslation("dedicatedNodes");
  return (
    <Badge tone={PROJECT_TONES[status] ?? "off"} testId="prn-status">
      {t(`status.${status}`)}
    </Badge>
  );
}

/** SPEC §4 dedicated node upgrade: 1 upgrading, 2 success, 3 failed. */
export function UpgradeStatusBadge({ status }: { status: number }) {
  const { t } = useTranslation("dedicatedNodes");
  return (
    <Badge tone={UPGRADE_TONES[status] ?? "off"} testId="prn-upgrade-status">
      {t(`upgradeStatus.${status}`)}
    </Badge>
  );
}

/** A node's state as the provisioner reports it. */
export function NodeStatusBadge({ status }: { status: string }) {
  const { t } = useTranslation("dedicatedNodes");
  return (
    <Badge tone={NODE_TONES[status] ?? "off"} testId="node-status">
      {t(`nodeStatus.${status}`, { defaultValue: status })}
    </Badge>
  );
}

/** Bytes as B, KB, MB or GB (binary units). */
export function formatBytes(bytes: number): string {
  const units = ["B", "KB", "MB", "GB", "TB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${bytes} B` : `${value.toFixed(value >= 100 ? 0 : value >= 10 ? 1 : 2)} ${units[unit]}`;
}

/** A framework's name as its makers write it (the same in both languages). */
export const frameworkLabel = (code: string) => PRN_FRAMEWORKS.find((f) => f.framework === code)?.label ?? code;
export const caHref = (prnProjectId: number) => `${PRN}Ca?prnProjectId=${prnProjectId}`;
