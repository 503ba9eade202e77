/** Customer sign-in and account forms (record 053), shared by the browser and the server. */
import { z } from "zod";

export const SIGN_IN_CODE_LENGTH = 6;
/** How long a sign-in code works (record 053). */
export const CODE_VALID_MINUTES = 10;

export const emailField = z
  .string()
  .trim()
  .max(320, "Enter a valid e-mail address")
  .pipe(z.email("Enter a valid e-mail address"))
  .transform((value) => value.toLowerCase());

export const signInEmailSchema = z.object({ email: emailField });

export const signInCodeSchema = z.object({
  email: emailField,
  code: z
    .string()
    .trim()
    .transform((value) => value.replace(/\s+/g, ""))
    .pipe(z.string().regex(/^\d{6}$/, "Enter the 6-digit code from the e-mail")),
});

export const contactSchema = z.object({
  name: z.string().trim().max(100, "Keep the name under 100 characters"),
  phone: z.string().trim().max(40, "Enter a valid phone number"),
});

export const addressSchema = z.object({
  street: z
    .string()
    .trim()
    .min(3, "Enter the street address")
    .max(200, "Keep the street under 200 characters"),
  city: z.string().trim().min(2, "Enter the city").max(100, "Keep the city under 100 characters"),
  state: z.enum(["DC", "VA"], { error: "Choose DC or VA" }),
  zipCode: z.string().trim().max(10, "Enter a 5-digit ZIP code"),
  isDefault: z.boolean(),
});
export type AddressInput = z.infer<typeof addressSchema>;

/** How long staff's note on a customer may be (record 057). */
export const STAFF_NOTE_MAX = 2000;
