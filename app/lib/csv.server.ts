// eslint-disable-next-line no-restricted-imports -- the one CSV writer of the portal
import { stringify } from "csv-stringify/sync";

/**
 * CSV files the portal exports (docs/decisions/024), every one written through `toCsv`.
 *
 * Spreadsheet programs run a cell that starts with = + - @ (or a tab or carriage return before one) as a
 * formula, so a service name such as `=HYPERLINK(...)` would become a live formula in the user's
 * spreadsheet ("CSV injection"). The rule:
 * - Every text cell that starts with one of = + - @ tab CR gets a leading single quote, which the
 *   spreadsheet shows as text. Text is anything that may hold what a user typed: names, numbers of
 *   records, translated labels alike; the exporter does not have to decide which text is safe.
 * - A number the portal formatted itself is written as it is, so amounts stay numbers, negative ones
 *   ("-12.00") included. Such a cell is made with `csvNumber()`, which accepts only a plain decimal
 *   (digits, an optional leading minus, an optional fraction): nothing a user typed can pass as one.
 */

/** A cell the exporter vouches for as a plain decimal number. */
export class CsvNumber {
  private constructor(readonly text: string) {}

  static of(value: number | string): CsvNumber {
    const text = typeof value === "number" ? String(value) : value;
    if (!/^-?[0-9]+(\.[0-9]+)?$/.test(text)) throw new Error("csvNumber: not a plain decimal");
    return new CsvNumber(text);
  }
}

/** A numeric cell written as is (see the rule above): a finite number, or a decimal string such as "-12.00". */
export const csvNumber = (value: number | string) => CsvNumber.of(value);

export type CsvCell = string | CsvNumber | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;

/** A text cell as it is written: with a leading single quote when a spreadsheet would read a formula. */
export function neutralise(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** Rows (the header first) as CSV with CRLF line ends, each text cell neutralised. */
export function toCsv(rows: readonly (readonly CsvCell[])[]): string {
  return stringify(
    rows.map((row) => row.map((cell) => (cell instanceof CsvNumber ? cell.text : neutralise(cell ?? "")))),
    { record_delimiter: "\r\n" },
  );
}

/** A list export's rows as the file the browser downloads, with what the backend said about the rows. */
export type CsvFile = {
  /** The file's name in ASCII, for browsers that read only `filename` (no extension, no date). */
  asciiName: string;
  /** The file's name in the viewer's language, `filename*` (no extension, no date). */
  localName: string;
  /** The day written into both names (UTC+8, YYYY-MM-DD). */
  day: string;
  /** How many rows matched, and whether the file stops short of them (the backend's export limit). */
  total: number;
  truncated: boolean;
};

/**
 * A CSV download as every export of the portal answers it: a byte order mark (spreadsheet programs then read the
 * UTF-8 of Chinese headers and names correctly), an attachment with an ASCII `filename` and a UTF-8 `filename*`,
 * never stored by a cache, with the number of matching rows and whether the file was cut at the export limit.
 */
export function csvResponse(rows: readonly (readonly CsvCell[])[], file: CsvFile): Response {
  const ascii = `${file.asciiName}-${file.day}.csv`.replace(/[^A-Za-z0-9._-]/g, "_");
  const local = encodeURIComponent(`${file.localName}-${file.day}.csv`);
  return new Response(`\uFEFF${toCsv(rows)}`, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${ascii}"; filename*=UTF-8''${local}`,
      "Cache-Control": "no-store",
      "X-Total-Count": String(file.total),
      "X-Truncated": file.truncated ? "1" : "0",
    },
  });
}
