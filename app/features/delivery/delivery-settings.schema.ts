/**
 * The delivery settings screen's forms (/admin/settings/delivery) and the stored settings value:
 * one schema each for the browser's messages and the server's check (P-13, P-21, P-22).
 */
import { MIN_ORDER_TEXT } from "#app/features/cart/cart.ts";
import { US_STATES } from "#app/features/purchase-limits/purchase-limits.ts";
import { dollarsToCents } from "#app/utils/money.ts";
import { z } from "#app/utils/zod.ts";
import { parseZipList } from "./delivery-area.ts";
import {
  type DeliverySettings,
  defaultDeliverySettings,
  minutesToTime,
  WEEKDAY_NAMES,
} from "./delivery-settings.ts";
import { DELIVERY_SLOT_LABELS } from "./delivery-slots.ts";

export const MAX_SLOT_CAPACITY = 999;
export const MAX_LEAD_MINUTES = 240;

const storedSchema = z.object({
  capacities: z
    .array(z.array(z.number().int().min(0).max(MAX_SLOT_CAPACITY)).length(DELIVERY_SLOT_LABELS.length))
    .length(7),
  cutoffMinutes: z
    .array(
      z
        .number()
        .int()
        .min(0)
        .max(24 * 60),
    )
    .length(7),
  leadMinutes: z.number().int().min(0).max(MAX_LEAD_MINUTES),
});

/** The stored value, or the defaults (with the server's default capacity) when none or unreadable. */
export function storedDeliverySettings(value: unknown, defaultCapacity: number): DeliverySettings {
  const parsed = storedSchema.safeParse(value);
  return parsed.success ? parsed.data : defaultDeliverySettings(defaultCapacity);
}

export const capacityField = (day: number, slot: number) => `capacity-${day}-${slot}`;
export const cutoffField = (day: number) => `cutoff-${day}`;

const capacity = z
  .string({ error: "Enter a number of orders" })
  .trim()
  .regex(/^\d{1,3}$/, `Enter a whole number from 0 to ${MAX_SLOT_CAPACITY}`)
  .transform(Number);

const time = z
  .string({ error: "Enter a time" })
  .trim()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, "Enter a time such as 19:00")
  .transform((value) => Number(value.slice(0, 2)) * 60 + Number(value.slice(3, 5)));

const shape: Record<string, z.ZodType> = {
  leadMinutes: z
    .string({ error: "Enter a number of minutes" })
    .trim()
    .regex(/^\d{1,3}$/, `Enter a whole number of minutes from 0 to ${MAX_LEAD_MINUTES}`)
    .transform(Number)
    .pipe(z.number().max(MAX_LEAD_MINUTES, `Enter a whole number of minutes from 0 to ${MAX_LEAD_MINUTES}`)),
};
WEEKDAY_NAMES.forEach((_, day) => {
  shape[cutoffField(day)] = time;
  DELIVERY_SLOT_LABELS.forEach((_, slot) => {
    shape[capacityField(day, slot)] = capacity;
  });
});

/** The slots-and-cut-offs form: every weekday's cut-off, every weekday and slot's capacity. */
export const deliverySettingsFormSchema = z.object(shape);

export function deliverySettingsFormFields() {
  return Object.keys(shape);
}

export function settingsFromForm(data: Record<string, unknown>): DeliverySettings {
  return {
    leadMinutes: data.leadMinutes as number,
    cutoffMinutes: WEEKDAY_NAMES.map((_, day) => data[cutoffField(day)] as number),
    capacities: WEEKDAY_NAMES.map((_, day) =>
      DELIVERY_SLOT_LABELS.map((_, slot) => data[capacityField(day, slot)] as number),
    ),
  };
}

export function settingsFormValues(settings: DeliverySettings): Record<string, string> {
  const values: Record<string, string> = { leadMinutes: String(settings.leadMinutes) };
  WEEKDAY_NAMES.forEach((_, day) => {
    values[cutoffField(day)] = minutesToTime(settings.cutoffMinutes[day] ?? 0);
    DELIVERY_SLOT_LABELS.forEach((_, slot) => {
      values[capacityField(day, slot)] = String(settings.capacities[day]?.[slot] ?? 0);
    });
  });
  return values;
}

/** A zone as staff edit it: name, state, active, a pasted ZIP list and an optional own minimum. */
export const zoneFormSchema = z.object({
  id: z.union([z.uuid(), z.literal("")]).optional(),
  name: z.string({ error: "Name the zone" }).trim().min(1, "Name the zone").max(80, "The name is too long"),
  state: z.enum(US_STATES, "Choose DC or VA"),
  active: z
    .string()
    .optional()
    .transform((value) => value === "on" || value === "true"),
  zipCodes: z
    .string({ error: "Paste at least one ZIP code" })
    .max(20_000, "The list is too long")
    .transform((value, context) => {
      const { zipCodes, invalid } = parseZipList(value);
      if (invalid.length > 0) {
        context.addIssue({
          code: "custom",
          message: `Not 5-digit ZIP codes: ${invalid.slice(0, 5).join(", ")}${invalid.length > 5 ? " …" : ""}`,
        });
        return z.NEVER;
      }
      if (zipCodes.length === 0) {
        context.addIssue({ code: "custom", message: "Paste at least one ZIP code" });
        return z.NEVER;
      }
      return zipCodes;
    }),
  minimumOrder: z
    .string()
    .trim()
    .optional()
    .transform((value, context) => {
      if (!value) return null;
      const cents = dollarsToCents(value);
      if (cents === undefined || cents > 100_000_00) {
        context.addIssue({ code: "custom", message: "Enter an amount in dollars, like 100" });
        return z.NEVER;
      }
      return cents;
    })
    .refine(
      (cents) => cents === null || cents >= 8000,
      `The shop's minimum of ${MIN_ORDER_TEXT} is the floor: enter at least that, or leave it empty`,
    ),
});
export type ZoneFormInput = z.output<typeof zoneFormSchema>;

/** Closing a whole date (slot empty) or one slot of it, with the reason shoppers read. */
export const closureFormSchema = z.object({
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "Choose a date"),
  slot: z.union([z.literal(""), z.enum(DELIVERY_SLOT_LABELS as [string, ...string[]])], "Choose a slot"),
  reason: z
    .string({ error: "Give the reason shoppers will see" })
    .trim()
    .min(1, "Give the reason shoppers will see")
    .max(120, "Keep the reason under 120 characters"),
});

/** The first message per field. */
export function formErrorsOf(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? "form");
    errors[key] ??= issue.message;
  }
  return errors;
}
