import { useTranslation } from "react-i18next";
import { isValidElement, type ReactNode } from "react";

/** One column of a Table: its heading and what a row shows in it. */
export type Column<Row> = {
  header: ReactNode;
  cell: (row: Row) => ReactNode;
  /** Money and other figures: aligned right, with digits of one width. */
  numeric?: boolean;
  /** Extra classes of the column's cells (not of its heading). */
  className?: string;
  cellTestId?: string;
  /** The cells print what people entered (names, descriptions): marked `data-user-content` (e2e/words.spec.ts). */
  userContent?: boolean;
};

export type RowAttributes = { title?: string; "aria-selected"?: boolean };

/** The classes of a cell in a Table's rows written by hand (`head` + `children`). */
export const td = "px-3 py-2 align-top";

type Common = {
  /** The table's accessible name; its scrolling region is named after it ("…, a table you can scroll sideways"). */
  label: string;
  /** A visible caption instead of the hidden name (the name stays `label`). */
  caption?: ReactNode;
  /** On the <table>. */
  testId?: string;
  /** On the scrolling region around it. */
  regionTestId?: string;
  /** framed: a list of its own (border, shaded head); compact: a short list inside a card. */
  variant?: "framed" | "compact";
  /** Rows of <tfoot>. */
  footer?: ReactNode;
  className?: string;
};

/** Rows from data: one cell per column. */
type DataRows<Row> = {
  columns: Column<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string | number;
  rowTestId?: string;
  rowProps?: (row: Row) => RowAttributes;
};

/** A heading of hand-written rows: its content, or the content and whether the column holds figures. */
export type Heading = ReactNode | { header: ReactNode; numeric?: boolean };

/** Rows written by the caller (cells with `td`), under the headings `head`. */
type OwnRows = { head: Heading[]; children: ReactNode };

export type TableProps<Row> = Common & (DataRows<Row> | OwnRows);

const STYLE = {
  framed: {
    region: "overflow-x-auto rounded-lg border border-slate-200 bg-white",
    table: "min-w-full divide-y divide-slate-200 text-sm",
    head: "bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-500",
    space: "px-3 py-2",
  },
  compact: {
    region: "mt-3 overflow-x-auto",
    table: "min-w-full text-sm",
    head: "text-left text-xs uppercase tracking-wide text-slate-500",
    space: "py-2 pr-4 last:pr-0",
  },
} as const;

/**
 * The one data table of the portal: a caption or a name, column headings with scope, and around it a region
 * that scrolls sideways on a phone. The region takes the keyboard focus so that a keyboard can scroll it
 * (WCAG 2.1.1, axe scrollable-region-focusable) and has a name of its own, not the section's (landmark-unique).
 * Plain markup, no JavaScript needed.
 */
export function Table<Row>(props: TableProps<Row>) {
  const { t } = useTranslation();
  const { label, caption, testId, regionTestId, variant = "framed", footer, className } = props;
  const style = STYLE[variant];
  const numeric = (on: boolean | undefined, extra: string) =>
    [style.space, on ? `text-right ${extra}`.trim() : ""].filter(Boolean).join(" ");
  const heading = (content: ReactNode, i: number, on?: boolean) => (
    <th key={i} scope="col" className={numeric(on, "")}>
      {content || <span className="sr-only">{t("common:actions.column")}</span>}
    </th>
  );
  let headings: ReactNode[];
  let body: ReactNode;
  if ("columns" in props) {
    const { columns, rows, rowKey, rowTestId, rowProps } = props;
    headings = columns.map((column, i) => heading(column.header, i, column.numeric));
    body = rows.map((row) => (
      <tr key={rowKey(row)} data-testid={rowTestId} {...rowProps?.(row)}>
        {columns.map((column, i) => (
          <td
            key={i}
            className={[numeric(column.numeric, "tabular-nums"), column.className ?? ""].filter(Boolean).join(" ")}
            data-testid={column.cellTestId}
            data-user-content={column.userContent ? "" : undefined}
          >
            {column.cell(row)}
          </td>
        ))}
      </tr>
    ));
  } else {
    headings = props.head.map((h, i) =>
      h !== null && typeof h === "object" && "header" in h && !isValidElement(h)
        ? heading(h.header, i, h.numeric)
        : heading(h, i),
    );
    body = props.children;
  }
  return (
    <div
      className={[style.region, className ?? ""].filter(Boolean).join(" ")}
      role="region"
      aria-label={t("common:table.region", { name: label })}
      tabIndex={0}
      data-testid={regionTestId}
    >
      <table className={style.table} aria-label={caption ? undefined : label} data-testid={testId}>
        {caption ? (
          <caption className="px-3 py-2 text-left text-sm font-semibold text-slate-700">{caption}</caption>
        ) : null}
        <thead className={style.head}>
          <tr>{headings}</tr>
        </thead>
        <tbody className="divide-y divide-slate-100">{body}</tbody>
        {footer ? <tfoot>{footer}</tfoot> : null}
      </table>
    </div>
  );
}
