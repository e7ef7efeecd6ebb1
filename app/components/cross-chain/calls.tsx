import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { CrossCall } from "#contract/cross-chain.ts";
import { Table, td } from "#app/components/Table.tsx";
import { DateFilter, ListFilterForm, SelectFilter } from "#app/components/ListFilters.tsx";
import { utc8Day } from "#app/lib/bills.ts";
import { formatDate, formatUsd, zoneHeader } from "#app/lib/format.ts";
import type { Language } from "#app/lib/i18n.ts";
import { CallStatusBadge, Hex } from "./badges.tsx";
import { CROSS_CALL_STATUS_VALUES } from "#app/lib/cross-chain-rules.ts";
import { callHref } from "#app/lib/cross-chain-urls.ts";
import { CrossCallStatus } from "#contract/cross-chain-codes.ts";

/** The call records of a service (SPEC §3 cross-chain call record): time, chains, both hashes, fee, status and reason. */
export function CallsTable({
  rows,
  language,
  testId = "calls",
}: {
  rows: CrossCall[];
  language: Language;
  testId?: string;
}) {
  const { t } = useTranslation("crossChain");
  return (
    <Table
      label={t("detail.calls")}
      regionTestId={testId}
      head={[
        zoneHeader(t, t("detail.time")),
        t("detail.source"),
        t("detail.target"),
        t("detail.sourceTx"),
        t("detail.targetTx"),
        t("detail.fee"),
        t("detail.status"),
        "",
      ]}
    >
      {rows.map((c) => (
        <tr key={c.callId} data-testid="call-row">
          <td className={`${td} whitespace-nowrap`}>{formatDate(c.createdAt, language, true, false)}</td>
          <td className={td}>
            <span className="font-mono text-xs">{c.sourceChain}</span>
          </td>
          <td className={td}>
            <span className="font-mono text-xs" data-testid="call-target">
              {c.targetChain}
            </span>
          </td>
          <td className={td}>
            <Hex value={c.sourceTxHash} testId="source-tx" />
          </td>
          <td className={td}>
            <Hex value={c.targetTxHash} testId="target-tx" />
          </td>
          <td className={`${td} tabular-nums`}>{formatUsd(c.feeCents, language)}</td>
          <td className={td}>
            <CallStatusBadge status={c.status} />
            {c.status === CrossCallStatus.FAILURE && c.reason ? (
              <span className="mt-1 block max-w-60 break-words text-xs text-red-700" data-testid="call-reason">
                {c.reason}
              </span>
            ) : null}
          </td>
          <td className={td}>
            <Link
              className="link"
              to={callHref(c.appId, c.callId)}
              aria-label={t("detail.viewCall", { sequence: c.sequence })}
            >
              {t("detail.view")}
            </Link>
          </td>
        </tr>
      ))}
    </Table>
  );
}

/** The calls' filters as a GET form (works without JavaScript): status, from and to days, target chain. */
export function CallFilters({
  appId,
  filter,
  targets,
  action,
}: {
  appId: number;
  filter: { status?: number; from?: string; to?: string; target?: string };
  targets: string[];
  action: string;
}) {
  const { t } = useTranslation("crossChain");
  return (
    <ListFilterForm
      label={t("detail.filters")}
      action={action}
      grid="lg:grid-cols-5"
      searchLabel={t("detail.search")}
      resetLabel={t("detail.reset")}
      resetTo={`${action}?appId=${appId}`}
    >
      <input type="hidden" name="appId" value={appId} />
      <SelectFilter
        id="call-status"
        name="status"
        label={t("detail.status")}
        value={filter.status}
        allLabel={t("detail.allStatuses")}
        options={CROSS_CALL_STATUS_VALUES.map((s) => ({ value: s, label: t(`callStatus.${s}`) }))}
      />
      <DateFilter id="call-from" name="from" label={t("detail.from")} value={filter.from} />
      <DateFilter id="call-to" name="to" label={t("detail.to")} value={filter.to} />
      <SelectFilter
        id="call-target"
        name="target"
        label={t("detail.target")}
        value={filter.target}
        allLabel={t("detail.allTargets")}
        options={[...new Set(filter.target ? [...targets, filter.target] : targets)].map((c) => ({
          value: c,
          label: c,
        }))}
      />
    </ListFilterForm>
  );
}

/** Calls per UTC+8 day by status (the chart's series): days from `from` to `to` inclusive. */
export function callsPerDay(
  rows: Pick<CrossCall, "createdAt" | "status">[],
  from: string,
  to: string,
  statusName: (s: number) => string,
) {
  const days: string[] = [];
  for (
    let d = new Date(`${from}T00:00:00Z`);
    d <= new Date(`${to}T00:00:00Z`) && days.length < 92;
    d.setUTCDate(d.getUTCDate() + 1)
  )
    days.push(d.toISOString().slice(0, 10));
  const index = new Map(days.map((d, i) => [d, i]));
  const counts = [0, 1, 2].map(() => days.map(() => 0));
  for (const r of rows) {
    const i = index.get(utc8Day(new Date(r.createdAt)));
    if (i !== undefined && counts[r.status]) counts[r.status][i] += 1;
  }
  const series = [1, 2, 0]
    .filter((s) => counts[s].some((n) => n > 0))
    .map((s) => ({ name: statusName(s), data: counts[s] }));
  return { days, series };
}
