/**
 * The catalogue as CSV (record 027): one row per size, matched by its SKU. Columns, the reading
 * of one row into checked values and the writing of one size back: the export writes exactly what
 * the import reads, so export → import changes nothing.
 */
import { gramsToMg } from "#app/features/purchase-limits/purchase-limits.ts";
import { type CsvCell, figure, restoreCsvText } from "#app/utils/csv.ts";
import { CATEGORIES, canonicalCategory, STRAINS } from "./catalog.ts";

export const CSV_COLUMNS = [
  "sku",
  "name",
  "category",
  "strain",
  "thc",
  "description",
  "size",
  "price",
  "sale price",
  "stock",
  "flower-equivalent grams",
  "featured",
  "deal",
  "image URL",
] as const;
export type CsvColumn = (typeof CSV_COLUMNS)[number];

/** Columns every file must have; `flower-equivalent grams` may be left out (then kept or estimated). */
export const REQUIRED_CSV_COLUMNS = CSV_COLUMNS.filter((column) => column !== "flower-equivalent grams");

/** A file of more rows is refused before it is read (the bench imports 5,000). */
export const MAX_CSV_ROWS = 10_000;
export const MAX_CSV_BYTES = 8 * 1024 * 1024;

export const SKU_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** One checked row: the product's fields and the size's. */
export type CsvRow = {
  sku: string;
  name: string;
  category: string;
  strain: string | null;
  thcPercentage: number | null;
  thcMg: number | null;
  description: string;
  size: string;
  priceCents: number;
  salePriceCents: number | null;
  stock: number;
  /** Null when the column is absent or blank: an existing size keeps its own, a new one is estimated. */
  flowerEquivalentMg: number | null;
  isFeatured: boolean;
  isDeal: boolean;
  imageUrl: string;
};

export type CsvRowResult = { ok: true; row: CsvRow } | { ok: false; reason: string };

function cents(text: string): number | null {
  const cleaned = text.replace(/^\$/, "").replace(/,/g, "").trim();
  if (!/^\d+(\.\d{1,2})?$/.test(cleaned)) return null;
  const value = Math.round(Number(cleaned) * 100);
  return value <= 10_000_000 ? value : null;
}

function yesNo(text: string): boolean | null {
  const value = text.trim().toLowerCase();
  if (["", "no", "false", "0", "n"].includes(value)) return false;
  if (["yes", "true", "1", "y"].includes(value)) return true;
  return null;
}

/** "22%", "100mg", "22% 100mg" or a bare number (% for Flower, mg otherwise). */
function thcOf(text: string, category: string): { percentage: number | null; mg: number | null } | null {
  const value = text.trim();
  if (value === "") return { percentage: null, mg: null };
  if (/^\d+(\.\d+)?$/.test(value)) {
    const number = Number(value);
    return category === "Flower" ? { percentage: number, mg: null } : { percentage: null, mg: number };
  }
  let percentage: number | null = null;
  let mg: number | null = null;
  const rest = value.replace(/(\d+(?:\.\d+)?)\s*(%|mg)/gi, (_, number: string, unit: string) => {
    if (unit === "%") percentage = Number(number);
    else mg = Number(number);
    return "";
  });
  if (rest.replace(/[\s;,/]/g, "") !== "") return null;
  if (percentage !== null && percentage > 100) return null;
  return { percentage, mg };
}

/**
 * Reads one record (header names → text) into a checked row, or the first reason it is invalid. A
 * cell the export guarded against spreadsheet formulas (`'=…`) reads as the text it was written from.
 */
