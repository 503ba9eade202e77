/**
 * The admin product form (K-2 'Add product and edit product', K-5 'Product form'): one schema
 * for the browser's messages and the server's check. Prices are typed in dollars and stored in cents.
 */

import {
  flowerEquivalentFromSize,
  formatGrams,
  gramsToMg,
} from "#app/features/purchase-limits/purchase-limits.ts";
import { z } from "#app/utils/zod.ts";
import { CATEGORIES, LOW_STOCK_THRESHOLD, STRAINS } from "./catalog.ts";

export const MAX_PRODUCT_IMAGE_BYTES = 10 * 1024 * 1024;
/** The admin image upload's whole body: the image and a few fields. */
export const MAX_PRODUCT_IMAGE_BODY_BYTES = MAX_PRODUCT_IMAGE_BYTES + 64 * 1024;
export const PRODUCT_IMAGE_ACCEPT = "image/png,image/jpeg,image/gif,image/webp,image/avif";

/** K-8 admin image messages. */
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

/** K-8: a save the server could not make. */
export const SAVE_FAILED = "Failed to save product. Please try again.";

export const SALE_PRICE_NOT_LOWER = "Sale price must be lower than the price";

/** A new size's low-stock threshold (each size has its own): the storefront's 'Only N left' point. */
export const DEFAULT_LOW_STOCK_THRESHOLD = LOW_STOCK_THRESHOLD;

/** An empty price or inventory becomes 0; an empty sale price becomes unset (K-5). */
export const SKU_TAKEN = "Another size already has this SKU";

export const productSizeSchema = z
  .object({
    id: z.preprocess(blankTo(undefined), z.uuid().optional()),
    size: z.string().trim().min(1, "Size is required").max(40, "Size must be 40 characters or fewer"),
    /** The stock room's code; blank: a new size gets a generated one, an existing size keeps its own. */
    sku: z.preprocess(
      blankTo(undefined),
      z
        .string()
        .trim()
        .max(40, "SKU must be 40 characters or fewer")
        .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, "SKU may hold letters, digits, dots, dashes and underscores")
        .optional(),
    ),
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
     * Stock of an existing size is never written as a figure (record 026): it moves by 'Received +N'
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
    /** Grams of flower equivalent one unit counts against the purchase limit (P-28), as mg. */
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
    /** Low stock at or below this many units (dashboard panel and daily digest); blank: the default. */
    lowStockThreshold: z.preprocess(
      (value) => toNumber(blankTo(DEFAULT_LOW_STOCK_THRESHOLD)(value)),
      z
        .number()
        .int("Low stock threshold must be a whole number")
        .min(0, "Low stock threshold must be non-negative")
        .max(1_000_000, "Low stock threshold is too high"),
    ),
  })
  .superRefine((size, context) => {
    if (size.correction !== 0 && size.stockNote === "") {
      context.addIssue({ code: "custom", path: ["stockNote"], message: "A correction needs a note" });
    }
    // A sale price is one only below the price (catalog.ts `isOnSale`): refuse one that would be ignored.
    if (size.salePrice !== null && size.salePrice !== undefined && size.salePrice > 0) {
      if (size.salePrice >= size.price) {
        context.addIssue({ code: "custom", path: ["salePrice"], message: SALE_PRICE_NOT_LOWER });
      }
    }
  });

const optionalNumber = (max: number, message: string) =>
  z.preprocess(
    (value) => toNumber(blankTo(null)(value)),
    z.number().min(0, message).max(max, message).nullable(),
  );

/**
 * A blank flower equivalent the size gives (`3.5g` of flower, `1/8 oz` of pre-rolls) is filled in
 * before the sizes are checked, so it is asked only where it cannot be derived.
 */
function withDerivedFlowerEquivalents(raw: unknown) {
  if (!raw || typeof raw !== "object") return raw;
  const input = raw as Record<string, unknown>;
  if (typeof input.category !== "string" || !Array.isArray(input.sizes)) return raw;
  const category = input.category;
  return {
    ...input,
    sizes: input.sizes.map((size: unknown) => {
      if (!size || typeof size !== "object") return size;
      const row = size as Record<string, unknown>;
      const given = row.flowerEquivalent;
      if (!(given === undefined || given === null || String(given).trim() === "")) return row;
      const derived = derivedFlowerEquivalent(category, row.size);
      return derived === null ? row : { ...row, flowerEquivalent: derived };
    }),
  };
}

/** The grams (as the field reads them, "3.5") a size's label gives in `category`, or null. */
export function derivedFlowerEquivalent(category: string, sizeLabel: unknown): string | null {
  if (typeof sizeLabel !== "string") return null;
  const mg = flowerEquivalentFromSize(category, sizeLabel.trim());
  return mg === null ? null : formatGrams(mg);
}

