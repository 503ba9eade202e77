/**
 * The delivery area, slot settings and closures in the database (P-13, P-21, P-22): read by
 * the checkout and the landing page, written by staff at /admin/settings/delivery. The capacity
 * check that cannot be raced lives in SQL (`place_order` books the slot's counter row in
 * `delivery_slot_bookings`, drizzle/0014; a reopen asks `delivery_slot_refusal`); this module
 * answers what shoppers see before they submit.
 */
import { asc, eq, gte, sql } from "drizzle-orm";
import { db, type Executor } from "#app/db/client.server.ts";
import { rowsOf } from "#app/db/rows.ts";
import { deliveryClosures, deliveryZones } from "#app/db/schema.ts";
import { type AuditBy, recordAuditBy } from "#app/features/audit/audit.server.ts";
import type { DeliveryState } from "#app/features/purchase-limits/purchase-limits.ts";
import {
  readStoreSetting,
  type SettingsSaveOptions,
  saveStoreSetting,
} from "#app/features/settings/store-settings.server.ts";
import { config } from "#app/utils/env.server.ts";
import { log } from "#app/utils/logger.server.ts";
import {
  deliveryAreaRefusalMessage,
  NOT_A_ZIP_MESSAGE,
  normalizeZip,
  zipsInTwoZones,
} from "./delivery-area.ts";
import { storedDeliverySettings, type ZoneFormInput } from "./delivery-settings.schema.ts";
import { type DeliverySettings, slotCapacity } from "./delivery-settings.ts";
import {
  type DeliveryDay,
  type DeliverySlotLabel,
  deliveryOptions,
  type SlotAvailability,
  slotAvailability,
} from "./delivery-slots.ts";

/** The `store_settings` key of the slot capacities, cut-offs and lead time. */
export const DELIVERY_SETTINGS_KEY = "delivery";

export type DeliveryZone = {
  id: string;
  name: string;
  state: DeliveryState;
  active: boolean;
  zipCodes: string[];
  minimumOrderCents: number | null;
};

/** What the browser needs of the active zones to check a ZIP (a few hundred bytes). */
export type ZoneCheckData = Pick<DeliveryZone, "state" | "zipCodes" | "minimumOrderCents" | "active">;

export type DeliveryClosure = { id: string; date: string; slot: string | null; reason: string };

export async function getDeliverySettings(executor?: Executor): Promise<DeliverySettings> {
  return storedDeliverySettings(
    await readStoreSetting(DELIVERY_SETTINGS_KEY, executor),
    config().DELIVERY_SLOT_CAPACITY,
  );
}

export async function saveDeliverySettings(settings: DeliverySettings, options: SettingsSaveOptions = {}) {
  await saveStoreSetting(DELIVERY_SETTINGS_KEY, settings, {
    ...options,
    action: "settings.delivery_changed",
    before: async (tx) => (options.audit ? await getDeliverySettings(tx) : null),
  });
  log.info("Delivery settings saved", { leadMinutes: settings.leadMinutes });
}

export async function listDeliveryZones(executor?: Executor): Promise<DeliveryZone[]> {
  const database = executor ?? (await db());
  const rows = await database
    .select({
      id: deliveryZones.id,
      name: deliveryZones.name,
      state: deliveryZones.state,
      active: deliveryZones.active,
      zipCodes: deliveryZones.zipCodes,
      minimumOrderCents: deliveryZones.minimumOrderCents,
    })
    .from(deliveryZones)
    .orderBy(asc(deliveryZones.position), asc(deliveryZones.name));
  return rows.map((row) => ({ ...row, state: row.state as DeliveryState }));
}

/** The active zones as the ZIP checks need them (checkout, landing page). */
export async function zoneCheckData(executor?: Executor): Promise<ZoneCheckData[]> {
  return (await listDeliveryZones(executor))
    .filter((zone) => zone.active)
    .map(({ state, zipCodes, minimumOrderCents, active }) => ({
      state,
      zipCodes,
      minimumOrderCents,
      active,
    }));
}

export type SaveZoneResult =
  | { ok: true; id: string }
  | { ok: false; field: "zipCodes" | "name"; message: string };

/**
 * Adds or edits a zone. Refused when a ZIP would be in two active zones (the checkout maps a ZIP to
 * one zone) or the name is taken. The zones' table trigger marks cached catalogue pages stale.
 */
