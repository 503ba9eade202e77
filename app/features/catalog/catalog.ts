/** Catalogue vocabulary shared by the storefront, the admin and the server (K-3, K-9). */
import type { products } from "#app/db/schema.ts";

/**
 * A product's own fields as every view shows them (storefront, admin, cards), declared once from the
 * table (Drizzle's `$inferSelect`); dates travel as ISO text. Each view adds its own sizes.
 */
export type ProductFields = Pick<
  typeof products.$inferSelect,
  | "id"
  | "slug"
  | "name"
  | "description"
  | "category"
  | "strain"
  | "thcPercentage"
  | "thcMg"
  | "isFeatured"
  | "isDeal"
  | "imageUrl"
  | "imageKey"
> & { createdAt: string };

/**
 * A product page's path (record 028): `/product/{slug}`. Old `/product/{uuid}` links and a
 * renamed product's earlier slugs answer 301 to it.
 */
export function productPath(product: { slug: string }) {
  return `/product/${product.slug}`;
}

/** The fields a product card renders (and a listing page carries). */
export type ListedProductFields = Omit<ProductFields, "isDeal" | "imageKey" | "createdAt">;

export const CATEGORIES = [
  "Flower",
  "Edibles",
  "Pre Rolls",
  "Cartridges",
  "Concentrates",
  "Mushrooms",
] as const;
export type Category = (typeof CATEGORIES)[number];

export const STRAINS = ["Sativa", "Indica", "Hybrid"] as const;
export type Strain = (typeof STRAINS)[number];

/** URL slug of each category page; /deals lists the products flagged as deals (P-14). */
export const CATEGORY_SLUGS: Record<Category, string> = {
  Flower: "flower",
  Edibles: "edibles",
  "Pre Rolls": "pre-rolls",
  Cartridges: "cartridges",
  Concentrates: "concentrates",
  Mushrooms: "mushrooms",
};

export function isKnownCategory(value: string): value is Category {
  return (CATEGORIES as readonly string[]).includes(value);
}

/** The known category that matches ignoring case, for the admin's 'Fix Case'. */
export function canonicalCategory(value: string): Category | undefined {
  return CATEGORIES.find((category) => category.toLowerCase() === value.trim().toLowerCase());
}

export function isKnownStrain(value: string | null | undefined): value is Strain {
  return (STRAINS as readonly string[]).includes(value ?? "");
}

/** Flower shows THC %, everything else THC mg (K-3). */
export function showsThcPercentage(category: string) {
  return category === "Flower";
}

export type PricedSize = { priceCents: number; salePriceCents: number | null };

/**
 * A size is on sale only when the sale price is set, non-zero (K-4) and lower than the price
 * (K-3). The cart, the product pages and the server's order total all use this one rule.
 */
export function isOnSale(size: PricedSize) {
  return size.salePriceCents !== null && size.salePriceCents > 0 && size.salePriceCents < size.priceCents;
}

/** What the shopper pays for one unit of a size. */
export function unitPriceCents(size: PricedSize) {
  return isOnSale(size) ? (size.salePriceCents as number) : size.priceCents;
}

/** A size with this many units or fewer says 'Only N left' to shoppers and shows as low in the admin (record 026). */
export const LOW_STOCK_THRESHOLD = 5;

/**
 * Catalogue pages carry a size's exact stock (`left`) only up to this many units, so quantities are
 * capped at the stock on hand; the page-cache trigger
 * (`drizzle/triggers/product_sizes_update_bump_catalog_version.sql`) watches
 * least(stock, EXACT_STOCK_UP_TO + 1) to match, so orders of well-stocked sizes leave the page cache
 * alone (record 026; `tests/architecture/sql-definitions.test.ts` checks the two agree).
 */
export const EXACT_STOCK_UP_TO = 10;

/** 'Only N left' for a size that is low but not sold out, else null. */
export function onlyLeftText(left: number | undefined): string | null {
  return left !== undefined && left > 0 && left <= LOW_STOCK_THRESHOLD ? `Only ${left} left` : null;
}
