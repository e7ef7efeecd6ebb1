import { useTranslation } from "react-i18next";
import type { ReactNode } from "react";
import { Pagination } from "./Pagination.tsx";

/** One column of a RecordTable or CompactTable: its heading and what a row shows in it. */
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

type RowAttributes = { title?: string; "aria-selected"?: boolean };

/** The table itself; `space` is the padding of every cell, the two kinds of table differ in little else. */
function Table<Row>({
  rows,
  columns,
  rowKey,
  rowTestId,
  rowProps,
  testId,
  tableClass,
  headClass,
  space,
  footer,
}: {
  rows: Row[];
  columns: Column<Row>[];
  rowKey: (row: Row) => string | number;
  rowTestId?: string;
  rowProps?: (row: Row) => RowAttributes;
  testId?: string;
  tableClass: string;
  headClass: string;
  space: string;
  footer?: ReactNode;
}) {
  const { t } = useTranslation();
  const align = (column: Column<Row>, extra: string) =>
    [space, column.numeric ? `text-right ${extra}`.trim() : ""].filter(Boolean).join(" ");
  return (
    <table className={tableClass} data-testid={testId}>
      <thead className={headClass}>
        <tr>
          {columns.map((column, i) => (
            <th key={i} scope="col" className={align(column, "")}>
              {column.header || <span className="sr-only">{t("common:actions.column")}</span>}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {rows.map((row) => (
          <tr key={rowKey(row)} data-testid={rowTestId} {...rowProps?.(row)}>
            {columns.map((column, i) => (
              <td
                key={i}
                className={[align(column, "tabular-nums"), column.className ?? ""].filter(Boolean).join(" ")}
                data-testid={column.cellTestId}
              >
                {column.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
      {footer ? <tfoot>{footer}</tfoot> : null}
    </table>
  );
}

/**
 * A page of records as a table (or a message when there is none), followed by the page links: the lists
 * of the account centre and of the operations queues. Plain markup, no JavaScript needed.
 */
export function RecordTable<Row>({
  page,
  empty,
  emptyTestId,
  sizes = false,
  ...table
}: {
  page: Page<Row>;
  /** The list reads `?pageSize=` (app/lib/paging.ts): offer the page-size choice. */
  sizes?: boolean;
  columns: Column<Row>[];
  rowKey: (row: Row) => string | number;
  rowTestId?: string;
  rowProps?: (row: Row) => RowAttributes;
  /** Shown instead of the table when the page has no rows. */
  empty: ReactNode;
  emptyTestId?: string;
  testId?: string;
}) {
  return (
    <>
      {page.rows.length === 0 ? (
        <div className="card space-y-3 text-center text-slate-500" data-testid={emptyTestId}>
          {empty}
        </div>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
          <Table
            {...table}
            rows={page.rows}
            tableClass="min-w-full divide-y divide-slate-200 text-sm"
            space="px-3 py-2"
            headClass="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-500"
          />
        </div>
      )}
      <Pagination pageIndex={page.pageIndex} pageSize={page.pageSize} total={page.total} sizes={sizes} />
    </>
  );
}

/**
 * A short list inside a card (the latest records of My account, the lines of a bill): no frame, no page
 * links; `footer` rows go into <tfoot>, `rowTitle` is a tooltip of the whole row (e.g. the record's number).
 */
export function CompactTable<Row>({
  rowTitle,
  ...table
}: {
  rows: Row[];
  columns: Column<Row>[];
  rowKey: (row: Row) => string | number;
  rowTitle?: (row: Row) => string;
  testId?: string;
  footer?: ReactNode;
}) {
  return (
    <Table
      {...table}
      rowProps={rowTitle ? (row) => ({ title: rowTitle(row) }) : undefined}
      tableClass="mt-3 min-w-full text-sm"
      space="py-2 pr-4 last:pr-0"
      headClass="text-left text-xs uppercase tracking-wide text-slate-500"
    />
  );
}
