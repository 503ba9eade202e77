/**
 * The warning on a pending order whose delivery time is about to end: the shop cancels such an order
 * by itself once its slot has ended (`auto-cancel.server.ts`), so the board and the incoming list
 * say so from `AUTO_CANCEL_WARNING_MINUTES` before. Pure, shared by the loaders and the browser.
 */
import { DELIVERY_SLOTS } from "#app/features/delivery/delivery-slots.ts";
import type { OrderStatus } from "#app/features/orders/order-status.ts";
import { storeClock } from "#app/utils/store-time.ts";

export const AUTO_CANCEL_WARNING_MINUTES = 30;

function hourText(hour: number) {
  const twelve = hour % 12 === 0 ? 12 : hour % 12;
  return `${twelve}:00 ${hour < 12 ? "AM" : "PM"}`;
}

/** 'Auto-cancels at 2:00 PM if not confirmed', or null when the order is not about to be cancelled. */
export function autoCancelNotice(
  order: { status: OrderStatus; deliveryDate: string; deliveryTime: string },
  now: Date,
): string | null {
  if (order.status !== "pending") return null;
  const clock = storeClock(now);
  if (order.deliveryDate > clock.date) return null;
  const slot = DELIVERY_SLOTS.find((candidate) => candidate.label === order.deliveryTime);
  if (!slot) return null;
  const due =
    order.deliveryDate < clock.date || clock.minutes >= slot.endHour * 60 - AUTO_CANCEL_WARNING_MINUTES;
  return due ? `Auto-cancels at ${hourText(slot.endHour)} if not confirmed` : null;
}
