import type { ReactNode } from "react";

/** One column of a `DataTable`: its heading, and what each row shows in it. */
export type Column<Row> = {
  header: ReactNode;
  /** Classes of the heading cell. */
  th?: string;
  /** Classes of each data cell of the column. */
  td?: string;
  cell: (row: Row) => ReactNode;
};

/**
 * The back office's tables (pick list, driver slip, stock history, import preview): a heading row of
 * `scope="col"` cells, then a row per item; each table keeps its own classes.
 */
export function DataTable<Row>({
  columns,
  rows,
  rowKey,
  caption,
  className,
  headClassName,
  headRowClassName,
  rowClassName,
}: {
  columns: Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string | number;
  /** Read by screen readers only. */
  caption?: ReactNode;
  className?: string;
  headClassName?: string;
  headRowClassName?: string;
  rowClassName?: string;
}) {
  return (
    <table className={className}>
      {caption ? <caption className="sr-only">{caption}</caption> : null}
      <thead className={headClassName}>
        <tr className={headRowClassName}>
          {columns.map((column, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a table's columns are fixed
            <th key={index} scope="col" className={column.th}>
              {column.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={rowKey(row)} className={rowClassName}>
            {columns.map((column, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a table's columns are fixed
              <td key={index} className={column.td}>
                {column.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
