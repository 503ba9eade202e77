/**
 * Delivery dates and two-hour slots (spec §5, decisions 4 and 13). Pure: "now" is passed in, and
 * every calendar question is answered in the store's time zone (utils/store-time.ts).
 */

import { nextDate, storeClock, weekday } from "#app/utils/store-time.ts";

export const DELIVERY_SLOTS = [
  { label: "10:00 AM-12:00 PM", startHour: 10, endHour: 12 },
  { label: "12:00 PM-2:00 PM", startHour: 12, endHour: 14 },
  { label: "2:00 PM-4:00 PM", startHour: 14, endHour: 16 },
  { label: "4:00 PM-6:00 PM", startHour: 16, endHour: 18 },
  { label: "6:00 PM-8:00 PM", startHour: 18, endHour: 20 },
] as const;

export type DeliverySlotLabel = (typeof DELIVERY_SLOTS)[number]["label"];
export const DELIVERY_SLOT_LABELS = DELIVERY_SLOTS.map((slot) => slot.label) as DeliverySlotLabel[];

/** Sundays open 11am–6pm: the first and the last slot are not offered (decision 13). */
const SUNDAY_EXCLUDED: readonly string[] = ["10:00 AM-12:00 PM", "6:00 PM-8:00 PM"];

export const DELIVERY_DATE_HINT = "You can schedule delivery for today or tomorrow only.";

/** Slots offered on `date` as seen at `now`: ended slots of today and the Sunday exceptions removed. */
export function availableSlots(date: string, now: Date): DeliverySlotLabel[] {
  const clock = storeClock(now);
  const sunday = weekday(date) === 0;
  return DELIVERY_SLOTS.filter((slot) => {
    if (sunday && SUNDAY_EXCLUDED.includes(slot.label)) return false;
    if (date === clock.date && clock.minutes >= slot.endHour * 60) return false;
    return true;
  }).map((slot) => slot.label);
}

/**
 * The slot labels of `date` that have ended at `now` (every slot of an earlier day): the orders
 * booked for them can no longer be delivered on time.
 */
export function endedSlots(date: string, now: Date): DeliverySlotLabel[] {
  const clock = storeClock(now);
  if (date < clock.date) return [...DELIVERY_SLOT_LABELS];
  if (date > clock.date) return [];
  return DELIVERY_SLOTS.filter((slot) => clock.minutes >= slot.endHour * 60).map((slot) => slot.label);
}

export type DeliveryDay = {
  date: string;
  /** "Today" or "Tomorrow". */
  relative: "Today" | "Tomorrow";
  /** e.g. "Sun, Nov 22". */
  label: string;
  slots: DeliverySlotLabel[];
};

const dayLabelFormatter = new Intl.DateTimeFormat("en-US", {
  timeZone: "UTC",
  weekday: "short",
  month: "short",
  day: "numeric",
});

export function formatDeliveryDate(date: string) {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  return dayLabelFormatter.format(new Date(Date.UTC(year, month - 1, day)));
}

/** Today and tomorrow (the only selectable dates) with their open slots, and the default date. */
export function deliveryOptions(now: Date): { days: DeliveryDay[]; defaultDate: string } {
  const today = storeClock(now).date;
  const tomorrow = nextDate(today);
  const days: DeliveryDay[] = [
    { date: today, relative: "Today", label: formatDeliveryDate(today), slots: availableSlots(today, now) },
    {
      date: tomorrow,
      relative: "Tomorrow",
      label: formatDeliveryDate(tomorrow),
      slots: availableSlots(tomorrow, now),
    },
  ];
  const defaultDate = (days[0] as DeliveryDay).slots.length > 0 ? today : tomorrow;
  return { days, defaultDate };
}

/** Why a (date, slot) pair cannot be booked at `now`, or null when it can. */
export function deliveryChoiceProblem(
  date: string,
  slot: string,
  now: Date,
): { field: "deliveryDate" | "timeSlot"; message: string } | null {
  const today = storeClock(now).date;
  if (date !== today && date !== nextDate(today)) {
    return { field: "deliveryDate", message: DELIVERY_DATE_HINT };
  }
  if (!(availableSlots(date, now) as string[]).includes(slot)) {
    return {
      field: "timeSlot",
      message: "This delivery time is no longer available. Please choose another time slot.",
    };
  }
  return null;
}
