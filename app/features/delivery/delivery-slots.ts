/**
 * Delivery dates and two-hour slots (K-5, P-4, P-13 and P-22). Pure: "now" and the shop's
 * delivery rules are passed in, and every calendar question is answered in the store's time zone
 * (utils/store-time.ts).
 */

import { formatStoreDate, nextDate, storeClock, weekday } from "#app/utils/store-time.ts";

export const DELIVERY_SLOTS = [
  { label: "10:00 AM-12:00 PM", startHour: 10, endHour: 12 },
  { label: "12:00 PM-2:00 PM", startHour: 12, endHour: 14 },
  { label: "2:00 PM-4:00 PM", startHour: 14, endHour: 16 },
  { label: "4:00 PM-6:00 PM", startHour: 16, endHour: 18 },
  { label: "6:00 PM-8:00 PM", startHour: 18, endHour: 20 },
] as const;

export type DeliverySlotLabel = (typeof DELIVERY_SLOTS)[number]["label"];
export const DELIVERY_SLOT_LABELS = DELIVERY_SLOTS.map((slot) => slot.label) as DeliverySlotLabel[];

/** Sundays open 11am–6pm: the first and the last slot are not offered (P-13). */
const SUNDAY_EXCLUDED: readonly string[] = ["10:00 AM-12:00 PM", "6:00 PM-8:00 PM"];

export const DELIVERY_DATE_HINT = "You can schedule delivery for today or tomorrow only.";

/** The server's refusal of a slot of today past its lead time or the cut-off (P-13). */
export const SLOT_GONE_TODAY_MESSAGE = "That delivery time is no longer available today.";
/** The server's refusal of a slot that filled up while the shopper was checking out (P-22). */
export const SLOT_FULL_MESSAGE = "This delivery time just filled up. Please choose another.";

/** The refusal of a closed date or slot, with the reason staff gave (P-22). */
export function slotClosedMessage(reason: string) {
  return `We're not delivering at this time: ${reason}. Please choose another.`;
}

/**
 * Same-day ordering (P-13, amended): after the cut-off of a weekday no slot of that day is
 * offered, and before it a slot of today is offered until `leadMinutes` before it ends. Set by
 * staff at /admin/settings/delivery.
 */
export type DeliveryRules = {
  /** Minutes after midnight, by weekday (0 = Sunday … 6 = Saturday). */
  cutoffMinutes: readonly number[];
  leadMinutes: number;
};

/** The copy's promise (P-16): order by 7 PM Mon–Sat and 4 PM Sun; 60 minutes' lead. */
export const DEFAULT_DELIVERY_RULES: DeliveryRules = {
  cutoffMinutes: [16 * 60, 19 * 60, 19 * 60, 19 * 60, 19 * 60, 19 * 60, 19 * 60],
  leadMinutes: 60,
};

/** The slot labels a weekday (0 = Sunday) has at all: five, or three on Sundays (P-13). */
export function slotsOfWeekday(day: number): DeliverySlotLabel[] {
  return DELIVERY_SLOT_LABELS.filter((label) => !(day === 0 && SUNDAY_EXCLUDED.includes(label)));
}

/** The slot labels a date has at all. */
export function slotsOfDate(date: string): DeliverySlotLabel[] {
  return slotsOfWeekday(weekday(date));
}

/** True when `now` is at or past the cut-off of its own store day: today takes no more orders. */
export function pastCutoff(now: Date, rules: DeliveryRules = DEFAULT_DELIVERY_RULES) {
  const clock = storeClock(now);
  return clock.minutes >= (rules.cutoffMinutes[weekday(clock.date)] ?? 0);
}

/**
 * Slots offered on `date` as seen at `now`: the Sunday exceptions removed and, for today, nothing
 * past the cut-off and no slot closer than the lead time to its end.
 */
export function availableSlots(
  date: string,
  now: Date,
  rules: DeliveryRules = DEFAULT_DELIVERY_RULES,
): DeliverySlotLabel[] {
  const clock = storeClock(now);
  if (date === clock.date && pastCutoff(now, rules)) return [];
  const ends = new Map<string, number>(DELIVERY_SLOTS.map((slot) => [slot.label, slot.endHour * 60]));
  return slotsOfDate(date).filter(
    (label) => date !== clock.date || clock.minutes < (ends.get(label) ?? 0) - rules.leadMinutes,
  );
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
  /** Today after its cut-off: shown as 'Closed for today' (P-13). */
  closedForToday: boolean;
};

/** Today and tomorrow (the only selectable dates) with their open slots, and the default date. */
export function deliveryOptions(
  now: Date,
  rules: DeliveryRules = DEFAULT_DELIVERY_RULES,
): { days: DeliveryDay[]; defaultDate: string } {
  const today = storeClock(now).date;
  const tomorrow = nextDate(today);
  const days: DeliveryDay[] = [
    {
      date: today,
      relative: "Today",
      label: formatStoreDate(today),
      slots: availableSlots(today, now, rules),
      closedForToday: pastCutoff(now, rules),
    },
    {
      date: tomorrow,
      relative: "Tomorrow",
      label: formatStoreDate(tomorrow),
      slots: availableSlots(tomorrow, now, rules),
      closedForToday: false,
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
  rules: DeliveryRules = DEFAULT_DELIVERY_RULES,
): { field: "deliveryDate" | "timeSlot"; message: string } | null {
  const today = storeClock(now).date;
  if (date !== today && date !== nextDate(today)) {
    return { field: "deliveryDate", message: DELIVERY_DATE_HINT };
  }
  if ((availableSlots(date, now, rules) as string[]).includes(slot)) return null;
  // A real slot of today that the cut-off or its lead time took away.
  if (date === today && (slotsOfDate(date) as string[]).includes(slot)) {
    return { field: "timeSlot", message: SLOT_GONE_TODAY_MESSAGE };
  }
  return {
    field: "timeSlot",
    message: "This delivery time is no longer available. Please choose another time slot.",
  };
}

/** How a slot of a date shows at checkout (P-22). */
export type SlotAvailability = {
  label: DeliverySlotLabel;
  status: "open" | "few" | "full" | "closed";
  /** Places left (0 when full or closed). */
  left: number;
  /** The closure's reason, when closed. */
  reason: string | null;
};

/** 'Only N left' from this many places down (P-22). */
export const FEW_LEFT = 3;

/**
 * Each offered slot with its state: closed (a closure of the date or of the slot), full (no place
 * left), few (N ≤ 3 left) or open.
 */
export function slotAvailability(
  slots: readonly DeliverySlotLabel[],
  place: {
    capacity: (slot: DeliverySlotLabel) => number;
    booked: (slot: DeliverySlotLabel) => number;
    closure: (slot: DeliverySlotLabel) => string | null;
  },
): SlotAvailability[] {
  return slots.map((label) => {
    const reason = place.closure(label);
    if (reason !== null) return { label, status: "closed", left: 0, reason };
    const left = Math.max(0, place.capacity(label) - place.booked(label));
    const status = left === 0 ? "full" : left <= FEW_LEFT ? "few" : "open";
    return { label, status, left, reason: null };
  });
}

/** The words under a slot at checkout. */
export function slotStatusText(slot: SlotAvailability) {
  if (slot.status === "closed") return `Closed: ${slot.reason}`;
  if (slot.status === "full") return "Full";
  if (slot.status === "few") return `Only ${slot.left} left`;
  return "In-person delivery";
}
