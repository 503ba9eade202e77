import { z } from "#app/utils/zod.ts";

/** The admin product list's buttons: one action with named intents, as the orders route. */
export const productListIntentSchema = z.object({
  intent: z.enum(["delete", "fix-case"]),
  id: z.string().min(1).max(100),
});
