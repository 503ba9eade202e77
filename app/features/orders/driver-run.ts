/**
 * Pure rules of a driver's run on the phone (`/driver`), shared by the server and the page: the
 * order of the stops, the cash collected so far, and the multi-stop directions link.
 */

import { slotOrder } from "./day-order.ts";
import type { OrderStatus } from "./order-status.ts";

export type StopOrderFields = {
  id: string;
  deliveryTime: string;
  /** The driver's chosen position within the slot, or null: the slot's own order. */
  position: number | null;
  createdAt: string;
};

/** Delivery order: slot first, then the driver's order, then first placed first. */
export function compareStops(a: StopOrderFields, b: StopOrderFields) {
  const bySlot = slotOrder(a.deliveryTime) - slotOrder(b.deliveryTime);
  if (bySlot !== 0) return bySlot;
  if (a.position !== b.position) {
    if (a.position === null) return 1;
    if (b.position === null) return -1;
    return a.position - b.position;
  }
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export type MoveDirection = "up" | "down";

/**
 * The stops in their new order after moving `orderId` one place up or down within its slot, or
 * null when it cannot move that way (first or last of its slot, or not an open stop).
 */
export function movedStops<Stop extends StopOrderFields>(
  stops: readonly Stop[],
  orderId: string,
  direction: MoveDirection,
): Stop[] | null {
  const ordered = [...stops].sort(compareStops);
  const index = ordered.findIndex((stop) => stop.id === orderId);
  if (index === -1) return null;
  const other = direction === "up" ? index - 1 : index + 1;
  const stop = ordered[index] as Stop;
  const neighbour = ordered[other];
  if (!neighbour || neighbour.deliveryTime !== stop.deliveryTime) return null;
  ordered[index] = neighbour;
  ordered[other] = stop;
  return ordered;
}

/** Cash collected so far: the totals of the run's delivered orders. */
export function collectedCents(stops: readonly { status: OrderStatus; totalAmountCents: number }[]) {
  return stops.reduce((sum, stop) => (stop.status === "delivered" ? sum + stop.totalAmountCents : sum), 0);
}

/**
 * Directions through the remaining stops in order: the phone opens its maps app on it. The last
 * stop is the destination, the others waypoints (Google Maps takes up to nine of them; the stops
 * beyond are left for the next link once some are done).
 */
export const MAX_WAYPOINTS = 9;

export function directionsUrl(addresses: readonly string[]): string | null {
  const stops = addresses.slice(0, MAX_WAYPOINTS + 1);
  const destination = stops[stops.length - 1];
  if (destination === undefined) return null;
  const params = new URLSearchParams({ api: "1", destination, travelmode: "driving" });
  const waypoints = stops.slice(0, -1);
  if (waypoints.length > 0) params.set("waypoints", waypoints.join("|"));
  return `https://www.google.com/maps/dir/?${params.toString()}`;
}

/** A phone number as `tel:`/`sms:` links want it: digits and a leading +. */
export function dialable(phone: string) {
  const digits = phone.replace(/[^\d+]/g, "");
  return digits.startsWith("+") ? digits : digits.length === 10 ? `+1${digits}` : digits;
}
