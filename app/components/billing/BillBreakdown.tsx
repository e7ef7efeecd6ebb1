import type { SerializeFrom } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { BreakdownLine } from "#contract/bill-breakdown.ts";
import type { DataOf } from "#contract/paths.ts";
import { EmptyState } from "#app/components/EmptyState.tsx";
import { Table } from "#app/components/Table.tsx";
import { breakdownCsvHref, lineFile, lineGb, lineHref, lineKindLabel } from "#app/lib/bill-breakdown.ts";
import { billCycleLabel } from "#app/lib/bills.ts";
import { formatDate, formatUsd } from "#app/lib/format.ts";
import type { Language } from "#app/lib/i18n.ts";

type Breakdown = SerializeFrom<DataOf<"/sys/system/clientInfo/billBreakdown">>;
type Line = Breakdown["lines"][number];

/** A transaction hash or a CID, shortened for the table (the CSV has it whole). */
const short = (hash: string) => (hash.length > 18 ? `${hash.slice(0, 10)}…${hash.slice(-6)}` : hash);

/**
 * BillDetail's breakdown (issue 35 §3, docs/decisions/093): the bill's lines, each linking to what is behind it
 * where a page exists, a total row equal to the bill's amount, and the CSV of the same lines. Plain markup.
 */
export function BillBreakdown({ breakdown, language }: { breakdown: Breakdown; language: Language }) {
  const { t } = useTranslation("billing");
  const money = (cents: number) => formatUsd(cents, language);
  const total = breakdown.lines.reduce((s, l) => s + l.amountCents, 0);
  const quantity = (l: Line) => {
    const gb = lineGb(l);
    if (gb !== null && l.calls !== null) return t("breakdown.quantity.traffic", { gb, calls: l.calls });
    if (gb !== null) return t("breakdown.quantity.bytes", { gb });
    if (l.calls !== null) return t("breakdown.quantity.calls", { n: l.calls });
    if (l.periodStart && l.periodEnd)
      return `${formatDate(l.periodStart, language)} – ${formatDate(l.periodEnd, language)} · ${billCycleLabel(t, {
        billType: breakdown.billType,
        cycle: l.cycle ?? 2,
      })}`;
    return null;
  };
  const unitPrice = (l: Line) => {
    if (l.unitPriceCents === null) return null;
    const price = money(l.unitPriceCents);
    return l.kind === "crossChainCall" ? t("breakdown.perCall", { price }) : t("breakdown.perGb", { price });
  };
  const item = (l: Line) => {
    const href = lineHref(l as BreakdownLine);
    const label = lineKindLabel(t, l);
    return href ? (
      <Link to={href} className="link">
        {label}
      </Link>
    ) : (
      label
    );
  };
  // IPFS traffic lines name their file: the column is there when the bill has any.
  const byFile = breakdown.lines.some((l) => l.kind === "ipfsTraffic");
  const file = (l: Line) => {
    const text = lineFile(t, l);
    if (text === null) return "—";
    return l.cid ? (
      <span title={l.cid} className={l.fileName ? undefined : "font-mono"} data-cid={l.cid}>
        {l.fileName ?? short(l.cid)}
      </span>
    ) : (
      <span className="text-slate-600">{text}</span>
    );
  };

  return (
    <section aria-labelledby="breakdown-title" className="card overflow-x-auto" data-testid="breakdown">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 id="breakdown-title" className="font-semibold">
            {t("breakdown.title")}
          </h2>
          <p className="mt-1 text-sm text-slate-600">{t("breakdown.intro")}</p>
        </div>
        <a href={breakdownCsvHref(breakdown.billId)} className="btn-secondary" data-testid="breakdown-csv" download>
          {t("breakdown.download")}
        </a>
      </div>
      {breakdown.truncated ? (
        <p role="status" className="mt-3 text-sm text-slate-600">
          {t("breakdown.truncated", { n: breakdown.lines.length })}
        </p>
      ) : null}
      {breakdown.lines.length === 0 ? (
        <EmptyState message={t("breakdown.empty")} testId="breakdown-empty" className="mt-3" />
      ) : (
        <Table
          variant="compact"
          label={t("breakdown.title")}
          testId="breakdown-lines"
          rows={breakdown.lines}
          rowKey={(l) => breakdown.lines.indexOf(l)}
          columns={[
            { header: t("breakdown.columns.item"), cell: item },
            { header: t("breakdown.columns.day"), cell: (l) => (l.day ? formatDate(l.day, language) : "—") },
            { header: t("breakdown.columns.place"), cell: (l) => l.place ?? "—", userContent: true },
            { header: t("breakdown.columns.subject"), cell: (l) => l.subject ?? "—", userContent: true },
            ...(byFile ? [{ header: t("breakdown.columns.file"), cell: file, userContent: true }] : []),
            { header: t("breakdown.columns.method"), cell: (l) => l.method ?? "—", className: "font-mono" },
            { header: t("breakdown.columns.quantity"), cell: (l) => quantity(l) ?? "—" },
            { header: t("breakdown.columns.unitPrice"), numeric: true, cell: (l) => unitPrice(l) ?? "—" },
            {
              header: t("breakdown.columns.reference"),
              cell: (l) => (l.txHash ? <span title={l.txHash}>{short(l.txHash)}</span> : "—"),
              className: "font-mono",
            },
            { header: t("breakdown.columns.amount"), numeric: true, cell: (l) => money(l.amountCents) },
          ]}
          footer={
            <tr className="border-t border-slate-200 font-semibold">
              <th scope="row" colSpan={byFile ? 9 : 8} className="py-2 pr-4 text-left">
                {t("breakdown.total")}
              </th>
              <td className="py-2 text-right tabular-nums" data-testid="breakdown-total">
                {money(total)}
              </td>
            </tr>
          }
        />
      )}
    </section>
  );
}
