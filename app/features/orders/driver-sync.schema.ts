/**
 * A batch of queued actions as `/driver/sync` reads it (record 050): the actions in the order the
 * driver took them, and how many the phone still holds after them. Apart from the phone's own
 * rules (`driver-sync.ts`) so the run page does not load zod.
 */
import { z } from "#app/utils/zod.ts";
import { queuedDriverActionSchema } from "./driver-actions.schema.ts";

export const syncRequestSchema = z.object({
  actions: z.array(queuedDriverActionSchema).max(50),
  waiting: z.number().int().min(0).max(1000).optional(),
});
export type SyncRequest = z.infer<typeof syncRequestSchema>;