const productObjectSchema = z.object({
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
  /** The product's version the edit form loaded (record 026); absent when creating. */
  version: z.preprocess((value) => toNumber(blankTo(undefined)(value)), z.number().int().min(1).optional()),
});

export const productFormSchema = z.preprocess(withDerivedFlowerEquivalents, productObjectSchema);

/** The refusal of an edit saved over a newer version of the product (record 026). */
export const PRODUCT_CHANGED_MESSAGE = "This product was changed by someone else. Reload to see the changes.";

export type ProductFormInput = z.input<typeof productObjectSchema>;
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
    /** "" for a new size: one is generated when it is saved. */
    sku: string;
    price: string;
    salePrice: string;
    /** Opening stock of a new size; the stock on hand (shown, not sent as a figure) of an existing one. */
    inventoryCount: string;
    received: string;
    correction: string;
    stockNote: string;
    /** Grams, e.g. "3.5". */
    flowerEquivalent: string;
    lowStockThreshold: string;
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
    sku: "",
    price: "0",
    salePrice: "",
    inventoryCount: "0",
    received: "",
    correction: "",
    stockNote: "",
    flowerEquivalent: "",
    lowStockThreshold: String(DEFAULT_LOW_STOCK_THRESHOLD),
  };
}

/** Defaults (K-5): one empty size row with price 0 and inventory 0, featured and deal off. */
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

const text = (value: unknown) =>
  typeof value === "string" ? value : typeof value === "number" ? String(value) : "";
const flag = (value: unknown) => value === true || value === "on" || value === "true";

/**
 * What was submitted, as the form's values, so a refused or failed save shows the form again with
 * everything typed (also without JavaScript): from the JSON payload the script sends, or from the
 * named fields of a plain form post (`sizes.0.price` …; a pasted image URL in `imagePasted`).
 */
export function submittedFormValues(raw: unknown): ProductFormValues {
  const input = (raw && typeof raw === "object" ? raw : {}) as Record<string, unknown>;
  const sizes = Array.isArray(input.sizes) ? (input.sizes as unknown[]) : [];
  const pasted = text(input.imagePasted).trim();
  return {
    name: text(input.name),
    description: text(input.description),
    category: text(input.category),
    strain: text(input.strain),
    thcPercentage: text(input.thcPercentage),
    thcMg: text(input.thcMg),
    imageUrl: pasted || text(input.imageUrl),
    imageKey: pasted ? "" : text(input.imageKey),
    isFeatured: flag(input.isFeatured),
    isDeal: flag(input.isDeal),
    version: text(input.version),
    sizes: sizes.slice(0, 20).map((entry) => {
      const size = (entry && typeof entry === "object" ? entry : {}) as Record<string, unknown>;
      const row: Record<string, string> = {};
      // Every submitted size field comes back, whatever fields the form has.
      for (const [key, value] of Object.entries(size)) row[key] = text(value);
      return {
        ...row,
        id: text(size.id),
        key: text(size.id) || newSizeRowKey(),
        size: text(size.size),
        sku: text(size.sku),
        price: text(size.price),
        salePrice: text(size.salePrice),
        inventoryCount: text(size.inventoryCount),
        received: text(size.received),
        correction: text(size.correction),
        stockNote: text(size.stockNote),
        flowerEquivalent: text(size.flowerEquivalent),
        lowStockThreshold: text(size.lowStockThreshold),
      };
    }),
  };
}

/** A plain form post's named fields as the payload object the schema reads. */
export function namedFieldsToPayload(entries: Iterable<[string, FormDataEntryValue]>) {
  const payload: Record<string, unknown> = {};
  const sizes: Record<string, string>[] = [];
  for (const [key, value] of entries) {
    if (typeof value !== "string") continue;
    const sizeField = /^sizes\.(\d{1,2})\.(\w{1,40})$/.exec(key);
    if (sizeField) {
      const index = Number(sizeField[1]);
      sizes[index] ??= {};
      (sizes[index] as Record<string, string>)[sizeField[2] as string] = value;
    } else if (/^\w{1,40}$/.test(key) && key !== "csrf" && key !== "payload") {
      payload[key] = value;
    }
  }
  payload.sizes = sizes.filter(Boolean);
  payload.isFeatured = flag(payload.isFeatured);
  payload.isDeal = flag(payload.isDeal);
  const pasted = text(payload.imagePasted).trim();
  if (pasted) {
    payload.imageUrl = pasted;
    payload.imageKey = "";
  }
  return payload;
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
