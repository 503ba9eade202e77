/**
 * Who marked each delivered order delivered, and when: the last audit event that moved it to
 * 'delivered' (its actor's first name, or e-mail), else the order's own status time. One range of
 * the audit log's target index per order.
 */
import { inArray, sql } from "drizzle-orm";
import type { Executor } from "#app/db/client.server.ts";
import { rowsOf } from "#app/db/rows.ts";
import { orders } from "#app/db/schema.ts";

export type DeliveredBy = { at: string; by: string | null };

export async function deliveredBy(
  executor: Executor,
  orderIds: readonly string[],
): Promise<Map<string, DeliveredBy>> {
  const found = new Map<string, DeliveredBy>();
  if (orderIds.length === 0) return found;
  const result = await executor.execute(sql`
    SELECT t.id AS "orderId", e.created_at AS "at",
      coalesce(nullif(u.first_name, ''), e.actor_email) AS "by"
    FROM unnest(ARRAY[${sql.join(
      orderIds.map((id) => sql`${id}`),
      sql`, `,
    )}]::text[]) AS t(id)
    CROSS JOIN LATERAL (
      SELECT created_at, actor_id, actor_email FROM audit_events
      WHERE target_type = 'order' AND target_id = t.id
        AND action IN ('order.status_changed', 'order.reopened') AND details->>'to' = 'delivered'
      ORDER BY created_at DESC NULLS LAST, id DESC NULLS LAST
      LIMIT 1
    ) e
    LEFT JOIN admin_users AS u ON u.id = e.actor_id`);
  for (const row of rowsOf<{ orderId: string; at: Date | string; by: string | null }>(result)) {
    found.set(row.orderId, { at: new Date(row.at).toISOString(), by: row.by });
  }
  const missing = orderIds.filter((id) => !found.has(id));
  if (missing.length > 0) {
    const rows = await executor
      .select({ id: orders.id, at: orders.statusChangedAt })
      .from(orders)
      .where(inArray(orders.id, missing));
    for (const row of rows) found.set(row.id, { at: row.at.toISOString(), by: null });
  }
  return found;
}
