import { z } from "#app/utils/zod.ts";

/** The admin product list's buttons: one action with named intents (conventions K-7), as the orders route. */
export const productListIntentSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.enum(["delete", "fix-case", "archive", "restore"]),
    id: z.string().min(1).max(100),
  }),
  z
    .object({
      intent: z.literal("stock"),
      sizeId: z.string().min(1).max(100),
      /** 'Received +N' or 'Correction ±N' (record 026): stock moves, it is never written over. */
      reason: z.enum(["received", "correction"]),
      delta: z.preprocess(
        (value) => (typeof value === "string" && value.trim() !== "" ? Number(value.trim()) : value),
        z
          .number({ error: "Enter a whole number of units" })
          .int("Enter a whole number of units")
          .min(-1_000_000, "That change is too large")
          .max(1_000_000, "That change is too large")
          .refine((value) => value !== 0, "Enter how many units change"),
      ),
      note: z
        .string()
        .trim()
        .min(1, "A note is required for every stock change")
        .max(200, "Note must be 200 characters or fewer"),
    })
    .refine((move) => move.reason !== "received" || move.delta > 0, {
      path: ["delta"],
      message: "Received must be 1 or more",
    }),
]);

export type StockChangeInput = Extract<z.output<typeof productListIntentSchema>, { intent: "stock" }>;
