import { z } from "#app/utils/zod.ts";
import { CANCEL_OTHER_MAX, ORDER_ACTION_NAMES, STAFF_CANCEL_REASONS } from "./order-status.ts";

/**
 * The admin's order buttons: one action with named intents, the intents being the
 * actions of the status flow (`order-status.ts`). Cancel carries its reason; 'other' needs a text.
 */
export const orderStatusSchema = z
  .object({
    intent: z.enum(ORDER_ACTION_NAMES),
    orderId: z.uuid(),
    reason: z.enum(STAFF_CANCEL_REASONS as [string, ...string[]]).optional(),
    reasonText: z.string().trim().max(CANCEL_OTHER_MAX).optional(),
  })
  .refine((value) => value.intent !== "cancel" || value.reason !== undefined, {
    message: "Choose why the order is cancelled",
    path: ["reason"],
  })
  .refine((value) => value.reason !== "other" || (value.reasonText ?? "").length > 0, {
    message: "Say why the order is cancelled",
    path: ["reasonText"],
  });

export type OrderStatusInput = z.infer<typeof orderStatusSchema>;

/** The customer's own 'Cancel order' on their order page (two steps: ask, then confirm). */
export const customerCancelSchema = z.object({
  intent: z.enum(["cancel-order"]),
  confirm: z.enum(["yes"]),
});
