/**
 * Staff see the road (record 052): per driver of a day, the stops done, failed and left, the cash
 * expected back (or the hand-in's difference), the run manifests, and the last time their phone
 * synced (filled by the offline queue, record 050; null until it reports).
 */
import { and, count, eq, inArray, isNotNull } from "drizzle-orm";
import { db } from "#app/db/client.server.ts";
import { adminUsers, orders } from "#app/db/schema.ts";
import { type CashSheetView, listCashSheets, staffName } from "./cash-sheet.server.ts";
import type { ActiveDriver } from "./driver-assignment.server.ts";
import { lastPhoneSyncs } from "./driver-sync.server.ts";
import { listRunManifests, type ManifestSummary } from "./run-manifest.server.ts";

/** A driver and their phone's last sync. */
export type DriverPhone = {
  driverId: string;
  name: string;
  /** When the driver's phone last synced its queue (ISO), or null: not known. */
  lastSyncedAt: string | null;
  /** Changes the phone still held at that sync. */
  waiting: number;
};

export type DriverRoad = DriverPhone & {
  done: number;
  failed: number;
  left: number;
  cash: CashSheetView | null;
  manifests: ManifestSummary[];
};

/**
 * The today board's drivers panel: the road of each driver of `date` and, when `date` is today, the
 * phones of the active drivers (`drivers`) who have no road, each with their phone's last sync (a
 * phone's sync is news of the moment: another day's board shows none).
 */
export async function getDriversPanel(
  date: string,
  { isToday, drivers }: { isToday: boolean; drivers: readonly ActiveDriver[] },
): Promise<{ roads: DriverRoad[]; offRoad: DriverPhone[] }> {
  const roads = await getDriverRoads(date);
  if (!isToday) return { roads, offRoad: [] };
  const onRoad = new Set(roads.map((road) => road.driverId));
  const offRoad = drivers.filter((driver) => !onRoad.has(driver.id));
  const syncs = await lastPhoneSyncs([...onRoad, ...offRoad.map((driver) => driver.id)]);
  const withSync = <Row extends { driverId: string }>(row: Row) => {
    const sync = syncs.get(row.driverId);
    return { ...row, lastSyncedAt: sync?.syncedAt.toISOString() ?? null, waiting: sync?.waiting ?? 0 };
  };
  return {
    roads: roads.map(withSync),
    offRoad: offRoad.map((driver) => withSync({ driverId: driver.id, name: driver.name })),
  };
}

export async function getDriverRoads(date: string): Promise<DriverRoad[]> {
  const database = await db();
  const counts = await database
    .select({ driverId: orders.driverId, status: orders.status, orders: count() })
    .from(orders)
    .where(and(eq(orders.deliveryDate, date), isNotNull(orders.driverId)))
    .groupBy(orders.driverId, orders.status);
  const [sheets, manifests] = [await listCashSheets(date), await listRunManifests(date)];
  const ids = new Set<string>();
  for (const row of counts) if (row.driverId && row.status !== "pending") ids.add(row.driverId);
  for (const sheet of sheets) ids.add(sheet.driverId);
  for (const manifest of manifests) ids.add(manifest.driverId);
  if (ids.size === 0) return [];
  const people = await database
    .select({ id: adminUsers.id, firstName: adminUsers.firstName, email: adminUsers.email })
    .from(adminUsers)
    .where(inArray(adminUsers.id, [...ids]));
  const names = new Map(people.map((person) => [person.id, staffName(person)]));
  const tally = (driverId: string, statuses: readonly string[]) =>
    counts
      .filter((row) => row.driverId === driverId && statuses.includes(row.status))
      .reduce((sum, row) => sum + row.orders, 0);
  return [...ids]
    .map((driverId) => ({
      driverId,
      name: names.get(driverId) ?? "",
      done: tally(driverId, ["delivered"]),
      failed: tally(driverId, ["cancelled", "returning"]),
      left: tally(driverId, ["confirmed", "out_for_delivery"]),
      cash: sheets.find((sheet) => sheet.driverId === driverId) ?? null,
      manifests: manifests.filter((manifest) => manifest.driverId === driverId),
      lastSyncedAt: null,
      waiting: 0,
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}
