/** Keyset pagination shared by the admin lists: newest first on (created_at, id), opaque cursors. */
import { type AnyColumn, sql } from "drizzle-orm";

/** PostgreSQL's text form of a timestamptz, e.g. "2026-11-23 15:01:00.123456+00". */
const TIMESTAMP_TEXT = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?([+-]\d{2}(:?\d{2})?|Z)?$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An opaque cursor: the exact created_at text (microseconds kept) and id of the last row shown. */
export function encodeCursor(createdAtText: string, id: string) {
  return Buffer.from(`${createdAtText}|${id}`).toString("base64url");
}

export function decodeCursor(cursor: string | null | undefined): { createdAt: string; id: string } | null {
  if (!cursor || cursor.length > 200) return null;
  const [createdAt, id] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  if (!createdAt || !id || !UUID.test(id) || !TIMESTAMP_TEXT.test(createdAt)) return null;
  return { createdAt, id };
}

/**
 * ORDER BY matching the indexes exactly: drizzle-kit writes `.desc()` index columns as
 * `DESC NULLS LAST`, and a plain `DESC` (NULLS FIRST) would not use them (a full sort instead).
 */
export function newestFirst(...columns: AnyColumn[]) {
  return columns.map((column) => sql`${column} desc nulls last`);
}
