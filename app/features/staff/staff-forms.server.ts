/** The forms of staff management, the invitation, one's account and the enrolment (zod, P-6). */
import { STAFF_ROLES } from "#app/db/schema.ts";
import { z } from "#app/utils/zod.ts";
import { MAX_PASSWORD_LENGTH, newPasswordFields, passwordsMatch } from "./password-policy.server.ts";

const role = z.enum(STAFF_ROLES, "Choose a role");
const userId = z.uuid("Unknown staff member");

export const inviteSchema = z.object({
  intent: z.literal("invite"),
  email: z.email("Please enter a valid email address").trim().max(320),
  firstName: z.string().trim().min(1, "First name is required").max(60),
  role,
});

export const staffActionSchema = z.discriminatedUnion("intent", [
  inviteSchema,
  z.object({ intent: z.literal("resend"), invitationId: z.uuid("Unknown invitation") }),
  z.object({ intent: z.literal("revoke"), invitationId: z.uuid("Unknown invitation") }),
  z.object({ intent: z.literal("change-role"), userId, role }),
  z.object({ intent: z.literal("deactivate"), userId }),
  z.object({ intent: z.literal("reset-two-factor"), userId }),
  z.object({
    intent: z.literal("drivers-two-factor"),
    required: z.enum(["on", "off"]).transform((value) => value === "on"),
  }),
]);

export const enrolmentSchema = z.object({
  pending: z.string().min(1).max(400),
  code: z
    .string()
    .transform((value) => value.replace(/\s/g, ""))
    .pipe(z.string().regex(/^\d{6}$/, "Enter the 6-digit code from the app")),
});

const confirmed = { message: "The two passwords are not the same", path: ["confirmPassword"] };

export const acceptInvitationSchema = z.object(newPasswordFields).refine(passwordsMatch, confirmed);

/** The re-check before a sensitive change (record 037): the password, and a code when set up. */
export const confirmAccessSchema = z.object({
  intent: z.literal("confirm-access"),
  password: z.string().min(1, "Enter your password").max(MAX_PASSWORD_LENGTH),
  code: z.string().trim().max(20, "Enter the 6-digit code or a recovery code").default(""),
});

export const accountActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("sign-out-others") }),
  z.object({
    intent: z.literal("end-session"),
    session: z.string().regex(/^[0-9a-f]{16}$/, "Unknown session"),
  }),
  confirmAccessSchema,
  z.object({ intent: z.literal("recovery-codes") }),
  z.object({ intent: z.literal("turn-off-two-factor") }),
  z
    .object({
      intent: z.literal("change-password"),
      currentPassword: z.string().min(1, "Enter your current password").max(MAX_PASSWORD_LENGTH),
      ...newPasswordFields,
    })
    .refine(passwordsMatch, confirmed),
]);

/** The first message per field, for the form. */
export function fieldErrors(error: z.ZodError) {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) errors[String(issue.path[0] ?? "form")] ??= issue.message;
  return errors;
}
