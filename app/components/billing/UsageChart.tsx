import { lazy, Suspense, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { Language } from "#app/lib/i18n.ts";
import { formatDate } from "#app/lib/format.ts";

export type Usage30 = {
  days: string[];
  nodes: { nodeCode: string; nodeName: string; gb: number[]; totalGb: number }[];
  totalGb: number;
};

// apexcharts touches `window`: it is loaded only in the browser, after hydration (STACK.md gotcha 3).
// The classic compiler wraps the CommonJS module twice, hence `default.default`.
export const Chart = lazy(() =>
  import("react-apexcharts").then((m) => {
    const mod = m as unknown as {
      default: { default?: React.ComponentType<Record<string, unknown>> } & React.ComponentType<
        Record<string, unknown>
      >;
    };
    return { default: mod.default.default ?? mod.default };
  }),
);

const at = (day: string) => `${day}T00:00:00+08:00`;

/** The 30-day numbers as a table: what a browser without JavaScript shows, and the chart's text alternative. */
function UsageTable({ usage, language }: { usage: Usage30; language: Language }) {
  const { t } = useTranslation("billing");
  return (
    // A scrolled region: focusable, so a keyboard can scroll it too (axe scrollable-region-focusable).
    <div
      className="max-h-96 overflow-auto rounded focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
      tabIndex={0}
      role="region"
      aria-label={t("usage.title")}
    >
      <table className="min-w-full text-sm" data-testid="usage-table">
        <thead className="sticky top-0 bg-white text-left text-xs uppercase tracking-wide text-slate-500">
          <tr>
            <th scope="col" className="py-2 pr-4">
              {t("usage.day")}
            </th>
            {usage.nodes.map((n) => (
              <th key={n.nodeCode} scope="col" className="py-2 pr-4 text-right">
                {n.nodeName}
              </th>
            ))}
            <th scope="col" className="py-2 text-right">
              {t("usage.dayTotal")}
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {usage.days.map((day, i) => (
            <tr key={day}>
              <th scope="row" className="whitespace-nowrap py-1.5 pr-4 text-left font-normal text-slate-600">
                {formatDate(at(day), language)}
              </th>
              {usage.nodes.map((n) => (
                <td key={n.nodeCode} className="py-1.5 pr-4 text-right tabular-nums">
                  {n.gb[i].toFixed(2)}
                </td>
              ))}
              <td className="py-1.5 text-right font-medium tabular-nums">
                {usage.nodes.reduce((s, n) => s + n.gb[i], 0).toFixed(2)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** SPEC §9 "Traffic usage: 30 days", by city node gateway: a stacked bar chart with JavaScript, a table without. */
export function UsageChart({ usage, language }: { usage: Usage30; language: Language }) {
  const { t } = useTranslation("billing");
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  if (usage.nodes.length === 0)
    return (
      <p className="text-sm text-slate-500" data-testid="usage-empty">
        {t("usage.none")}
      </p>
    );
  const table = <UsageTable usage={usage} language={language} />;
  if (!hydrated) return table;
  const categories = usage.days.map((d) => (language === "zh-CN" ? d.slice(5) : `${d.slice(5, 7)}/${d.slice(8, 10)}`));
  return (
    <div>
      <div role="img" aria-label={t("usage.chart")} data-testid="usage-chart" className="min-h-72">
        <Suspense fallback={<div className="h-72 animate-pulse rounded bg-slate-100" />}>
          <Chart
            type="bar"
            height={288}
            series={usage.nodes.map((n) => ({ name: n.nodeName, data: n.gb }))}
            options={{
              chart: { stacked: true, toolbar: { show: false }, animations: { enabled: false }, fontFamily: "inherit" },
              xaxis: { categories, labels: { rotate: -45, hideOverlappingLabels: true } },
              yaxis: { title: { text: "GB" }, labels: { formatter: (v: number) => v.toFixed(0) } },
              dataLabels: { enabled: false },
              legend: { position: "bottom" },
              tooltip: { y: { formatter: (v: number) => `${v.toFixed(2)} GB` } },
              colors: ["#2563eb", "#0891b2", "#7c3aed", "#16a34a", "#ea580c", "#db2777", "#ca8a04", "#475569"],
            }}
          />
        </Suspense>
      </div>
      <details className="mt-3 text-sm">
        <summary className="cursor-pointer text-brand-700">{t("usage.showTable")}</summary>
        <div className="mt-2">{table}</div>
      </details>
    </div>
  );
}
