import { useTranslation } from "react-i18next";
import { Badge, type Tone } from "#app/components/Badge.tsx";
import { CrossCallStatus, CrossStatus } from "#contract/cross-chain-codes.ts";

/** The badges of the cross-chain screens and their hex values (SPEC §2 CrossChainService, §4 cross-chain and call statuses). */

const CROSS_TONES: Record<number, Tone> = {
  [CrossStatus.DEACTIVATED]: "off",
  [CrossStatus.ACTIVATED]: "ok",
  [CrossStatus.CLOSED]: "off",
  [CrossStatus.PENDING_ACTIVATION]: "wait",
  [CrossStatus.PENDING_DEACTIVATION]: "wait",
};
const CALL_TONES: Record<number, Tone> = {
  [CrossCallStatus.UNKNOWN]: "info",
  [CrossCallStatus.SUCCESS]: "ok",
  [CrossCallStatus.FAILURE]: "bad",
};

/** SPEC §4 cross-chain: 0 deactivated, 1 activated, 2 closed, 3 pending activation, 4 pending deactivation. */
export function CrossStatusBadge({ status }: { status: number }) {
  const { t } = useTranslation("crossChain");
  return (
    <Badge tone={CROSS_TONES[status] ?? "off"} testId="cross-status">
      {t(`status.${status}`)}
    </Badge>
  );
}

/** SPEC §4 cross-chain call: 0 unknown, 1 success, 2 failure. */
export function CallStatusBadge({ status }: { status: number }) {
  const { t } = useTranslation("crossChain");
  return (
    <Badge tone={CALL_TONES[status] ?? "off"} testId="call-status">
      {t(`callStatus.${status}`)}
    </Badge>
  );
}

/** A transaction hash or an address, shortened for a table cell, whole in its title. */
export function Hex({ value, testId }: { value: string | null | undefined; testId?: string }) {
  if (!value) return <span className="text-slate-500">—</span>;
  const short = value.length > 18 ? `${value.slice(0, 10)}…${value.slice(-6)}` : value;
  return (
    <span className="font-mono text-xs" title={value} data-testid={testId} data-value={value}>
      {short}
    </span>
  );
}
