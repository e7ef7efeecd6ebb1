import { useTranslation } from "react-i18next";
import { PRN_FRAMEWORKS, PrnStatus, PrnUpgradeStatus } from "#contract/dedicated-nodes-codes.ts";
import { Badge, type Tone } from "#app/components/Badge.tsx";

/** Shared bits of the dedicated-node screens (SPEC §2 PrivatedNodes*, §4 dedicated node service and upgrades). */

const PROJECT_TONES: Record<number, Tone> = {
  [PrnStatus.NOT_DEPLOYED]: "wait",
  [PrnStatus.DEPLOYING]: "info",
  [PrnStatus.RUNNING]: "ok",
  [PrnStatus.FAILED]: "bad",
  [PrnStatus.DELETED]: "off",
  [PrnStatus.UNSUBSCRIBED]: "off",
};
const UPGRADE_TONES: Record<number, Tone> = {
  [PrnUpgradeStatus.UPGRADING]: "info",
  [PrnUpgradeStatus.SUCCESS]: "ok",
  [PrnUpgradeStatus.FAILED]: "bad",
};
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

/** A framework's name as its makers write it (the same in both languages). */
export const frameworkLabel = (code: string) => PRN_FRAMEWORKS.find((f) => f.framework === code)?.label ?? code;
