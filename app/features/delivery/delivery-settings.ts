/**
 * The shop's delivery settings (P-13 and P-22), as staff set them at
 * /admin/settings/delivery: how many orders each slot takes per weekday, each weekday's same-day
 * cut-off and the lead time before a slot of today ends. Pure: stored in `store_settings`
 * (delivery-settings.server.ts), read by the checkout, the order's SQL check and the admin screen.
 */

import { weekday } from "#app/utils/store-time.ts";
import {
  DEFAULT_DELIVERY_RULES,
  DELIVERY_SLOT_LABELS,
  type DeliveryRules,
  type DeliverySlotLabel,
} from "./delivery-slots.ts";

/** P-22's default: eight orders a slot. The server's default comes from DELIVERY_SLOT_CAPACITY. */
export const DEFAULT_SLOT_CAPACITY = 8;

export const WEEKDAY_NAMES = [
  "Sunday",
  "Monday",
  "Tuesday",
  "Wednesday",
  "Thursday",
  "Friday",
  "Saturday",
] as const;

export type DeliverySettings = DeliveryRules & {
  /** Orders a slot takes per date: `capacities[weekday][slot index]` (slot order of DELIVERY_SLOTS). */
  capacities: number[][];
};

export function defaultDeliverySettings(capacity: number = DEFAULT_SLOT_CAPACITY): DeliverySettings {
  return {
    ...DEFAULT_DELIVERY_RULES,
    cutoffMinutes: [...DEFAULT_DELIVERY_RULES.cutoffMinutes],
    capacities: WEEKDAY_NAMES.map(() => DELIVERY_SLOT_LABELS.map(() => capacity)),
  };
}

/** How many orders `slot` takes on `date` (a yyyy-MM-dd store date). */
export function slotCapacity(settings: DeliverySettings, date: string, slot: DeliverySlotLabel | string) {
  const index = (DELIVERY_SLOT_LABELS as string[]).indexOf(slot);
  return settings.capacities[weekday(date)]?.[index] ?? 0;
}

/** Every slot's capacity on `date`, by slot label (the today board's 'N / capacity'). */
export function slotCapacitiesOf(settings: DeliverySettings, date: string): ReadonlyMap<string, number> {
  return new Map(DELIVERY_SLOT_LABELS.map((slot) => [slot, slotCapacity(settings, date, slot)]));
}

/** "19:00" for 1140 minutes: the value of a time input. */
export function minutesToTime(minutes: number) {
  return `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
}

/** "7:00 PM" for 1140 minutes: how the cut-off reads to people. */
export function minutesToClock(minutes: number) {
  const hour = Math.floor(minutes / 60);
  const suffix = hour < 12 ? "AM" : "PM";
  return `${hour % 12 === 0 ? 12 : hour % 12}:${String(minutes % 60).padStart(2, "0")} ${suffix}`;
}
