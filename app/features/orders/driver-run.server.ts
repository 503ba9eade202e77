/**
 * A driver's run on the phone (`/driver`): the signed-in staff member's orders of today (store
 * time zone) as stops in delivery order, the unassigned confirmed orders of today they may take
 * (the driver scope's rule), and their run of tomorrow to read ahead. Owners and managers who drive
 * get the same run: the scope here is always the signed-in person's, whatever their role.
 *
 * Status moves go through `changeOrderStatus` / `handleOrderAction` (the one home of status
 * changes, with its e-mail and audit event); an unassigned order a driver starts, delivers or
 * cancels becomes theirs first (one 'order.driver_assigned' audit event), so it stays on their run.
 */
import { and, asc, eq, inArray, isNull, or, sql } from "drizzle-orm";
import { db, type Executor, type Transaction } from "#app/db/client.server.ts";
import { driverStopPositions, orders } from "#app/db/schema.ts";
import { type AuditBy, recordAuditBy } from "#app/features/audit/audit.server.ts";
import { nextDate, storeDay } from "#app/utils/store-time.ts";
import { z } from "#app/utils/zod.ts";
import { type AdminOrder, adminOrderColumns, changeOrderStatus, withItems } from "./admin-orders.server.ts";
import { latestFailures } from "./door-records.server.ts";
import { collectedCents, compareStops, type MoveDirection, movedStops } from "./driver-run.ts";
import type { StaffScope } from "./driver-scope.server.ts";
import { ORDER_ACTIONS } from "./order-status.ts";
import { freezeRunManifest } from "./run-manifest.server.ts";

export type RunStop = AdminOrder & {
  position: number | null;
  /** A returning stop's reason, as the driver gave it (P-32). */
  failure?: string;
};

export type DriverRun = {
  date: string;
  tomorrow: string;
  /** Confirmed or out for delivery, assigned to the driver, in delivery order. */
  open: RunStop[];
  delivered: RunStop[];
  cancelled: RunStop[];
  /** Could not deliver: going back to the store. */
  returning: RunStop[];
  /** Today's confirmed orders assigned to nobody: the driver may take them. */
  unassigned: RunStop[];
  /** Tomorrow's orders assigned to the driver (not cancelled), in delivery order. */
  ahead: RunStop[];
  collectedCents: number;
  toCollectCents: number;
};

/** The run's scope for the status moves: today's orders of this person or of nobody. */
export function runScope(driverId: string, now = new Date()): StaffScope {
  return { kind: "driver", driverId, date: storeDay(now) };
}

/** Orders read per list: a run is a few dozen stops; this bounds a page on a day that is not. */
const MAX_STOPS = 200;

async function stopsWhere(executor: Executor, driverId: string, where: ReturnType<typeof and>) {
  const rows = await executor
    .select({ ...adminOrderColumns, driverId: orders.driverId, position: driverStopPositions.position })
    .from(orders)
    .leftJoin(
      driverStopPositions,
      and(eq(driverStopPositions.orderId, orders.id), eq(driverStopPositions.driverId, driverId)),
    )
    .where(where)
    .orderBy(asc(orders.deliveryTime), asc(orders.createdAt), asc(orders.id))
    .limit(MAX_STOPS);
  const stops = await withItems(executor, rows);
  return stops.sort(compareStops);
}

export async function getDriverRun(
  driverId: string,
  options: { now?: Date; executor?: Executor } = {},
): Promise<DriverRun> {
  const executor = options.executor ?? (await db());
  const date = storeDay(options.now ?? new Date());
  const tomorrow = nextDate(date);
  const today = await stopsWhere(
    executor,
    driverId,
    and(
      eq(orders.deliveryDate, date),
      or(
        and(
          eq(orders.driverId, driverId),
          inArray(orders.status, ["confirmed", "out_for_delivery", "delivered", "cancelled", "returning"]),
        ),
        and(isNull(orders.driverId), eq(orders.status, "confirmed")),
      ),
    ),
  );
  const mine = today.filter((stop) => stop.driverId === driverId);
  const open = mine.filter((stop) => stop.status === "confirmed" || stop.status === "out_for_delivery");
  const ahead = await stopsWhere(
    executor,
    driverId,
    and(
      eq(orders.deliveryDate, tomorrow),
      eq(orders.driverId, driverId),
      inArray(orders.status, ["pending", "confirmed", "out_for_delivery"]),
    ),
  );
  const strip = ({ driverId: _driver, ...stop }: (typeof today)[number]): RunStop => stop;
  const returning = mine.filter((stop) => stop.status === "returning").map(strip);
  const failures = await latestFailures(
    executor,
    returning.map((stop) => stop.id),
  );
  for (const stop of returning) stop.failure = failures.get(stop.id);
  return {
    date,
    tomorrow,
    open: open.map(strip),
    delivered: mine.filter((stop) => stop.status === "delivered").map(strip),
    cancelled: mine.filter((stop) => stop.status === "cancelled").map(strip),
    returning,
    unassigned: today.filter((stop) => stop.driverId === null).map(strip),
    ahead: ahead.map(strip),
    collectedCents: collectedCents(mine),
    toCollectCents: open.reduce((sum, stop) => sum + stop.totalAmountCents, 0),
  };
}

