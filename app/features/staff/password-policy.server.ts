/**
 * A staff member's new password (OWASP ASVS 2.1): at least 12 characters, at
 * most 128, and not one of the 10,000 most common passwords (password-list/common-passwords.txt, compared
 * lower-cased).
 */

import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "#app/utils/password-length.ts";
import { z } from "#app/utils/zod.ts";
import commonPasswordsText from "./password-list/common-passwords.txt?raw";

export { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH };

let common: Set<string> | undefined;

export function isCommonPassword(password: string) {
  common ??= new Set(commonPasswordsText.split("\n").filter(Boolean));
  return common.has(password.toLowerCase());
}

export const newPasswordSchema = z
  .string()
  .min(MIN_PASSWORD_LENGTH, `Use at least ${MIN_PASSWORD_LENGTH} characters`)
  .max(MAX_PASSWORD_LENGTH, `Use at most ${MAX_PASSWORD_LENGTH} characters`)
  .refine((password) => !isCommonPassword(password), {
    message: "This password is too common. Choose another one.",
  });

/** A new password typed twice. */
export const newPasswordFields = {
  password: newPasswordSchema,
  confirmPassword: z.string().max(MAX_PASSWORD_LENGTH),
};

export function passwordsMatch(value: { password: string; confirmPassword: string }) {
  return value.password === value.confirmPassword;
}