export function readCsvRow(record: Record<string, string | undefined>): CsvRowResult {
  const text = (column: CsvColumn) => restoreCsvText((record[column] ?? "").trim()).trim();
  const sku = text("sku");
  if (sku === "") return { ok: false, reason: "SKU is required" };
  if (!SKU_PATTERN.test(sku))
    return { ok: false, reason: "SKU may hold only letters, digits, '.', '_' and '-' (at most 64)" };
  const name = text("name");
  if (name === "") return { ok: false, reason: "Name is required" };
  if (name.length > 200) return { ok: false, reason: "Name is too long" };
  const category = canonicalCategory(text("category"));
  if (!category) return { ok: false, reason: `Category must be one of ${CATEGORIES.join(", ")}` };
  const strainText = text("strain");
  const strain = STRAINS.find((known) => known.toLowerCase() === strainText.toLowerCase()) ?? null;
  if (strainText !== "" && !strain)
    return { ok: false, reason: `Strain must be empty or one of ${STRAINS.join(", ")}` };
  const thc = thcOf(text("thc"), category);
  if (!thc) return { ok: false, reason: "THC must look like 22% or 100mg" };
  const description = text("description");
  if (description === "") return { ok: false, reason: "Description is required" };
  if (description.length > 5000) return { ok: false, reason: "Description is too long" };
  const size = text("size");
  if (size === "") return { ok: false, reason: "Size is required" };
  if (size.length > 40) return { ok: false, reason: "Size must be 40 characters or fewer" };
  const priceCents = cents(text("price"));
  if (priceCents === null) return { ok: false, reason: "Price must be an amount in dollars, e.g. 45.00" };
  const saleText = text("sale price");
  const salePriceCents = saleText === "" ? null : cents(saleText);
  if (saleText !== "" && salePriceCents === null)
    return { ok: false, reason: "Sale price must be empty or an amount in dollars" };
  const stockText = text("stock");
  if (!/^\d{1,7}$/.test(stockText)) return { ok: false, reason: "Stock must be a whole number of 0 or more" };
  const grams = text("flower-equivalent grams");
  const flowerEquivalentMg = grams === "" ? null : (gramsToMg(grams) ?? -1);
  if (flowerEquivalentMg !== null && (flowerEquivalentMg < 0 || flowerEquivalentMg > 1_000_000))
    return { ok: false, reason: "Flower-equivalent grams must be a number from 0 to 1000" };
  const isFeatured = yesNo(text("featured"));
  const isDeal = yesNo(text("deal"));
  if (isFeatured === null) return { ok: false, reason: "Featured must be yes or no" };
  if (isDeal === null) return { ok: false, reason: "Deal must be yes or no" };
  const imageUrl = text("image URL");
  // Blank is allowed: a product saved without one shows the placeholder, and must round-trip.
  if (imageUrl !== "" && !/^https?:\/\/\S+$/i.test(imageUrl) && !/^\/media\/[\w.-]+$/.test(imageUrl))
    return { ok: false, reason: "Image URL must be empty, an http(s) address or a /media/ path" };
  return {
    ok: true,
    row: {
      sku,
      name,
      category,
      strain,
      thcPercentage: thc.percentage,
      thcMg: thc.mg,
      description,
      size,
      priceCents,
      salePriceCents,
      stock: Number(stockText),
      flowerEquivalentMg,
      isFeatured,
      isDeal,
      imageUrl,
    },
  };
}

function dollars(value: number) {
  return figure(value / 100, 2);
}

function number(value: number) {
  return Number(value.toFixed(3));
}

/** One size as a CSV record, in CSV_COLUMNS order (for `csvLines`, which guards its text cells). */
export function writeCsvRow(
  row: Omit<CsvRow, "flowerEquivalentMg"> & { flowerEquivalentMg: number | null },
): CsvCell[] {
  const thc = [
    row.thcPercentage === null ? null : `${number(row.thcPercentage)}%`,
    row.thcMg === null ? null : `${number(row.thcMg)}mg`,
  ]
    .filter(Boolean)
    .join(" ");
  return [
    row.sku,
    row.name,
    row.category,
    row.strain ?? "",
    thc,
    row.description,
    row.size,
    dollars(row.priceCents),
    row.salePriceCents === null ? null : dollars(row.salePriceCents),
    row.stock,
    row.flowerEquivalentMg === null ? null : number(row.flowerEquivalentMg / 1000),
    row.isFeatured ? "yes" : "no",
    row.isDeal ? "yes" : "no",
    row.imageUrl,
  ];
}

/** The product-level fields (not a size's): rows of one product must agree on them. */
export const PRODUCT_LEVEL_FIELDS = [
  "name",
  "category",
  "strain",
  "thcPercentage",
  "thcMg",
  "description",
  "isFeatured",
  "isDeal",
  "imageUrl",
] as const;
type ProductLevelField = (typeof PRODUCT_LEVEL_FIELDS)[number];

/** The product-level fields of a CSV row, or of the product form's input. */
export function productFieldsOf<T extends Pick<CsvRow, ProductLevelField>>(
  row: T,
): Pick<T, ProductLevelField> {
  return Object.fromEntries(PRODUCT_LEVEL_FIELDS.map((field) => [field, row[field]])) as Pick<
    T,
    ProductLevelField
  >;
}

/** Rows of one product share its name and category (record 027). */
export function productKeyOf(row: Pick<CsvRow, "name" | "category">) {
  return `${row.name.trim().toLowerCase()}\u0000${row.category}`;
}
