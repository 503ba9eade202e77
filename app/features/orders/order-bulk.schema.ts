/**
 * Working on many orders at once from the incoming list: staff tick orders (one, a whole slot, every
 * order shown) and confirm, assign to a driver, print or cancel them together. The form's one
 * repeated field is `orderIds` (and `slots`, a whole slot ticked without JavaScript), allowed for
 * this route only (`multiValueFields` in features/staff/admin-routes.ts). Plain data: the browser
 * checks with it too.
 */
import { z } from "#app/utils/zod.ts";
import { CANCEL_OTHER_MAX, type OrderStatus, STAFF_CANCEL_REASONS } from "./order-status.ts";

/** Orders one bulk action takes at once (a page of the grouped list holds at most this many). */
export const MAX_BULK_ORDERS = 100;

export const BULK_ACTIONS = {
  "bulk-confirm": { label: "Confirm", verb: "confirmed", from: ["pending"] },
  "bulk-assign": { label: "Assign to driver", verb: "assigned", from: ["confirmed", "out_for_delivery"] },
  "bulk-print": { label: "Print slips", verb: "printed", from: ["pending", "confirmed", "out_for_delivery"] },
  "bulk-cancel": { label: "Cancel", verb: "cancelled", from: ["pending", "confirmed", "out_for_delivery"] },
} as const satisfies Record<string, { label: string; verb: string; from: readonly OrderStatus[] }>;

export type BulkAction = keyof typeof BULK_ACTIONS;
export const BULK_ACTION_NAMES = Object.keys(BULK_ACTIONS) as [BulkAction, ...BulkAction[]];

export function isBulkIntent(intent: unknown): intent is BulkAction {
  return typeof intent === "string" && (BULK_ACTION_NAMES as string[]).includes(intent);
}

/** Why an order in `status` is not part of `action` (null: it is), in words for the review. */
export function bulkSkipReason(action: BulkAction, status: OrderStatus): string | null {
  if ((BULK_ACTIONS[action].from as readonly OrderStatus[]).includes(status)) return null;
  if (action === "bulk-assign" && status === "pending") return "not confirmed yet (confirm it first)";
  if (action === "bulk-confirm") return "already confirmed";
  return "no longer open";
}

/** A whole slot ticked: `yyyy-MM-dd|<slot label>`. */
const slotKey = z
  .string()
  .max(60)
  .regex(/^\d{4}-\d{2}-\d{2}\|[^|]{1,40}$/);

export const bulkOrderSchema = z
  .object({
    intent: z.enum(BULK_ACTION_NAMES),
    orderIds: z.array(z.uuid()).max(MAX_BULK_ORDERS).default([]),
    slots: z.array(slotKey).max(20).default([]),
    /** The answer to the one confirmation: absent, the server answers with the review first. */
    confirmed: z.literal("yes").optional(),
    driverId: z.union([z.uuid(), z.literal("")]).optional(),
    reason: z.enum(STAFF_CANCEL_REASONS as [string, ...string[]]).optional(),
    reasonText: z.string().trim().max(CANCEL_OTHER_MAX).optional(),
  })
  .refine((value) => value.orderIds.length > 0 || value.slots.length > 0, {
    message: "Select at least one order",
    path: ["orderIds"],
  })
  .refine((value) => !value.confirmed || value.intent !== "bulk-cancel" || value.reason !== undefined, {
    message: "Choose why the orders are cancelled",
    path: ["reason"],
  })
  .refine((value) => value.reason !== "other" || (value.reasonText ?? "").length > 0, {
    message: "Say why the orders are cancelled",
    path: ["reasonText"],
  })
  .refine((value) => !value.confirmed || value.intent !== "bulk-assign" || value.driverId, {
    message: "Choose a driver",
    path: ["driverId"],
  });

export type BulkOrderInput = z.infer<typeof bulkOrderSchema>;

/** The posted form as the schema's input: the repeated fields as lists, every other field once. */
export function bulkFormValues(form: FormData) {
  const values: Record<string, unknown> = {};
  for (const [name, value] of form) if (typeof value === "string") values[name] = value;
  values.orderIds = form.getAll("orderIds").filter((value) => typeof value === "string");
  values.slots = form.getAll("slots").filter((value) => typeof value === "string");
  return values;
}
