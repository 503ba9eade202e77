/**
 * Reading the audit log (P-27, owners only): filters by actor, action, target (type and id)
 * and date range (store days), newest first, one keyset page at a time on (created_at, id). Each
 * filter has its index (drizzle/0013: actor, action, target, each followed by created_at DESC, id
 * DESC; the date range alone uses created_at's), so the first page and the 10,000th read the same
 * few index entries whatever the table's size. The CSV export streams the same query in batches.
 */

import { and, asc, eq, type SQL, sql } from "drizzle-orm";
import { db, type Executor } from "#app/db/client.server.ts";
import { newestFirst } from "#app/db/keyset.ts";
import { rowsOf } from "#app/db/rows.ts";
import { adminUsers, auditEvents } from "#app/db/schema.ts";
import { csvLines } from "#app/utils/csv.ts";
import { nextDate, STORE_TIME_ZONE } from "#app/utils/store-time.ts";
import { calendarDate, filterText, urlFilters } from "#app/utils/url-filters.ts";
import { z } from "#app/utils/zod.ts";
import { AUDIT_FILTER_KEYS, type AuditFilters, type AuditRow } from "./audit-actions.ts";
import { type FoldedHistoryEvent, foldOrderHistory, type HistoryEvent } from "./order-history.ts";

export const AUDIT_PAGE_SIZE = 50;
export const AUDIT_EXPORT_BATCH = 1000;

const optionalText = (max: number) =>
  filterText(max)
    .transform((value) => value || undefined)
    .optional();

export const auditFiltersSchema = z.object({
  actor: z
    .union([z.uuid(), z.literal("")])
    .optional()
    .transform((value) => value || undefined),
  action: optionalText(60),
  targetType: optionalText(40),
  targetId: optionalText(100),
  from: z
    .union([calendarDate, z.literal("")])
    .optional()
    .transform((value) => value || undefined),
  to: z
    .union([calendarDate, z.literal("")])
    .optional()
    .transform((value) => value || undefined),
});
export type { AuditFilters, AuditRow };

const auditUrlFilters = urlFilters<AuditFilters>(AUDIT_FILTER_KEYS, auditFiltersSchema.shape);
/** The filters of a URL; a value that does not parse is dropped rather than refusing the page. */
export const parseAuditFilters = auditUrlFilters.parse;
/** The filters of a URL that are given but not valid (the export answers 400 naming them). */
export const invalidAuditFilters = auditUrlFilters.invalid;
/** The filters as a query string (for the pager and the export link). */
export const auditFiltersQuery = auditUrlFilters.query;

type Cursor = { createdAt: string; id: string };

export function encodeAuditCursor(cursor: Cursor) {
  return Buffer.from(`${cursor.createdAt}|${cursor.id}`).toString("base64url");
}

export function decodeAuditCursor(text: string | null | undefined): Cursor | null {
  if (!text || text.length > 200) return null;
  const [createdAt, id] = Buffer.from(text, "base64url").toString("utf8").split("|");
  if (!createdAt || !id || !/^\d{1,19}$/.test(id)) return null;
  if (!/^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?([+-]\d{2}(:?\d{2})?|Z)?$/.test(createdAt))
    return null;
  return { createdAt, id };
}

/** The first instant of a store day (America/New_York), as SQL. */
const dayStart = (date: string) => sql`(${date}::date::timestamp AT TIME ZONE ${STORE_TIME_ZONE})`;

function filterCondition(filters: AuditFilters, after: Cursor | null): SQL | undefined {
  return and(
    filters.actor ? eq(auditEvents.actorId, filters.actor) : undefined,
    filters.action ? eq(auditEvents.action, filters.action) : undefined,
    filters.targetType ? eq(auditEvents.targetType, filters.targetType) : undefined,
    filters.targetId ? eq(auditEvents.targetId, filters.targetId) : undefined,
    filters.from ? sql`${auditEvents.createdAt} >= ${dayStart(filters.from)}` : undefined,
    filters.to ? sql`${auditEvents.createdAt} < ${dayStart(nextDate(filters.to))}` : undefined,
    after
      ? sql`(${auditEvents.createdAt}, ${auditEvents.id}) < (${after.createdAt}::timestamptz, ${after.id}::bigint)`
      : undefined,
  );
}

/** The query of one page (exported for the test that EXPLAINs it on PostgreSQL). */
export function auditRowsQuery(
  executor: Executor,
  filters: AuditFilters,
  after: Cursor | null,
  limit: number,
) {
  return executor
    .select({
      id: sql<string>`${auditEvents.id}::text`,
      createdAt: auditEvents.createdAt,
      createdAtText: sql<string>`${auditEvents.createdAt}::text`,
      actorEmail: auditEvents.actorEmail,
      actorRole: auditEvents.actorRole,
      action: auditEvents.action,
      targetType: auditEvents.targetType,
      targetId: auditEvents.targetId,
      details: auditEvents.details,
      ipAddress: auditEvents.ipAddress,
      requestId: auditEvents.requestId,
    })
    .from(auditEvents)
    .where(filterCondition(filters, after))
    .orderBy(...newestFirst(auditEvents.createdAt, auditEvents.id))
    .limit(limit);
}

