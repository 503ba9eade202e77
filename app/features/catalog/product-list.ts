import { CATEGORIES, isKnownCategory } from "./catalog.ts";

type ListedSize = { sku?: string; inventoryCount: number; lowStockThreshold: number };

/** A size at or below its own low-stock threshold (sold out included): the digest's rule. */
export function isLowStock(size: Pick<ListedSize, "inventoryCount" | "lowStockThreshold">) {
  return size.inventoryCount <= size.lowStockThreshold;
}

/**
 * The admin list matches name or category, case-insensitively; 'All' matches everything.
 * A stock room also finds a size by its SKU, and may keep only products with a size low on stock.
 */
export function filterAdminProducts<T extends { name: string; category: string; sizes?: ListedSize[] }>(
  products: T[],
  search: string,
  category: string,
  options: { lowStockOnly?: boolean } = {},
) {
  const needle = search.trim().toLowerCase();
  return products.filter(
    (product) =>
      (category === "all" || product.category === category) &&
      (!options.lowStockOnly || (product.sizes ?? []).some(isLowStock)) &&
      (!needle ||
        product.name.toLowerCase().includes(needle) ||
        product.category.toLowerCase().includes(needle) ||
        (product.sizes ?? []).some((size) => size.sku?.toLowerCase() === needle)),
  );
}

/** Product counts per stored category value: known ones first in their usual order, then the rest. */
export function categoryCounts(products: { category: string }[]) {
  const counts = new Map<string, number>();
  for (const product of products) counts.set(product.category, (counts.get(product.category) ?? 0) + 1);
  const known = CATEGORIES.filter((category) => counts.has(category));
  const unknown = [...counts.keys()].filter((category) => !isKnownCategory(category)).sort();
  return [...known, ...unknown].map((category) => ({
    category,
    count: counts.get(category) ?? 0,
    known: isKnownCategory(category),
  }));
}
