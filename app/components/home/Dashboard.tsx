import { Link } from "@remix-run/react";
import { Suspense, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { DataOf } from "#contract/paths.ts";
import { Chart } from "#app/components/billing/UsageChart.tsx";
import { Table } from "#app/components/Table.tsx";
import { groupServices, mbToGbText, queueOf } from "#app/lib/dashboard.ts";
import { formatDate, formatDay, formatUsd, zoneHeader } from "#app/lib/format.ts";
import type { Language } from "#app/lib/i18n.ts";
import { OPERATIONS_GROUPS, operationsQueues } from "#app/lib/menu.ts";

/** The console home's figures (/main/home/dashboard; docs/decisions/029), in cards a person reads first. */
export type Dashboard = DataOf<"/main/home/dashboard">;

const PUBLISHED = "/g/home/PermissionedServices/PublishedServices";

function Figure({
  label,
  value,
  testId,
  to,
  hint,
}: {
  label: string;
  value: string | number;
  testId: string;
  to?: string;
  hint?: string | null;
}) {
  return (
    <div className="card">
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold tabular-nums text-slate-900" data-testid={testId}>
        {to ? (
          <Link className="hover:underline" to={to}>
            {value}
          </Link>
        ) : (
          value
        )}
      </dd>
      {hint ? (
        <dd className="mt-1 text-sm text-slate-600" data-testid={`${testId}-hint`}>
          {hint}
        </dd>
      ) : null}
    </div>
  );
}

/** Balance, amount due with the next deadline, unread messages, join requests. */
export function MoneyAndInbox({ d, unread, language }: { d: Dashboard; unread: number; language: Language }) {
  const { t } = useTranslation("home");
  const due =
    d.dueCount === 0
      ? t("dashboard.nothingDue")
      : t("dashboard.dueHint", { count: d.dueCount, date: formatDate(d.nextDeadline, language, true) });
  return (
    <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      <Figure
        label={t("dashboard.balance")}
        value={formatUsd(d.balanceCents, language)}
        testId="dash-balance"
        to="/g/home/userCenter/MyAccount"
      />
      <Figure
        label={t("dashboard.due")}
        value={formatUsd(d.dueCents, language)}
        testId="dash-due"
        to="/g/home/userCenter/MyBills"
        hint={due}
      />
      <Figure label={t("dashboard.unread")} value={unread} testId="dash-unread" to="/g/home/userCenter/MessageCenter" />
      <Figure
        label={t("dashboard.joinRequests")}
        value={d.joinRequestsToDecide}
        testId="dash-join-requests"
        to="/g/home/ParticipationManagement"
        hint={t("dashboard.myJoinRequests", { count: d.myJoinRequests })}
      />
    </dl>
  );
}

/** Services by status, each group a link to Published services. */
export function ServicesByStatus({ d }: { d: Dashboard }) {
  const { t } = useTranslation("home");
  const groups = groupServices(d.services.byState, d.services.drafts);
  return (
    <section aria-labelledby="dash-services" className="card">
      <h2 id="dash-services" className="font-semibold">
        {t("dashboard.services")}
      </h2>
      {groups.every((g) => g.count === 0) ? (
        <p className="mt-3 text-sm text-slate-600" data-testid="dash-services-none">
          {t("dashboard.noData")}
        </p>
      ) : (
        <ul className="mt-3 grid gap-2 text-sm sm:grid-cols-5">
          {groups.map(({ group, count }) => (
            <li key={group}>
              <Link
                to={PUBLISHED}
                className="block rounded-md border border-slate-200 px-3 py-2 hover:border-brand-500"
              >
                <span
                  className="block text-2xl font-semibold tabular-nums text-slate-900"
                  data-testid={`dash-services-${group}`}
                >
                  {count}
                </span>
                <span className="text-slate-700">{t(`dashboard.group.${group}`)}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The last 7 days of data traffic: a sparkline with JavaScript, a table without (and behind "Show as table"). */
export function UsageSparkline({ d, language }: { d: Dashboard; language: Language }) {
  const { t } = useTranslation("home");
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const totalMb = d.usage7.reduce((s, u) => s + u.mb, 0);
  const table = (
    <Table
      label={t("dashboard.usage")}
      variant="compact"
      testId="dash-usage-table"
      head={[zoneHeader(t, t("dashboard.day")), { header: t("dashboard.gb"), numeric: true }]}
    >
      {d.usage7.map((u) => (
        <tr key={u.day}>
          <th scope="row" className="py-2 pr-4 text-left font-normal text-slate-700">
            {formatDay(u.day, language, false)}
          </th>
          <td className="py-2 text-right tabular-nums">{mbToGbText(u.mb)}</td>
        </tr>
      ))}
    </Table>
  );
  return (
    <section aria-labelledby="dash-usage" className="card">
      <div className="flex items-baseline justify-between gap-2">
        <h2 id="dash-usage" className="font-semibold">
          {t("dashboard.usage")}
        </h2>
        <span className="text-sm text-slate-700" data-testid="dash-usage-total">
          {t("dashboard.usageTotal", { gb: mbToGbText(totalMb) })}
        </span>
      </div>
      {totalMb === 0 ? (
        <p className="mt-2 text-sm text-slate-600" data-testid="dash-usage-none">
          {t("dashboard.noData")}
        </p>
      ) : null}
      {hydrated ? (
        <>
          {totalMb === 0 ? null : (
            <div
              role="img"
              aria-label={t("dashboard.usageChart", { gb: mbToGbText(totalMb) })}
              data-testid="dash-usage-chart"
              className="mt-2 h-16"
            >
              <Suspense fallback={<div className="h-16 animate-pulse rounded bg-slate-100" />}>
                <Chart
                  type="area"
                  height={64}
                  series={[{ name: "GB", data: d.usage7.map((u) => Number(mbToGbText(u.mb))) }]}
                  options={{
                    chart: { sparkline: { enabled: true }, animations: { enabled: false } },
                    stroke: { width: 2, curve: "straight" },
                    xaxis: { categories: d.usage7.map((u) => u.day.slice(5)) },
                    tooltip: { y: { formatter: (v: number) => `${v.toFixed(2)} GB` } },
                    colors: ["#2563eb"],
                  }}
                />
              </Suspense>
            </div>
          )}
          <details className="mt-2 text-sm">
            <summary className="cursor-pointer text-brand-700">{t("dashboard.showTable")}</summary>
            <div className="mt-2">{table}</div>
          </details>
        </>
      ) : (
        <div className="mt-2">{table}</div>
      )}
      <Link to="/g/home/userCenter/MyAccount" className="link mt-2 inline-block text-sm">
        {t("dashboard.usageMore")}
      </Link>
    </section>
  );
}

/**
 * An operator's landing (issue 30 item 4): every operations queue by group (reviews, money, content, platform),
 * each group with the items waiting in it, each queue a link with its own count where it has one.
 */
export function OperatorQueues({
  queues,
  chainsOnNodes,
}: {
  queues: NonNullable<Dashboard["queues"]>;
  chainsOnNodes: boolean;
}) {
  const { t } = useTranslation("home");
  const countOf = (to: string) => (queues as Record<string, number>)[queueOf(to)];
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      {OPERATIONS_GROUPS.map((group) => {
        const list = operationsQueues(chainsOnNodes).filter((q) => q.group === group);
        const waiting = list.reduce((sum, q) => sum + (countOf(q.to) ?? 0), 0);
        return (
          <section key={group} aria-labelledby={`ops-${group}`} className="card" data-testid={`ops-group-${group}`}>
            <h2 id={`ops-${group}`} className="flex items-baseline justify-between font-semibold">
              {t(`common:operations.groups.${group}`)}
              <span className="text-sm font-normal text-slate-600" data-testid={`ops-group-waiting-${group}`}>
                {t("common:operations.groupWaiting", { count: waiting })}
              </span>
            </h2>
            <ul className="mt-3 grid gap-2 text-sm sm:grid-cols-2">
              {list.map((q) => {
                const count = countOf(q.to);
                return (
                  <li key={q.to}>
                    <Link
                      to={q.to}
                      className="flex items-center justify-between rounded-md border border-slate-200 px-3 py-2 hover:border-brand-500"
                    >
                      <span className="text-slate-700">{t(`common:${q.key}`)}</span>
                      {count === undefined ? null : (
                        <span
                          className={`tabular-nums font-semibold ${count > 0 ? "text-amber-800" : "text-slate-500"}`}
                          data-testid={`dash-queue-${queueOf(q.to)}`}
                        >
                          {count}
                        </span>
                      )}
                    </Link>
                  </li>
                );
              })}
            </ul>
          </section>
        );
      })}
    </div>
  );
}
