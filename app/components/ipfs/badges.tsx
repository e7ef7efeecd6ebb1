import { useTranslation } from "react-i18next";
import { GB, IpfsKeyState, IpfsServiceStatus } from "#contract/ipfs-codes.ts";
import { Badge, type Tone } from "#app/components/Badge.tsx";
import { formatBytes } from "#app/lib/format-number.ts";

/** Shared bits of the IPFS storage console (issue 13; docs/decisions/039). */

export const capacityLabel = (storeUnit: number) =>
  storeUnit >= 1024 && storeUnit % 1024 === 0 ? `${storeUnit / 1024} TB` : `${storeUnit} GB`;
export const bytesOfUnit = (storeUnit: number) => storeUnit * GB;

const SERVICE_TONES: Record<number, Tone> = {
  [IpfsServiceStatus.RUNNING]: "ok",
  [IpfsServiceStatus.UNSUBSCRIBED]: "off",
};
const KEY_TONES: Record<number, Tone> = {
  [IpfsKeyState.ACTIVATED]: "ok",
  [IpfsKeyState.DEACTIVATED]: "wait",
  [IpfsKeyState.UNSUBSCRIBED]: "off",
};

/** SPEC §3 IPFS service status as a pill. */
export function ServiceStatusBadge({ status }: { status: number }) {
  const { t } = useTranslation("ipfs");
  return (
    <Badge tone={SERVICE_TONES[status] ?? "off"} testId="ipfs-status">
      {t(`status.${status}`)}
    </Badge>
  );
}

/** SPEC §4 IPFS key state as a pill. */
export function KeyStateBadge({ state, testId }: { state: number; testId?: string }) {
  const { t } = useTranslation("ipfs");
  return (
    <Badge tone={KEY_TONES[state] ?? "off"} testId={testId}>
      {t(`keyState.${state}`)}
    </Badge>
  );
}

/** Used of total capacity: a meter with the figures as text. */
export function CapacityMeter({ used, capacity }: { used: number; capacity: number }) {
  const { t } = useTranslation("ipfs");
  const percent = capacity > 0 ? Math.min(100, Math.round((used * 100) / capacity)) : 0;
  const text = t("capacity.usedOf", { used: formatBytes(used), total: formatBytes(capacity), percent });
  return (
    <div className="min-w-40 space-y-1">
      <meter
        min={0}
        max={capacity || 1}
        value={used}
        high={capacity * 0.9}
        optimum={0}
        className="h-2 w-full"
        aria-label={text}
      />
      <p className="text-xs text-slate-600 tabular-nums" data-testid="capacity-text">
        {text}
      </p>
    </div>
  );
}
