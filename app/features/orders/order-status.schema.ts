import { z } from "#app/utils/zod.ts";

/** The admin's order buttons: one action with named intents (conventions §7). */
export const ORDER_INTENTS = { confirm: "confirmed", deliver: "delivered", cancel: "cancelled" } as const;

export const orderStatusSchema = z.object({
  intent: z.enum(["confirm", "deliver", "cancel"]),
  orderId: z.uuid(),
});
