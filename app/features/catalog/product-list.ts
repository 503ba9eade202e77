import { CATEGORIES, isKnownCategory } from "./catalog.ts";

/** K-5: the admin list matches name or category, case-insensitively; 'All' matches everything. */
export function filterAdminProducts<T extends { name: string; category: string }>(
  products: T[],
  search: string,
  category: string,
) {
  const needle = search.trim().toLowerCase();
  return products.filter(
    (product) =>
      (category === "all" || product.category === category) &&
      (!needle ||
        product.name.toLowerCase().includes(needle) ||
        product.category.toLowerCase().includes(needle)),
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
