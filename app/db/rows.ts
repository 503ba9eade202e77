/** The rows of a raw `execute` result: both drivers hand back `{ rows }`. */
export function rowsOf<T = Record<string, unknown>>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}
