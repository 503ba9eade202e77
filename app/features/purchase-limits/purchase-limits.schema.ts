/**
 * The limits settings form (/admin/settings/limits) and the stored settings value: one schema for
 * the browser's messages and the server's check. The form is typed in grams, stored in milligrams.
 */
import { z } from "#app/utils/zod.ts";
import {
  DEFAULT_PURCHASE_LIMITS,
  formatGrams,
  gramsToMg,
  type PurchaseLimitSettings,
} from "./purchase-limits.ts";

const grams = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .transform((value, context) => {
      const mg = gramsToMg(value);
      if (mg === undefined || mg > max * 1000) {
        context.addIssue({ code: "custom", message: `${label} must be a number of grams from 0 to ${max}` });
        return z.NEVER;
      }
      return mg;
    });

export const limitsFormSchema = z.object({
  dcLimit: grams("The DC limit", 10_000),
  vaLimit: grams("The Virginia limit", 10_000),
  maxQuantityPerSize: z
    .string({ error: "The quantity cap is required" })
    .trim()
    .regex(/^\d{1,4}$/, "The quantity cap must be a whole number from 1 to 999")
    .transform(Number)
    .pipe(z.number().min(1, "The quantity cap must be a whole number from 1 to 999").max(999)),
  ediblesPer100MgThc: grams("The edibles equivalence", 1000),
  cartridgesPerGram: grams("The cartridges equivalence", 1000),
  concentratesPerGram: grams("The concentrates equivalence", 1000),
});

export type LimitsFormValues = Record<keyof z.input<typeof limitsFormSchema>, string>;

export function settingsFromForm(data: z.output<typeof limitsFormSchema>): PurchaseLimitSettings {
  return {
    stateLimitsMg: { DC: data.dcLimit, VA: data.vaLimit },
    maxQuantityPerSize: data.maxQuantityPerSize,
    equivalences: {
      ediblesPer100MgThcMg: data.ediblesPer100MgThc,
      cartridgesPerGramMg: data.cartridgesPerGram,
      concentratesPerGramMg: data.concentratesPerGram,
    },
  };
}

export function formValuesOf(settings: PurchaseLimitSettings): LimitsFormValues {
  return {
    dcLimit: formatGrams(settings.stateLimitsMg.DC),
    vaLimit: formatGrams(settings.stateLimitsMg.VA),
    maxQuantityPerSize: String(settings.maxQuantityPerSize),
    ediblesPer100MgThc: formatGrams(settings.equivalences.ediblesPer100MgThcMg),
    cartridgesPerGram: formatGrams(settings.equivalences.cartridgesPerGramMg),
    concentratesPerGram: formatGrams(settings.equivalences.concentratesPerGramMg),
  };
}

const milligrams = z.number().int().min(0).max(10_000_000);

/** The stored value; a key missing from it (or a bad one) takes its default. */
export const storedLimitsSchema = z.object({
  stateLimitsMg: z
    .object({
      DC: milligrams.catch(DEFAULT_PURCHASE_LIMITS.stateLimitsMg.DC),
      VA: milligrams.catch(DEFAULT_PURCHASE_LIMITS.stateLimitsMg.VA),
    })
    .catch(DEFAULT_PURCHASE_LIMITS.stateLimitsMg),
  maxQuantityPerSize: z.number().int().min(1).max(999).catch(DEFAULT_PURCHASE_LIMITS.maxQuantityPerSize),
  equivalences: z
    .object({
      ediblesPer100MgThcMg: milligrams.catch(DEFAULT_PURCHASE_LIMITS.equivalences.ediblesPer100MgThcMg),
      cartridgesPerGramMg: milligrams.catch(DEFAULT_PURCHASE_LIMITS.equivalences.cartridgesPerGramMg),
      concentratesPerGramMg: milligrams.catch(DEFAULT_PURCHASE_LIMITS.equivalences.concentratesPerGramMg),
    })
    .catch(DEFAULT_PURCHASE_LIMITS.equivalences),
});

export function storedLimits(value: unknown): PurchaseLimitSettings {
  return storedLimitsSchema.catch(DEFAULT_PURCHASE_LIMITS).parse(value ?? {});
}

export function limitsFieldErrors(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) errors[String(issue.path[0] ?? "form")] ??= issue.message;
  return errors;
}
