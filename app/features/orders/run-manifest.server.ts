/**
 * A run's manifest (P-33, record 052): when 'Start run' sends orders out, the shop writes down
 * the driver, the vehicle, the departure time and every order with its items, quantities and
 * flower-equivalent weight, with the totals. The row is a copy, never updated: a later change to
 * an order or a product leaves the manifest as it was when the run left.
 */
import { and, asc, desc, eq, inArray } from "drizzle-orm";
import { db, type Executor } from "#app/db/client.server.ts";
import {
  adminUsers,
  driverStopPositions,
  orderItems,
  orders,
  productSizes,
  type RunManifestStop,
  runManifests,
} from "#app/db/schema.ts";
import { type AuditBy, recordAuditBy } from "#app/features/audit/audit.server.ts";
import { staffName } from "./cash-sheet.server.ts";
import { compareStops } from "./driver-run.ts";

export type RunManifest = typeof runManifests.$inferSelect;

export const MAX_VEHICLE_LENGTH = 80;

/** Totals of the stops: the cash to collect and the flower equivalent (complete when every line has one). */
export function manifestTotals(stops: readonly RunManifestStop[]) {
  let totalCents = 0;
  let flowerEquivalentMg = 0;
  let weightComplete = true;
  for (const stop of stops) {
    totalCents += stop.totalCents;
    for (const item of stop.items) {
      if (item.flowerEquivalentMg === null) weightComplete = false;
      else flowerEquivalentMg += item.flowerEquivalentMg;
    }
  }
  return { totalCents, flowerEquivalentMg, weightComplete };
}

/**
 * Freezes the manifest of the orders a run just sent out (in delivery order), or does nothing
 * when none went out. Returns the manifest's id.
 */
export async function freezeRunManifest(
  executor: Executor,
  input: {
    driverId: string;
    orderIds: readonly string[];
    date: string;
    departedAt: Date;
    vehicle?: string | null;
    by?: AuditBy;
  },
): Promise<string | null> {
  if (input.orderIds.length === 0) return null;
  const [driver] = await executor
    .select({ firstName: adminUsers.firstName, email: adminUsers.email })
    .from(adminUsers)
    .where(eq(adminUsers.id, input.driverId));
  if (!driver) return null;
  const rows = await executor
    .select({
      id: orders.id,
      customerName: orders.customerName,
      deliveryAddress: orders.deliveryAddress,
      deliveryTime: orders.deliveryTime,
      totalCents: orders.totalAmountCents,
      createdAt: orders.createdAt,
      position: driverStopPositions.position,
    })
    .from(orders)
    .leftJoin(
      driverStopPositions,
      and(eq(driverStopPositions.orderId, orders.id), eq(driverStopPositions.driverId, input.driverId)),
    )
    .where(inArray(orders.id, [...input.orderIds]));
  const items = await executor
    .select({
      orderId: orderItems.orderId,
      productName: orderItems.productName,
      sizeLabel: orderItems.sizeLabel,
      quantity: orderItems.quantity,
      sizeMg: productSizes.flowerEquivalentMg,
    })
    .from(orderItems)
    .leftJoin(productSizes, eq(productSizes.id, orderItems.productSizeId))
    .where(inArray(orderItems.orderId, [...input.orderIds]))
    .orderBy(asc(orderItems.productName), asc(orderItems.id));
  const stops: RunManifestStop[] = rows
    .map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }))
    .sort(compareStops)
    .map((row) => ({
      orderId: row.id,
      customerName: row.customerName,
      deliveryAddress: row.deliveryAddress,
      deliveryTime: row.deliveryTime,
      totalCents: row.totalCents,
      items: items
        .filter((item) => item.orderId === row.id)
        .map((item) => ({
          productName: item.productName,
          sizeLabel: item.sizeLabel,
          quantity: item.quantity,
          flowerEquivalentMg: item.sizeMg === null ? null : item.sizeMg * item.quantity,
        })),
    }));
  const vehicle = input.vehicle?.trim().slice(0, MAX_VEHICLE_LENGTH) || null;
  const [manifest] = await executor
    .insert(runManifests)
    .values({
      driverId: input.driverId,
      driverName: driver.firstName.trim() ? `${driver.firstName.trim()} (${driver.email})` : driver.email,
      deliveryDate: input.date,
      departedAt: input.departedAt,
      vehicle,
      stops,
      ...manifestTotals(stops),
    })
    .returning({ id: runManifests.id });
  const id = (manifest as { id: string }).id;
  await recordAuditBy(executor, input.by, {
    action: "run.manifest_frozen",
    targetType: "run_manifest",
    targetId: id,
    details: { date: input.date, driver: staffName(driver), orders: stops.length, vehicle },
  });
  return id;
}

export async function getRunManifest(id: string): Promise<RunManifest | null> {
  const database = await db();
  const [manifest] = await database.select().from(runManifests).where(eq(runManifests.id, id));
  return manifest ?? null;
}

export type ManifestSummary = Pick<
  RunManifest,
  "id" | "driverId" | "driverName" | "departedAt" | "vehicle" | "totalCents"
> & { stops: number };

/** The manifests of a day (of one driver when given), newest departure first. */
export async function listRunManifests(
  date: string,
  options: { driverId?: string } = {},
): Promise<ManifestSummary[]> {
  const database = await db();
  const rows = await database
    .select({
      id: runManifests.id,
      driverId: runManifests.driverId,
      driverName: runManifests.driverName,
      departedAt: runManifests.departedAt,
      vehicle: runManifests.vehicle,
      totalCents: runManifests.totalCents,
      stops: runManifests.stops,
    })
    .from(runManifests)
    .where(
      and(
        eq(runManifests.deliveryDate, date),
        options.driverId ? eq(runManifests.driverId, options.driverId) : undefined,
      ),
    )
    .orderBy(desc(runManifests.departedAt))
    .limit(100);
  return rows.map((row) => ({ ...row, stops: row.stops.length }));
}