async function readAuditRows(executor: Executor, filters: AuditFilters, after: Cursor | null, limit: number) {
  const rows = await auditRowsQuery(executor, filters, after, limit);
  return rows.map(({ createdAt, createdAtText, ...row }) => ({
    ...row,
    createdAt: createdAt.toISOString(),
    cursor: { createdAt: createdAtText, id: row.id },
  }));
}

export type AuditPage = { events: AuditRow[]; nextCursor: string | null };

export async function listAuditEvents(
  filters: AuditFilters,
  options: { cursor?: string | null; limit?: number; executor?: Executor } = {},
): Promise<AuditPage> {
  const executor = options.executor ?? (await db());
  const limit = Math.min(Math.max(options.limit ?? AUDIT_PAGE_SIZE, 1), 200);
  const rows = await readAuditRows(executor, filters, decodeAuditCursor(options.cursor), limit + 1);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    events: page.map(({ cursor: _cursor, ...row }) => row),
    nextCursor: rows.length > limit && last ? encodeAuditCursor(last.cursor) : null,
  };
}

/** Everyone who can appear as an actor, for the filter's select. */
export async function listAuditActors(executor?: Executor) {
  const database = executor ?? (await db());
  return database
    .select({ id: adminUsers.id, email: adminUsers.email, role: adminUsers.role })
    .from(adminUsers)
    .orderBy(asc(adminUsers.email));
}

export const AUDIT_CSV_COLUMNS = [
  "time",
  "actor",
  "role",
  "action",
  "target_type",
  "target_id",
  "details",
  "ip_address",
  "request_id",
] as const;

/** The CSV of every event the filters select, newest first, read one batch at a time. */
export function auditCsvStream(
  filters: AuditFilters,
  options: { executor?: Executor; batch?: number } = {},
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const batch = options.batch ?? AUDIT_EXPORT_BATCH;
  let after: Cursor | null = null;
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(`\uFEFF${csvLines([AUDIT_CSV_COLUMNS])}`));
        return;
      }
      try {
        const rows = await readAuditRows(options.executor ?? (await db()), filters, after, batch);
        const last = rows[rows.length - 1];
        if (rows.length > 0) {
          controller.enqueue(
            encoder.encode(
              csvLines(
                rows.map((row) => [
                  row.createdAt,
                  row.actorEmail,
                  row.actorRole,
                  row.action,
                  row.targetType,
                  row.targetId,
                  row.details === null ? null : JSON.stringify(row.details),
                  row.ipAddress,
                  row.requestId,
                ]),
              ),
            ),
          );
        }
        if (rows.length < batch || !last) controller.close();
        else after = last.cursor;
      } catch (error) {
        controller.error(error);
      }
    },
  });
}

export type OrderHistoryEntry = FoldedHistoryEvent;

/** Events read per order to fill its `perOrder` lines once repeated ID photo views are folded. */
const EVENTS_READ_PER_ORDER = 100;

/**
 * The last `perOrder` lines of each of these orders' history (who confirmed it, who viewed the ID,
 * when), newest first, repeated views folded into one line (`foldOrderHistory`): one index range
 * of the target index per order.
 */
export async function orderHistories(
  orderIds: string[],
  perOrder = 10,
  executor?: Executor,
): Promise<Record<string, OrderHistoryEntry[]>> {
  if (orderIds.length === 0) return {};
  const database = executor ?? (await db());
  const result = await database.execute(sql`
    SELECT t.id AS "orderId", e.created_at AS "createdAt", e.actor_email AS "actorEmail", e.action, e.details
    FROM unnest(ARRAY[${sql.join(
      orderIds.map((id) => sql`${id}`),
      sql`, `,
    )}]::text[]) AS t(id)
    CROSS JOIN LATERAL (
      SELECT created_at, actor_email, action, details FROM audit_events
      WHERE target_type = 'order' AND target_id = t.id
      ORDER BY created_at DESC NULLS LAST, id DESC NULLS LAST
      LIMIT ${EVENTS_READ_PER_ORDER}
    ) e`);
  const events: Record<string, HistoryEvent[]> = {};
  for (const row of rowsOf<HistoryEvent & { orderId: string }>(result)) {
    const list = events[row.orderId] ?? [];
    events[row.orderId] = list;
    list.push({
      createdAt: new Date(row.createdAt).toISOString(),
      actorEmail: row.actorEmail,
      action: row.action,
      details: row.details,
    });
  }
  const byOrder: Record<string, OrderHistoryEntry[]> = {};
  for (const [orderId, list] of Object.entries(events)) {
    byOrder[orderId] = foldOrderHistory(list).slice(0, perOrder);
  }
  return byOrder;
}
