import { Form } from "@remix-run/react";
import { Suspense, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Chart } from "#app/components/billing/UsageChart.tsx";
import type { Language } from "#app/lib/i18n.ts";
import { formatDate } from "#app/lib/format.ts";

/** Numbers per day (UTC+8) in several series: the public-chain statistics (per method) and gas (per account). */
export type DaySeries = { days: string[]; series: { name: string; data: number[] }[] };

type Texts = { title: string; day: string; total: string; showTable: string; empty: string };

const at = (day: string) => `${day}T00:00:00+08:00`;

/** The numbers as a table: what a browser without JavaScript shows, and the chart's text alternative. */
function DayTable({
  data,
  texts,
  language,
  testId,
  format,
}: {
  data: DaySeries;
  texts: Texts;
  language: Language;
  testId: string;
  format: (v: number) => string;
}) {
  return (
    <div
      className="max-h-96 overflow-auto rounded focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
      tabIndex={0}
      role="region"
      aria-label={texts.title}
    >
      <table className="min-w-full text-sm" data-testid={testId}>
        <thead className="sticky top-0 bg-white text-left text-xs uppercase tracking-wide text-slate-600">
          <tr>
            <th scope="col" className="py-2 pr-4">
              {texts.day}
            </th>
            {data.series.map((s) => (
              <th key={s.name} scope="col" className="py-2 pr-4 text-right font-mono normal-case">
                {s.name}
              </th>
            ))}
            <th scope="col" className="py-2 text-right">
              {texts.total}
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {data.days.map((day, i) => (
            <tr key={day}>
              <th scope="row" className="whitespace-nowrap py-1.5 pr-4 text-left font-normal text-slate-600">
                {formatDate(at(day), language)}
              </th>
              {data.series.map((s) => (
                <td key={s.name} className="py-1.5 pr-4 text-right tabular-nums">
                  {format(s.data[i])}
                </td>
              ))}
              <td className="py-1.5 text-right font-medium tabular-nums">
                {format(data.series.reduce((n, s) => n + s.data[i], 0))}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * SPEC §9 charts: a stacked bar chart per day with JavaScript (react-apexcharts, loaded after hydration as
 * the billing usage chart is), a table without; the table stays one click away under the chart.
 */
export function DayChart({
  data,
  texts,
  language,
  testId,
  unit,
  format = (v) => v.toLocaleString(language),
}: {
  data: DaySeries;
  texts: Texts;
  language: Language;
  testId: string;
  unit: string;
  format?: (v: number) => string;
}) {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  if (data.series.length === 0)
    return (
      <p className="text-sm text-slate-600" data-testid={`${testId}-empty`}>
        {texts.empty}
      </p>
    );
  const table = <DayTable data={data} texts={texts} language={language} testId={`${testId}-table`} format={format} />;
  if (!hydrated) return table;
  const categories = data.days.map((d) => (language === "zh-CN" ? d.slice(5) : `${d.slice(5, 7)}/${d.slice(8, 10)}`));
  return (
    <div>
      <div role="img" aria-label={texts.title} data-testid={`${testId}-chart`} className="min-h-72">
        <Suspense fallback={<div className="h-72 animate-pulse rounded bg-slate-100" />}>
          <Chart
            type="bar"
            height={288}
            series={data.series}
            options={{
              chart: { stacked: true, toolbar: { show: false }, animations: { enabled: false }, fontFamily: "inherit" },
              xaxis: { categories, labels: { rotate: -45, hideOverlappingLabels: true } },
              yaxis: { title: { text: unit }, labels: { formatter: (v: number) => format(v) } },
              dataLabels: { enabled: false },
              legend: { position: "bottom" },
              tooltip: { y: { formatter: (v: number) => `${format(v)} ${unit}` } },
              colors: ["#2563eb", "#0891b2", "#7c3aed", "#16a34a", "#ea580c", "#db2777", "#ca8a04", "#475569"],
            }}
          />
        </Suspense>
      </div>
      <details className="mt-3 text-sm">
        <summary className="cursor-pointer text-brand-700">{texts.showTable}</summary>
        <div className="mt-2">{table}</div>
      </details>
    </div>
  );
}

/** The §9 statistics rows (day, method, requests) as one series per method over the range's days. */
export function byMethod(stats: {
  days: string[];
  rows: { day: string; method: string; requests: number }[];
}): DaySeries {
  const methods = [...new Set(stats.rows.map((r) => r.method))].sort();
  const index = new Map(stats.days.map((d, i) => [d, i]));
  const series = methods.map((name) => ({ name, data: stats.days.map(() => 0) }));
  for (const r of stats.rows) {
    const i = index.get(r.day);
    if (i !== undefined) series[methods.indexOf(r.method)].data[i] += r.requests;
  }
  return { days: stats.days, series };
}

/**
 * A chart's section heading with its period choice: a GET form (works without JavaScript) keeping the
 * record's id (`keep`) and setting `name` to one of `ranges`.
 */
export function ChartHeading({
  title,
  keep,
  name,
  value,
  ranges,
  labelOf,
}: {
  title: string;
  keep: { name: string; value: number };
  name: string;
  value: string;
  ranges: readonly string[];
  labelOf: (range: string) => string;
}) {
  const { t } = useTranslation("publicChain");
  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      <h2 className="text-lg font-semibold">{title}</h2>
      <Form method="get" className="flex items-end gap-2">
        <input type="hidden" name={keep.name} value={keep.value} />
        <label htmlFor={`${name}-select`} className="label !mb-0 self-center">
          {t("stats.range")}
        </label>
        <select id={`${name}-select`} name={name} defaultValue={value} className="input !w-auto">
          {ranges.map((r) => (
            <option key={r} value={r}>
              {labelOf(r)}
            </option>
          ))}
        </select>
        <button type="submit" className="btn-secondary">
          {t("stats.show")}
        </button>
      </Form>
    </div>
  );
}
