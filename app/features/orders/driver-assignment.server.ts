/**
 * Driver assignment: on the today board an owner or manager gives an order, or every confirmed
 * order of a slot, to an active driver (or back to nobody). Only confirmed orders go to a driver: a
 * pending one is refused on its own and left out of a slot's assignment (counted, so the answer
 * says so). Each order assigned is one audit event in the same transaction (the order's own
 * history shows it).
 */
import { and, asc, eq, inArray, isNull, notInArray } from "drizzle-orm";
import { db } from "#app/db/client.server.ts";
import { adminUsers, orders } from "#app/db/schema.ts";
import { type AuditBy, recordAuditBy } from "#app/features/audit/audit.server.ts";
import { z } from "#app/utils/zod.ts";
import { CLOSED_STATUSES } from "./order-status.ts";

export type ActiveDriver = { id: string; name: string };

/** Drivers who can be given orders: role driver, not deactivated; by name. */
export async function listActiveDrivers(): Promise<ActiveDriver[]> {
  const database = await db();
  const rows = await database
    .select({ id: adminUsers.id, firstName: adminUsers.firstName, email: adminUsers.email })
    .from(adminUsers)
    .where(and(eq(adminUsers.role, "driver"), isNull(adminUsers.deactivatedAt)))
    .orderBy(asc(adminUsers.firstName), asc(adminUsers.email));
  return rows.map((row) => ({ id: row.id, name: row.firstName || row.email }));
}

const driverField = z.union([z.uuid(), z.literal("")]);

export const assignmentSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("assign"), orderId: z.uuid(), driverId: driverField }),
  z.object({
    intent: z.literal("assign-slot"),
    date: z.iso.date(),
    slot: z.string().trim().min(1).max(40),
    driverId: driverField,
  }),
]);
export type AssignmentInput = z.infer<typeof assignmentSchema>;

export type AssignmentResult =
  | { ok: true; orders: number; driverName: string | null; pendingLeft: number }
  | { ok: false; reason: AssignmentRefusal };

export type AssignmentRefusal = "not-a-driver" | "not-confirmed" | "not-open";

export const NOT_CONFIRMED_FOR_DRIVER = "Confirm this order before giving it to a driver";

export async function assignDriver(input: AssignmentInput, by: AuditBy): Promise<AssignmentResult> {
  const database = await db();
  return database.transaction(async (tx) => {
    let driverName: string | null = null;
    if (input.driverId) {
      const [driver] = await tx
        .select({ firstName: adminUsers.firstName, email: adminUsers.email })
        .from(adminUsers)
        .where(
          and(
            eq(adminUsers.id, input.driverId),
            eq(adminUsers.role, "driver"),
            isNull(adminUsers.deactivatedAt),
          ),
        );
      if (!driver) return { ok: false, reason: "not-a-driver" } as const;
      driverName = driver.firstName || driver.email;
    }
    const which =
      input.intent === "assign"
        ? eq(orders.id, input.orderId)
        : and(eq(orders.deliveryDate, input.date), eq(orders.deliveryTime, input.slot));
    const locked = await tx
      .select({ id: orders.id, driverId: orders.driverId, status: orders.status })
      .from(orders)
      .where(and(which, notInArray(orders.status, [...CLOSED_STATUSES])))
      .orderBy(asc(orders.id))
      .for("update");
    // Giving orders to a driver takes confirmed ones; taking them back (no driver) takes any open one.
    const pending = input.driverId ? locked.filter((row) => row.status === "pending") : [];
    if (input.intent === "assign" && locked.length === 0) return { ok: false, reason: "not-open" } as const;
    if (input.intent === "assign" && pending.length > 0)
      return { ok: false, reason: "not-confirmed" } as const;
    const changing = locked.filter(
      (row) => (row.driverId ?? "") !== input.driverId && !pending.includes(row),
    );
    if (changing.length > 0) {
      await tx
        .update(orders)
        .set({ driverId: input.driverId || null })
        .where(
          inArray(
            orders.id,
            changing.map((row) => row.id),
          ),
        );
    }
    for (const row of changing) {
      await recordAuditBy(tx, by, {
        action: "order.driver_assigned",
        targetType: "order",
        targetId: row.id,
        details: { from: row.driverId, to: input.driverId || null, driver: driverName },
      });
    }
    return { ok: true, orders: changing.length, driverName, pendingLeft: pending.length } as const;
  });
}

/**
 * What the customer's order page says about the driver: their first name, once the order is out
 * for delivery with a driver assigned. Never more than the first name.
 */
export async function driverFirstNameFor(order: { id: string; status: string }): Promise<string | null> {
  if (order.status !== "out_for_delivery") return null;
  const database = await db();
  const [row] = await database
    .select({ firstName: adminUsers.firstName })
    .from(orders)
    .innerJoin(adminUsers, eq(adminUsers.id, orders.driverId))
    .where(eq(orders.id, order.id))
    .limit(1);
  const name = row?.firstName.trim().split(/\s+/)[0];
  return name ? name : null;
}
