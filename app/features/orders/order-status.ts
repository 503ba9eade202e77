/**
 * The order status flow (P-23): which action staff may take from which status, its button
 * label and the status it leads to. The one table every screen renders its buttons from (incoming
 * and completed lists, the today board) and the server checks a change against (`onlyFrom` of
 * `change_order_status`), so a button never offers what the server would refuse. Plain data, no
 * React, no database: safe in the browser.
 *
 *   pending ─Confirm→ confirmed ─Out for Delivery→ out_for_delivery ─Mark Delivered→ delivered
 *   pending, confirmed, out_for_delivery ─Cancel (reason)→ cancelled
 *   confirmed ─Mark Delivered→ delivered (the first shop's shortcut stays)
 *   delivered, cancelled ─Reopen→ confirmed (stock taken again)
 *   confirmed, out_for_delivery ─Could not deliver (the driver, with a reason)→ returning (P-32)
 *   returning ─Check back in→ cancelled (stock back, 'return') · returning ─Send out again→ confirmed
 */
import type { OrderStatus } from "#app/db/schema.ts";

export type { OrderStatus };

export const ORDER_ACTIONS = {
  confirm: { label: "Confirm", to: "confirmed", from: ["pending"], confirm: false },
  "out-for-delivery": {
    label: "Out for Delivery",
    to: "out_for_delivery",
    from: ["confirmed"],
    confirm: false,
  },
  deliver: {
    label: "Mark Delivered",
    to: "delivered",
    from: ["confirmed", "out_for_delivery"],
    confirm: true,
  },
  cancel: {
    label: "Cancel",
    to: "cancelled",
    from: ["pending", "confirmed", "out_for_delivery"],
    confirm: true,
  },
  reopen: { label: "Reopen", to: "confirmed", from: ["delivered", "cancelled"], confirm: true },
  "check-in": { label: "Check back in", to: "cancelled", from: ["returning"], confirm: true },
  "send-out-again": { label: "Send out again", to: "confirmed", from: ["returning"], confirm: true },
} as const satisfies Record<
  string,
  { label: string; to: OrderStatus; from: readonly OrderStatus[]; confirm: boolean }
>;

export type OrderAction = keyof typeof ORDER_ACTIONS;
export const ORDER_ACTION_NAMES = Object.keys(ORDER_ACTIONS) as [OrderAction, ...OrderAction[]];

/** The actions offered for an order in `status`, in the table's order (the next step first). */
export function actionsFor(status: OrderStatus): OrderAction[] {
  return ORDER_ACTION_NAMES.filter((name) =>
    (ORDER_ACTIONS[name].from as readonly OrderStatus[]).includes(status),
  );
}

export function canTake(action: OrderAction, status: OrderStatus) {
  return (ORDER_ACTIONS[action].from as readonly OrderStatus[]).includes(status);
}

/** How a status reads to people (badges, the customer's timeline). */
export const STATUS_LABELS: Record<OrderStatus, string> = {
  pending: "Pending",
  confirmed: "Confirmed",
  out_for_delivery: "Out for delivery",
  delivered: "Delivered",
  cancelled: "Cancelled",
  returning: "Returning",
};

/**
 * Still to be delivered: in the incoming list. The open-orders limit (P-29) counts the first three
 * (in `place_order`); a returning order waits for staff.
 */
export const OPEN_STATUSES = [
  "pending",
  "confirmed",
  "out_for_delivery",
  "returning",
] as const satisfies readonly OrderStatus[];
export const CLOSED_STATUSES = ["delivered", "cancelled"] as const satisfies readonly OrderStatus[];
/**
 * Every status, for browser code (filters): the schema's ORDER_STATUSES would bring the Drizzle
 * schema into the admin bundle. The check below fails to compile when a status is missing.
 */
export const ALL_STATUSES = [...OPEN_STATUSES, ...CLOSED_STATUSES] as const;
type MissingStatus = Exclude<OrderStatus, (typeof ALL_STATUSES)[number]>;
export const ALL_STATUSES_LISTED: [MissingStatus] extends [never] ? true : never = true;

/** The reasons staff choose from when cancelling (P-23); the value is stored on the order. */
export const CANCEL_REASONS = {
  "customer-request": { label: "Customer request", customerText: "you asked us to cancel it" },
  "no-valid-id": {
    label: "No valid ID",
    customerText: "we could not check a valid ID showing you are 21 or older",
  },
  "address-not-reachable": {
    label: "Address not reachable",
    customerText: "we could not reach your delivery address",
  },
  "out-of-stock": { label: "Out of stock", customerText: "an item in it is out of stock" },
  "not-confirmed-in-time": {
    label: "Not confirmed in time",
    customerText: "we could not confirm it before its delivery time",
  },
  other: { label: "Other", customerText: "" },
} as const;

export type CancelReasonCode = keyof typeof CANCEL_REASONS;
export const CANCEL_REASON_CODES = Object.keys(CANCEL_REASONS) as [CancelReasonCode, ...CancelReasonCode[]];
/** Staff pick from these (the auto-cancel job's own reason is not theirs to choose). */
export const STAFF_CANCEL_REASONS = CANCEL_REASON_CODES.filter((code) => code !== "not-confirmed-in-time");
export const CANCEL_OTHER_MAX = 200;

/**
 * The stored reason of a cancellation: the label of a chosen reason, or 'Other: <text>'. Older
 * orders hold free text ('not confirmed in time' from the auto-cancel job); it reads as it is.
 */
export function cancelReasonText(code: CancelReasonCode, otherText?: string | null) {
  if (code === "other") {
    const text = (otherText ?? "").trim();
    return text ? `Other: ${text}` : "Other";
  }
  return CANCEL_REASONS[code].label;
}

/** The cancel reason of a returning order checked back in at the store (P-32). */
export const RETURNED_CANCEL_REASON = "Could not deliver";

/** The stored reason in the customer's words: 'because …'. */
export function cancelReasonForCustomer(stored: string | null): string {
  if (!stored) return "";
  if (stored === RETURNED_CANCEL_REASON) return "we could not deliver it";
  const lower = stored.toLowerCase();
  for (const reason of Object.values(CANCEL_REASONS)) {
    if (reason.label.toLowerCase() === lower && reason.customerText) return reason.customerText;
  }
  if (lower.startsWith("other: ")) return stored.slice("Other: ".length);
  // A delivery time staff closed ('Closed: Staff training'): its reason, in a sentence.
  if (lower.startsWith("closed: "))
    return `we are not delivering at that time: ${stored.slice("Closed: ".length)}`;
  return lower === "other" ? "" : stored;
}
