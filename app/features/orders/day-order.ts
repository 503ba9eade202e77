/**
 * The order of a day's slots and the map search of an address: shared by the day's board and the
 * driver's run on the phone (which loads no zod, so these are apart from `day-board.ts`).
 */
import { DELIVERY_SLOT_LABELS } from "#app/features/delivery/delivery-slots.ts";

/** Position of a slot label in the day (the five slots first, any other label after them). */
export function slotOrder(label: string) {
  const index = (DELIVERY_SLOT_LABELS as string[]).indexOf(label);
  return index === -1 ? DELIVERY_SLOT_LABELS.length : index;
}

/** A map search for a delivery address: opens the phone's map app or the map site. */
export function mapSearchUrl(address: string) {
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(address)}`;
}
