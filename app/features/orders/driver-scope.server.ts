/**
 * A driver's run (P-26): the orders of TODAY (store time zone) assigned to them or to
 * nobody. Owners and managers (permission `today.plan`) see every order of any date. The board,
 * the status actions and the ID photo route all ask this one module.
 */
import { and, eq, isNull, or, type SQL } from "drizzle-orm";
import { db, type Executor } from "#app/db/client.server.ts";
import { orders } from "#app/db/schema.ts";
import { can } from "#app/features/staff/permissions.ts";
import type { AdminSession } from "#app/features/staff/sessions.server.ts";
import { storeDay } from "#app/utils/store-time.ts";

export type StaffScope = { kind: "all" } | { kind: "driver"; driverId: string; date: string };

export function staffScopeOf(session: Pick<AdminSession, "userId" | "role">, now = new Date()): StaffScope {
  if (can(session.role, "today.plan")) return { kind: "all" };
  return { kind: "driver", driverId: session.userId, date: storeDay(now) };
}

/** The SQL condition of a driver's run (undefined: every order). */
export function scopeCondition(scope: StaffScope): SQL | undefined {
  if (scope.kind === "all") return undefined;
  return and(
    eq(orders.deliveryDate, scope.date),
    or(eq(orders.driverId, scope.driverId), isNull(orders.driverId)),
  );
}

/** Whether an order already read is within `scope`: the same rule as `scopeCondition`. */
export function isWithinScope(scope: StaffScope, order: { deliveryDate: string; driverId: string | null }) {
  if (scope.kind === "all") return true;
  return order.deliveryDate === scope.date && (order.driverId === null || order.driverId === scope.driverId);
}

/** The order (by its id, or by its ID photo's id) when it exists and is within `scope`. */
export async function orderWithinScope(
  scope: StaffScope,
  by: { orderId: string } | { idPhotoId: string },
  executor?: Executor,
): Promise<{ id: string } | null> {
  const database = executor ?? (await db());
  const [row] = await database
    .select({ id: orders.id })
    .from(orders)
    .where(
      and(
        "orderId" in by ? eq(orders.id, by.orderId) : eq(orders.idPhotoId, by.idPhotoId),
        scopeCondition(scope),
      ),
    )
    .limit(1);
  return row ?? null;
}
