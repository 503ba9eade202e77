/**
 * The texts a customer who ticked 'Text me updates' gets (P-37, record 054): short, one message
 * each (under 160 characters with the usual store name), no links, STOP named in the first.
 */
import { cancelReasonForCustomer, type OrderStatus } from "./order-status.ts";

export type OrderTextData = {
  id: string;
  deliveryDate: string;
  deliveryTime: string;
  cancelReason?: string | null;
};

/** '2:00 PM-4:00 PM' → '2–4 PM'; '10:00 AM-12:00 PM' → '10 AM–12 PM'. Any other label as it is. */
export function shortSlot(label: string) {
  const match = /^(\d{1,2}):00 (AM|PM)-(\d{1,2}):00 (AM|PM)$/.exec(label.trim());
  if (!match) return label;
  const [, from, fromHalf, to, toHalf] = match;
  return fromHalf === toHalf ? `${from}–${to} ${toHalf}` : `${from} ${fromHalf}–${to} ${toHalf}`;
}

function shortId(id: string) {
  return id.slice(0, 8).toUpperCase();
}

/** 'Fri, Nov 27' for the store date 2026-11-27. */
function shortDate(day: string) {
  const date = new Date(`${day}T12:00:00Z`);
  return date.toLocaleDateString("en-US", {
    weekday: "short",
    month: "short",
    day: "numeric",
    timeZone: "UTC",
  });
}

export function orderReceivedText(store: string, order: OrderTextData) {
  return `${store}: we got order ${shortId(order.id)} for ${shortDate(order.deliveryDate)}, ${shortSlot(order.deliveryTime)}. We'll text you when it's on the way. Reply STOP to end texts.`;
}

/** The text for a status a customer hears about by text, or null (confirmed goes by e-mail only). */
export function statusText(store: string, status: OrderStatus, order: OrderTextData): string | null {
  switch (status) {
    case "out_for_delivery":
      return `${store}: Your driver is on the way — arriving ${shortSlot(order.deliveryTime)}.`;
    case "delivered":
      return `${store}: order ${shortId(order.id)} was delivered. Thank you!`;
    case "cancelled": {
      const reason = cancelReasonForCustomer(order.cancelReason ?? null);
      return `${store}: order ${shortId(order.id)} was cancelled${reason ? `: ${reason}` : ""}. Questions? Reply HELP.`;
    }
    default:
      return null;
  }
}

export function verificationCodeText(store: string, code: string) {
  return `${store}: your code is ${code}. It works for 10 minutes. If you did not order, ignore this text.`;
}
