import type { ReactNode } from "react";
import { Pagination } from "./Pagination";

/** One column of a RecordTable: its heading and what a row shows in it. */
export type Column<Row> = {
  header: ReactNode;
  cell: (row: Row) => ReactNode;
  /** Money and other figures: aligned right, with digits of one width. */
  numeric?: boolean;
  /** Extra classes of the column's cells (not of its heading). */
  className?: string;
  cellTestId?: string;
};

type Page<Row> = { rows: Row[]; pageIndex: number; pageSize: number; total: number };

/**
 * A page of records as a table (or a message when there is none), followed by the page links: the lists
 * of the account centre and of the operations queues. Plain markup, no JavaScript needed.
 */
export function RecordTable<Row>({
  page,
  columns,
  rowKey,
  rowTestId,
  rowProps,
  empty,
  emptyTestId,
  testId,
}: {
  page: Page<Row>;
  columns: Column<Row>[];
  rowKey: (row: Row) => string | number;
  rowTestId?: string;
  rowProps?: (row: Row) => { title?: string; "aria-selected"?: boolean };
  /** Shown instead of the table when the page has no rows. */
  empty: ReactNode;
  emptyTestId?: string;
  testId?: string;
}) {
  const cellClass = (column: Column<Row>) => ["px-3 py-2", column.numeric ? "text-right tabular-nums" : "", column.className ?? ""].filter(Boolean).join(" ");
  return (
    <>
      {page.rows.length === 0 ? (
        <div className="card space-y-3 text-center text-slate-500" data-testid={emptyTestId}>{empty}</div>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
          <table className="min-w-full divide-y divide-slate-200 text-sm" data-testid={testId}>
            <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-500">
              <tr>
                {columns.map((column, i) => (
                  <th key={i} scope="col" className={column.numeric ? "px-3 py-2 text-right" : "px-3 py-2"}>{column.header}</th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {page.rows.map((row) => (
                <tr key={rowKey(row)} data-testid={rowTestId} {...rowProps?.(row)}>
                  {columns.map((column, i) => (
                    <td key={i} className={cellClass(column)} data-testid={column.cellTestId}>{column.cell(row)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pagination pageIndex={page.pageIndex} pageSize={page.pageSize} total={page.total} />
    </>
  );
}

/**
 * A short list inside a card (the latest records of My account, the lines of a bill): no frame, no page
 * links; `footer` rows go into <tfoot>.
 */
export function CompactTable<Row>({
  rows,
  columns,
  rowKey,
  rowTitle,
  testId,
  footer,
}: {
  rows: Row[];
  columns: Column<Row>[];
  rowKey: (row: Row) => string | number;
  /** A tooltip of the whole row, e.g. the record's number. */
  rowTitle?: (row: Row) => string;
  testId?: string;
  footer?: ReactNode;
}) {
  const cellClass = (column: Column<Row>) => ["py-2 pr-4 last:pr-0", column.numeric ? "text-right tabular-nums" : "", column.className ?? ""].filter(Boolean).join(" ");
  return (
    <table className="mt-3 min-w-full text-sm" data-testid={testId}>
      <thead className="text-left text-xs uppercase tracking-wide text-slate-500">
        <tr>
          {columns.map((column, i) => (
            <th key={i} scope="col" className={column.numeric ? "py-2 pr-4 text-right last:pr-0" : "py-2 pr-4 last:pr-0"}>{column.header}</th>
          ))}
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {rows.map((row) => (
          <tr key={rowKey(row)} title={rowTitle?.(row)}>
            {columns.map((column, i) => (
              <td key={i} className={cellClass(column)} data-testid={column.cellTestId}>{column.cell(row)}</td>
            ))}
          </tr>
        ))}
      </tbody>
      {footer ? <tfoot>{footer}</tfoot> : null}
    </table>
  );
}
