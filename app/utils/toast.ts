import { z } from "#app/utils/zod.ts";

/** A notification shown once after a redirect (K-8 toasts), carried in a short-lived cookie. */
export const toastSchema = z.object({
  id: z.string().default(() => Math.random().toString(36).slice(2)),
  type: z.enum(["success", "error", "info"]).default("success"),
  title: z.string(),
  description: z.string().optional(),
  /** The page (path) the toast is for: shown only there, so a redirect elsewhere drops it. */
  path: z.string().optional(),
});

export type Toast = z.infer<typeof toastSchema>;
export type ToastInput = z.input<typeof toastSchema>;
