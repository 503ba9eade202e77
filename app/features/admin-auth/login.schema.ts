import { z } from "#app/utils/zod.ts";

/**
 * Any name@host: the account made at first start is admin@localhost, which zod's stricter e-mail
 * check (it wants a dot in the domain) would lock out. Browsers' type="email" accepts it too.
 * No control characters: PostgreSQL refuses a NUL in text, and no address has one.
 */
const LOGIN_EMAIL = /^[^\s@\p{Cc}]+@[^\s@\p{Cc}]+$/u;

/** Spec §5: admin login requires e-mail and password. */
export const loginSchema = z.object({
  email: z
    .string()
    .trim()
    .min(1, "Email is required")
    .max(320)
    .regex(LOGIN_EMAIL, "Please enter a valid email address"),
  password: z.string().min(1, "Password is required").max(1024),
  redirectTo: z.string().optional(),
});

/** Only a path inside the back office; anything else goes to the dashboard. */
export function safeAdminRedirect(value: string | null | undefined) {
  if (!value?.startsWith("/admin/") || value.includes("\\")) {
    return "/admin/dashboard";
  }
  if (value.startsWith("/admin/login") || value.startsWith("/admin/logout")) return "/admin/dashboard";
  return value;
}
