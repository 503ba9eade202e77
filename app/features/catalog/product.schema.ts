/**
 * The admin product form (spec §2 'Add product and edit product', §5 'Product form'): one schema
 * for the browser's messages and the server's check. Prices are typed in dollars and stored in cents.
 */

import { gramsToMg } from "#app/features/checkout/purchase-limits.ts";
import { z } from "#app/utils/zod.ts";
import { CATEGORIES, STRAINS } from "./catalog.ts";

export const MAX_PRODUCT_IMAGE_BYTES = 10 * 1024 * 1024;
/** The admin image upload's whole body: the image and a few fields. */
export const MAX_PRODUCT_IMAGE_BODY_BYTES = MAX_PRODUCT_IMAGE_BYTES + 64 * 1024;
export const PRODUCT_IMAGE_ACCEPT = "image/png,image/jpeg,image/gif,image/webp,image/avif";

/** Spec §8 admin image messages. */
export const IMAGE_MESSAGES = {
  invalidType: { title: "Invalid file type", description: "Please select an image file" },
  tooLarge: { title: "File too large", description: "Please select an image smaller than 10MB" },
  uploaded: { title: "Success", description: "Image uploaded successfully" },
  failedTitle: "Upload failed",
} as const;

const blankTo = (fallback: unknown) => (value: unknown) =>
  value === undefined || value === null || (typeof value === "string" && value.trim() === "")
    ? fallback
    : value;

const toNumber = (value: unknown) => (typeof value === "string" ? Number(value.trim()) : value);

/** An empty price or inventory becomes 0; an empty sale price becomes unset (spec §5). */
export const productSizeSchema = z
  .object({
    id: z.preprocess(blankTo(undefined), z.uuid().optional()),
    size: z.string().trim().min(1, "Size is required").max(40, "Size must be 40 characters or fewer"),
    price: z.preprocess(
      (value) => toNumber(blankTo(0)(value)),
      z.number().min(0, "Price must be positive").max(100_000, "Price is too high"),
    ),
    salePrice: z.preprocess(
      (value) => toNumber(blankTo(null)(value)),
      z
        .number()
        .min(0, "Sale price must be positive")
        .max(100_000, "Sale price is too high")
        .nullable()
        .optional(),
    ),
    inventoryCount: z.preprocess(
      (value) => toNumber(blankTo(0)(value)),
      z
        .number()
        .int("Inventory must be a whole number")
        .min(0, "Inventory must be non-negative")
        .max(1_000_000),
    ),
    /**
     * Stock of an existing size is never written as a figure (decision 023): it moves by 'Received +N'
     * and 'Correction ±N' (with a note). `inventoryCount` is the opening stock of a new size only.
     */
    received: z.preprocess(
      (value) => toNumber(blankTo(0)(value)),
      z
        .number({ error: "Received must be a whole number" })
        .int("Received must be a whole number")
        .min(0, "Received must be 0 or more")
        .max(1_000_000, "Received is too high"),
    ),
    correction: z.preprocess(
      (value) => toNumber(blankTo(0)(value)),
      z
        .number({ error: "Correction must be a whole number" })
        .int("Correction must be a whole number")
        .min(-1_000_000, "Correction is too low")
        .max(1_000_000, "Correction is too high"),
    ),
    stockNote: z.preprocess(blankTo(""), z.string().trim().max(200, "Note must be 200 characters or fewer")),
    /** Grams of flower equivalent one unit counts against the purchase limit (decision 28), as mg. */
    flowerEquivalent: z
      .union([z.string(), z.number()], { error: "Flower equivalent is required" })
      .transform((value, context) => {
        const text = String(value).trim();
        if (text === "") {
          context.addIssue({ code: "custom", message: "Flower equivalent is required" });
          return z.NEVER;
        }
        const mg = gramsToMg(text);
        if (mg === undefined || mg > 1_000_000) {
          context.addIssue({ code: "custom", message: "Flower equivalent must be grams from 0 to 1000" });
          return z.NEVER;
        }
        return mg;
      }),
  })
  .superRefine((size, context) => {
    if (size.correction !== 0 && size.stockNote === "") {
      context.addIssue({ code: "custom", path: ["stockNote"], message: "A correction needs a note" });
    }
  });

