import type { ReactNode } from "react";
import { EmptyState } from "./EmptyState.tsx";
import { Pagination } from "./Pagination.tsx";
import { Table, type Column, type RowAttributes } from "./Table.tsx";

export type { Column } from "./Table.tsx";

type Page<Row> = { rows: Row[]; pageIndex: number; pageSize: number; total: number };

/**
 * A page of records as a Table (or an EmptyState when there is none), followed by the page links: the lists
 * of the account centre and of the operations queues. Plain markup, no JavaScript needed.
 */
export function RecordTable<Row>({
  page,
  empty,
  emptyTestId,
  sizes = false,
  pageParam,
  ...table
}: {
  page: Page<Row>;
  /** The list reads `?pageSize=` (app/lib/paging.ts): offer the page-size choice. */
  sizes?: boolean;
  /** The query parameter of its page number (default `page`; a second list on one page has its own). */
  pageParam?: string;
  /** The table's accessible name (see Table). */
  label: string;
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
        <EmptyState message={empty} testId={emptyTestId} />
      ) : (
        <Table {...table} rows={page.rows} />
      )}
      <Pagination
        pageIndex={page.pageIndex}
        pageSize={page.pageSize}
        total={page.total}
        sizes={sizes}
        param={pageParam}
      />
    </>
  );
}