export async function saveDeliveryZone(
  input: ZoneFormInput,
  options: { now?: Date; audit?: AuditBy } = {},
): Promise<SaveZoneResult> {
  const now = options.now ?? new Date();
  const database = await db();
  return database.transaction(async (tx) => {
    // One editor at a time: two saves cannot each pass the overlap check and then both commit.
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended('delivery-zones', 0))`);
    const zones = await listDeliveryZones(tx);
    const id = input.id || null;
    if (zones.some((zone) => zone.id !== id && zone.name.toLowerCase() === input.name.toLowerCase())) {
      return { ok: false as const, field: "name" as const, message: "Another zone has this name" };
    }
    const next = { name: input.name, state: input.state, active: input.active, zipCodes: input.zipCodes };
    const after = id
      ? zones.map((zone) => (zone.id === id ? { ...zone, ...next } : zone))
      : [...zones, { ...next, id: "" }];
    const clashes = zipsInTwoZones(after).filter((clash) => clash.zones.includes(input.name));
    if (clashes.length > 0) {
      const list = clashes
        .slice(0, 5)
        .map((clash) => `${clash.zip} (${clash.zones.filter((name) => name !== input.name).join(", ")})`)
        .join(", ");
      return {
        ok: false as const,
        field: "zipCodes" as const,
        message: `Already in another active zone: ${list}${clashes.length > 5 ? " …" : ""}`,
      };
    }
    const values = { ...next, minimumOrderCents: input.minimumOrder, updatedAt: now };
    const audit = (zoneId: string) =>
      recordAuditBy(tx, options.audit, {
        action: "settings.zone_saved",
        targetType: "delivery_zone",
        targetId: zoneId,
        details: {
          name: input.name,
          state: input.state,
          active: input.active,
          zipCodes: input.zipCodes.length,
          minimumOrderCents: input.minimumOrder,
        },
      });
    if (id) {
      const updated = await tx
        .update(deliveryZones)
        .set(values)
        .where(eq(deliveryZones.id, id))
        .returning({ id: deliveryZones.id });
      if (updated.length === 0)
        return { ok: false as const, field: "name" as const, message: "This zone no longer exists" };
      log.info("Delivery zone saved", {
        zone: input.name,
        zips: input.zipCodes.length,
        active: input.active,
      });
      await audit(id);
      return { ok: true as const, id };
    }
    const [created] = await tx
      .insert(deliveryZones)
      .values({ ...values, position: zones.length, createdAt: now })
      .returning({ id: deliveryZones.id });
    log.info("Delivery zone added", { zone: input.name, zips: input.zipCodes.length });
    await audit((created as { id: string }).id);
    return { ok: true as const, id: (created as { id: string }).id };
  });
}

/** Deactivates or reactivates a zone (reactivating is refused when a ZIP is now in another active zone). */
export async function setZoneActive(id: string, active: boolean, audit?: AuditBy): Promise<SaveZoneResult> {
  const zone = (await listDeliveryZones()).find((candidate) => candidate.id === id);
  if (!zone) return { ok: false, field: "name", message: "This zone no longer exists" };
  return saveDeliveryZone(
    {
      id,
      name: zone.name,
      state: zone.state,
      active,
      zipCodes: zone.zipCodes,
      minimumOrder: zone.minimumOrderCents,
    },
    { audit },
  );
}

/** Closures of `fromDate` and later, by date. */
export async function listClosures(fromDate: string, executor?: Executor): Promise<DeliveryClosure[]> {
  const database = executor ?? (await db());
  return database
    .select({
      id: deliveryClosures.id,
      date: deliveryClosures.date,
      slot: deliveryClosures.slot,
      reason: deliveryClosures.reason,
    })
    .from(deliveryClosures)
    .where(gte(deliveryClosures.date, fromDate))
    .orderBy(asc(deliveryClosures.date), asc(deliveryClosures.slot));
}

/** Closes a date (slot null) or one slot of it; closing it again replaces the reason. */
export async function addClosure(
  input: { date: string; slot: string | null; reason: string },
  audit?: AuditBy,
) {
  const database = await db();
  await database.transaction(async (tx) => {
    await tx.execute(sql`
      INSERT INTO delivery_closures (date, slot, reason) VALUES (${input.date}, ${input.slot}, ${input.reason})
      ON CONFLICT (date, coalesce(slot, '')) DO UPDATE SET reason = EXCLUDED.reason`);
    await recordAuditBy(tx, audit, {
      action: "settings.closure_added",
      targetType: "settings",
      details: input,
    });
  });
  log.info("Delivery closed", { date: input.date, slot: input.slot ?? "whole day" });
}

export async function removeClosure(id: string, audit?: AuditBy) {
  const database = await db();
  await database.transaction(async (tx) => {
    const removed = await tx
      .delete(deliveryClosures)
      .where(eq(deliveryClosures.id, id))
      .returning({ date: deliveryClosures.date, slot: deliveryClosures.slot });
    if (removed[0]) {
      await recordAuditBy(tx, audit, {
        action: "settings.closure_removed",
        targetType: "settings",
        details: removed[0],
      });
    }
  });
}

/** Orders holding a place (not cancelled) per date and slot, for the given dates. */
export async function slotBookings(dates: string[], executor?: Executor) {
  const database = executor ?? (await db());
  // One counter row per date and slot, kept by place_order and change_order_status (drizzle/0014).
  const rows = rowsOf<{ date: string; slot: string; booked: number }>(
    await database.execute(
      sql`SELECT to_char(delivery_date, 'YYYY-MM-DD') AS date, delivery_time AS slot, booked
        FROM delivery_slot_bookings WHERE delivery_date IN ${dates}`,
    ),
  );
  return new Map(rows.map((row) => [`${row.date} ${row.slot}`, Number(row.booked)]));
}

export type CheckoutDay = DeliveryDay & { availability: SlotAvailability[] };

/**
 * Today and tomorrow as the checkout shows them at `now`: the slots the cut-off leaves, each with
 * its state (open, 'Only N left', 'Full', 'Closed' with the reason), and the default date (the
 * first day with a slot that can be booked). Read fresh for every checkout page (never cached).
 */
export async function checkoutDeliveryDays(now: Date, executor?: Executor) {
  const database = executor ?? (await db());
  const settings = await getDeliverySettings(database);
  const { days } = deliveryOptions(now, settings);
  const dates = days.map((day) => day.date);
  const [bookings, closures] = await Promise.all([
    slotBookings(dates, database),
    listClosures(dates[0] as string, database),
  ]);
  const checkoutDays: CheckoutDay[] = days.map((day) => ({
    ...day,
    availability: slotAvailability(day.slots, {
      capacity: (slot: DeliverySlotLabel) => slotCapacity(settings, day.date, slot),
      booked: (slot) => bookings.get(`${day.date} ${slot}`) ?? 0,
      closure: (slot) =>
        closures.find(
          (closure) => closure.date === day.date && (closure.slot === null || closure.slot === slot),
        )?.reason ?? null,
    }),
  }));
  const bookable = checkoutDays.find((day) =>
    day.availability.some((slot) => slot.status === "open" || slot.status === "few"),
  );
  return {
    days: checkoutDays,
    defaultDate: (bookable ?? checkoutDays.find((day) => day.slots.length > 0) ?? checkoutDays[1])
      ?.date as string,
    settings,
  };
}

export type ZipCheckAnswer = { zip: string; delivers: boolean; message: string };

/**
 * The landing page's 'Do we deliver to you?' (P-21): whether an active zone of either
 * state holds the ZIP, in words. The page is cached without a ZIP only: an answer is rendered
 * for its request (app/server/page-cache.server.ts never stores a `zip=` page).
 */
export async function checkDeliveryZip(input: string, executor?: Executor): Promise<ZipCheckAnswer> {
  const typed = input.trim().slice(0, 10);
  const zip = normalizeZip(typed);
  if (zip === null) return { zip: typed, delivers: false, message: NOT_A_ZIP_MESSAGE };
  const zone = (await listDeliveryZones(executor)).find(
    (candidate) => candidate.active && candidate.zipCodes.includes(zip),
  );
  if (!zone) return { zip, delivers: false, message: deliveryAreaRefusalMessage(zip) };
  return { zip, delivers: true, message: `Yes, we deliver to ${zip} (${zone.name}).` };
}