const optionalNumber = (max: number, message: string) =>
  z.preprocess(
    (value) => toNumber(blankTo(null)(value)),
    z.number().min(0, message).max(max, message).nullable(),
  );

export const productFormSchema = z.object({
  name: z.string().trim().min(1, "Product name is required").max(200, "Product name is too long"),
  description: z.string().trim().min(1, "Description is required").max(5000, "Description is too long"),
  category: z.preprocess(
    blankTo(""),
    z.string().refine((value) => (CATEGORIES as readonly string[]).includes(value), "Category is required"),
  ),
  strain: z.preprocess(blankTo(null), z.enum(STRAINS).nullable()),
  thcPercentage: optionalNumber(100, "THC percentage must be between 0 and 100"),
  thcMg: optionalNumber(100_000, "THC mg must be non-negative"),
  imageUrl: z
    .string()
    .trim()
    .min(1, "Image is required")
    .max(2000)
    .refine(
      (value) => /^https?:\/\/\S+$/i.test(value) || /^\/media\/[\w.-]+$/.test(value),
      "Please enter a valid image URL",
    ),
  imageKey: z.preprocess(
    blankTo(null),
    z
      .string()
      .regex(/^[\w-]{1,100}$/)
      .nullable(),
  ),
  isFeatured: z.boolean().default(false),
  isDeal: z.boolean().default(false),
  sizes: z.array(productSizeSchema).min(1, "At least one size is required").max(20, "At most 20 sizes"),
  /** The product's version the edit form loaded (decision 023); absent when creating. */
  version: z.preprocess((value) => toNumber(blankTo(undefined)(value)), z.number().int().min(1).optional()),
});

/** The refusal of an edit saved over a newer version of the product (decision 023). */
export const PRODUCT_CHANGED_MESSAGE = "This product was changed by someone else. Reload to see the changes.";

export type ProductFormInput = z.input<typeof productFormSchema>;
export type ProductFormData = z.output<typeof productFormSchema>;

export type ProductFormValues = {
  name: string;
  description: string;
  category: string;
  strain: string;
  thcPercentage: string;
  thcMg: string;
  imageUrl: string;
  imageKey: string;
  isFeatured: boolean;
  isDeal: boolean;
  /** The product's version when the form was loaded; "" for a new product. */
  version: string;
  sizes: {
    id: string;
    key: string;
    size: string;
    price: string;
    salePrice: string;
    /** Opening stock of a new size; the stock on hand (shown, not sent as a figure) of an existing one. */
    inventoryCount: string;
    received: string;
    correction: string;
    stockNote: string;
    /** Grams, e.g. "3.5". */
    flowerEquivalent: string;
  }[];
};

let rowCounter = 0;
/** A stable React key for a size row that has no database id yet. */
export function newSizeRowKey() {
  rowCounter += 1;
  return `new-${rowCounter}`;
}

export function emptySizeRow(): ProductFormValues["sizes"][number] {
  return {
    id: "",
    key: newSizeRowKey(),
    size: "",
    price: "0",
    salePrice: "",
    inventoryCount: "0",
    received: "",
    correction: "",
    stockNote: "",
    flowerEquivalent: "",
  };
}

/** Defaults (spec §5): one empty size row with price 0 and inventory 0, featured and deal off. */
export function emptyProductForm(): ProductFormValues {
  return {
    name: "",
    description: "",
    category: "",
    strain: "",
    thcPercentage: "",
    thcMg: "",
    imageUrl: "",
    imageKey: "",
    isFeatured: false,
    isDeal: false,
    version: "",
    sizes: [emptySizeRow()],
  };
}

/** Field errors keyed by path ("name", "sizes.0.price", "sizes"): first message per field. */
export function fieldErrorsOf(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.join(".") || "form";
    errors[key] ??= issue.message;
  }
  return errors;
}

export function dollarsToCentsNumber(value: number) {
  return Math.round(value * 100);
}
