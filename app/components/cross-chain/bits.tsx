import { useTranslation } from "react-i18next";
import { Badge, type Tone } from "#app/components/Badge.tsx";

/** Shared bits of the cross-chain screens (SPEC §2 CrossChainService, §4 cross-chain and call statuses). */

export const CROSS_CHAIN = "/g/home/CrossChainService";
export const CROSS_CHAIN_INDEX = `${CROSS_CHAIN}/Index`;
export const selectHref = `${CROSS_CHAIN}/SelectService`;
export const dredgeHref = (appId: number) => `${CROSS_CHAIN}/Dredge?appId=${appId}`;
export const crossDetailHref = (appId: number) => `${CROSS_CHAIN}/CrossChainDetail?appId=${appId}`;
export const callHref = (appId: number, callId: number) =>
  `${CROSS_CHAIN}/CrossChainDetailView?appId=${appId}&callId=${callId}`;
export const exportHref = (appId: number, query: URLSearchParams) => {
  const q = new URLSearchParams(query);
  q.delete("page");
  q.set("appId", String(appId));
  return `${CROSS_CHAIN}/CrossChainDetail/export.csv?${q}`;
};

/** SPEC §4 cross-chain statuses (the Index filter) and call statuses (the calls filter). */
export const CROSS_STATUS_VALUES = [0, 1, 2, 3, 4] as const;
export const CROSS_CALL_STATUS_VALUES = [0, 1, 2] as const;

/** The lifecycle actions of the Index list. */
export const INDEX_INTENTS = ["deactivate", "close"] as const;
export type IndexIntent = (typeof INDEX_INTENTS)[number];

/** SPEC §5: deactivate an activated service (→ 4, "cannot be stopped while enabled"); close one deactivated or waiting for activation (→ 2). */
export function allowedActions(crossStatus: number): IndexIntent[] {
  if (crossStatus === 1) return ["deactivate"];
  if (crossStatus === 0 || crossStatus === 3) return ["close"];
  return [];
}

/** Opening again (Dredge) is offered to a service deactivated or closed. */
export const canReopen = (crossStatus: number) => crossStatus === 0 || crossStatus === 2;

const CROSS_TONES: Record<number, Tone> = { 0: "off", 1: "ok", 2: "off", 3: "wait", 4: "wait" };
const CALL_TONES: Record<number, Tone> = { 0: "info", 1: "ok", 2: "bad" };

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
