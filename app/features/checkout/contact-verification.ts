/**
 * A verified phone before an order holds anything (P-36, record 054): the setting's values and the
 * words of the code step, shared by the checkout page, the Limits screen and the server.
 */
import { z } from "#app/utils/zod.ts";

export const VERIFICATION_MODES = ["off", "new-customers", "every-order"] as const;
export type VerificationMode = (typeof VERIFICATION_MODES)[number];

export const VERIFICATION_MODE_LABELS: Record<VerificationMode, { label: string; hint: string }> = {
  off: { label: "Off", hint: "Orders are placed as soon as the form is sent (the default)." },
  "new-customers": {
    label: "New customers",
    hint: "A phone with no delivered order gets a code before its order is placed.",
  },
  "every-order": {
    label: "Every order",
    hint: "Every order needs a code, unless its phone was verified on that device in the last 30 days.",
  },
};

export const verificationModeSchema = z.object({ mode: z.enum(VERIFICATION_MODES) });

/** The checkout form's field for the code, and the button that asks for a new one. */
export const CODE_FIELD = "verificationCode";
export const RESEND_FIELD = "resendCode";
/** Sent by the code step's form: an empty code there is a mistake, not a request for a code. */
export const CODE_STEP_FIELD = "codeStep";

export const CODE_LENGTH = 6;
export const CODE_TRIES = 5;
export const CODE_MINUTES = 10;
/** How long a verified phone (or e-mail) stays verified on the device that entered its code. */
export const VERIFIED_DAYS = 30;

export const CODE_MESSAGES = {
  wrong: (left: number) => `That code is not right. ${left} ${left === 1 ? "try" : "tries"} left.`,
  used: "That code was tried too many times. Ask for a new one.",
  expired: "That code has expired. Ask for a new one.",
  format: `Enter the ${CODE_LENGTH}-digit code.`,
} as const;

/** What the code step says: where the code went. */
export function codeSentText(channel: "sms" | "email", to: string) {
  return channel === "sms"
    ? `We texted a ${CODE_LENGTH}-digit code to ${to}. Enter it to place your order.`
    : `We emailed a ${CODE_LENGTH}-digit code to ${to}. Enter it to place your order.`;
}
