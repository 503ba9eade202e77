import { z } from "#app/utils/zod.ts";

/**
 * Any name@host: the account made at first start is admin@localhost, which zod's stricter e-mail
 * check (it wants a dot in the domain) would lock out. Browsers' type="email" accepts it too.
 * No control characters: PostgreSQL refuses a NUL in text, and no address has one.
 */
const LOGIN_EMAIL = /^[^\s@\p{Cc}]+@[^\s@\p{Cc}]+$/u;

/** K-5: admin login requires e-mail and password. */
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

/**
 * Only a path inside the back office; anything else goes to `home`: the signed-in role's own
 * (`homeOf`: the dashboard, or a driver's run, where the dashboard would be a 403).
 */
export function safeAdminRedirect(value: string | null | undefined, home = "/admin/dashboard") {
  if (value === "/driver") return value;
  if (!value?.startsWith("/admin/") || value.includes("\\")) return home;
  if (value.startsWith("/admin/login") || value.startsWith("/admin/logout")) return home;
  return value;
}

/** Why the sign-in page is shown again (`?notice=`): the second step's outcomes and the invitation's. */
const SIGN_IN_NOTICES = {
  locked: "Too many wrong codes. Sign in again.",
  expired: "Your sign-in took too long. Sign in again.",
  "password-set": "Your password is set. Sign in with it.",
} as const;

export type SignInNotice = keyof typeof SIGN_IN_NOTICES;

export function signInNotice(value: string | null): string | null {
  return value && Object.hasOwn(SIGN_IN_NOTICES, value) ? SIGN_IN_NOTICES[value as SignInNotice] : null;
}

export function signInNoticeUrl(notice: SignInNotice) {
  return `/admin/login?notice=${notice}`;
}

/** The second step: a 6-digit code from the app, or a recovery code (xxxxx-xxxxx). */
export const codeSchema = z.object({
  code: z
    .string()
    .trim()
    .min(1, "Enter the code")
    .max(20, "Enter the 6-digit code or a recovery code")
    .regex(/^(\d{3}\s?\d{3}|[A-Za-z0-9]{5}-?[A-Za-z0-9]{5})$/, "Enter the 6-digit code or a recovery code"),
});