/**
 * Moves one of the driver's open stops of today one place up or down within its slot, and keeps
 * the whole order of their open stops (one row per stop). False when it cannot move that way.
 */
export async function moveStop(
  driverId: string,
  orderId: string,
  direction: MoveDirection,
  options: { now?: Date } = {},
): Promise<boolean> {
  const database = await db();
  const date = storeDay(options.now ?? new Date());
  return database.transaction(async (tx) => {
    const stops = await tx
      .select({
        id: orders.id,
        deliveryTime: orders.deliveryTime,
        createdAt: sql<string>`${orders.createdAt}::text`,
        position: driverStopPositions.position,
      })
      .from(orders)
      .leftJoin(
        driverStopPositions,
        and(eq(driverStopPositions.orderId, orders.id), eq(driverStopPositions.driverId, driverId)),
      )
      .where(
        and(
          eq(orders.deliveryDate, date),
          eq(orders.driverId, driverId),
          inArray(orders.status, ["confirmed", "out_for_delivery"]),
        ),
      )
      .limit(MAX_STOPS);
    const moved = movedStops(stops, orderId, direction);
    if (!moved) return false;
    await tx
      .insert(driverStopPositions)
      .values(moved.map((stop, position) => ({ driverId, orderId: stop.id, deliveryDate: date, position })))
      .onConflictDoUpdate({
        target: [driverStopPositions.driverId, driverStopPositions.orderId],
        set: { position: sql`excluded.position`, deliveryDate: sql`excluded.delivery_date` },
      });
    return true;
  });
}

/**
 * Makes an order of the run the driver's when it is assigned to nobody (within the run's scope,
 * under the order's lock). True when the order is theirs afterwards.
 */
async function takeIfUnassigned(
  tx: Transaction,
  scope: StaffScope & { kind: "driver" },
  orderId: string,
  by: AuditBy,
) {
  const [row] = await tx
    .select({ driverId: orders.driverId })
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.deliveryDate, scope.date)))
    .for("update");
  if (!row) return false;
  if (row.driverId === scope.driverId) return true;
  if (row.driverId !== null) return false;
  await tx.update(orders).set({ driverId: scope.driverId }).where(eq(orders.id, orderId));
  await recordAuditBy(tx, by, {
    action: "order.driver_assigned",
    targetType: "order",
    targetId: orderId,
    details: { from: null, to: scope.driverId, driver: by.actor.email, taken: true },
  });
  return true;
}

/** Takes an unassigned order of today before a status move on it (Mark Delivered, Cancel). */
export async function takeStop(driverId: string, orderId: string, by: AuditBy, options: { now?: Date } = {}) {
  const database = await db();
  const scope = runScope(driverId, options.now) as StaffScope & { kind: "driver" };
  return database.transaction((tx) => takeIfUnassigned(tx, scope, orderId, by));
}

/**
 * 'Start run': each picked order (today's, confirmed, the driver's or nobody's) becomes the
 * driver's and goes out for delivery, one transaction per order, each with its status e-mail.
 */
export async function startRun(
  driverId: string,
  orderIds: readonly string[],
  by: AuditBy,
  options: { now?: Date; vehicle?: string | null } = {},
): Promise<{ started: number; skipped: number; manifestId: string | null }> {
  const database = await db();
  const now = options.now ?? new Date();
  const scope = runScope(driverId, now) as StaffScope & { kind: "driver" };
  const started: string[] = [];
  for (const orderId of orderIds) {
    const changed = await database.transaction(async (tx) => {
      if (!(await takeIfUnassigned(tx, scope, orderId, by))) return false;
      const result = await changeOrderStatus(tx, orderId, "out_for_delivery", {
        now,
        actorId: by.actor.userId,
        audit: by,
        scope,
        onlyFrom: ORDER_ACTIONS["out-for-delivery"].from,
      });
      return result.ok && result.changed;
    });
    if (changed) started.push(orderId);
  }
  const manifestId = await database.transaction((tx) =>
    freezeRunManifest(tx, {
      driverId,
      orderIds: started,
      date: scope.date,
      departedAt: now,
      vehicle: options.vehicle,
      by,
    }),
  );
  return { started: started.length, skipped: orderIds.length - started.length, manifestId };
}

const uuidList = z.array(z.uuid()).max(MAX_STOPS);

/** The orders a 'Start run' form picked: its `pick-<order id>` checkboxes (one field per order). */
export function pickedOrderIds(form: FormData): string[] {
  const ids = [...form.keys()].filter((key) => key.startsWith("pick-")).map((key) => key.slice(5));
  const parsed = uuidList.safeParse(ids);
  return parsed.success ? parsed.data : [];
}

export const moveStopSchema = z.object({
  intent: z.enum(["move-up", "move-down"]),
  orderId: z.uuid(),
});

/** A post about one stop (Mark Delivered, Cancel): its order. Here, not in the route, so the page loads no zod. */
export const stopFormSchema = z.object({ orderId: z.uuid() });
