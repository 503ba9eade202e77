import { and, asc, eq, gt, inArray, isNull, notInArray } from "drizzle-orm";
import { db } from "#app/db/client.server.ts";
import { UUID } from "#app/db/keyset.ts";
import { productSizes, products } from "#app/db/schema.ts";
import type { CartItemInput, CurrentSizePrice } from "./cart.ts";

/** A size and its product as the cart holds it: what both queries below select. */
const cartItemColumns = {
  productId: products.id,
  productSlug: products.slug,
  productName: products.name,
  imageUrl: products.imageUrl,
  category: products.category,
  sizeId: productSizes.id,
  sizeLabel: productSizes.size,
  priceCents: productSizes.priceCents,
  salePriceCents: productSizes.salePriceCents,
};

/** Current facts for the given size ids, for reconciling a stored cart (P-20). */
export async function currentSizePrices(sizeIds: readonly string[]): Promise<CurrentSizePrice[]> {
  const ids = [...new Set(sizeIds)].filter((id) => UUID.test(id)).slice(0, 200);
  if (ids.length === 0) return [];
  const database = await db();
  const rows = await database
    .select({
      ...cartItemColumns,
      inventoryCount: productSizes.inventoryCount,
      flowerEquivalentMg: productSizes.flowerEquivalentMg,
    })
    .from(productSizes)
    .innerJoin(products, eq(products.id, productSizes.productId))
    .where(and(inArray(productSizes.id, ids), isNull(products.archivedAt)));
  return rows.map(({ inventoryCount, ...row }) => ({
    ...row,
    inStock: inventoryCount > 0,
    stock: inventoryCount,
  }));
}

/**
 * In-stock sizes of products in `categories` that are not in `excludeProductIds`, cheapest first,
 * as cart items: the candidates for the checkout's suggestions under the minimum order.
 */
export async function listSuggestionCandidates(
  categories: readonly string[],
  excludeProductIds: readonly string[],
): Promise<CartItemInput[]> {
  const wanted = [...new Set(categories)].filter((category) => category.length <= 100).slice(0, 20);
  if (wanted.length === 0) return [];
  const excluded = [...new Set(excludeProductIds)].filter((id) => UUID.test(id)).slice(0, 200);
  const database = await db();
  return database
    .select(cartItemColumns)
    .from(productSizes)
    .innerJoin(products, eq(products.id, productSizes.productId))
    .where(
      and(
        inArray(products.category, wanted),
        isNull(products.archivedAt),
        gt(productSizes.inventoryCount, 0),
        excluded.length ? notInArray(products.id, excluded) : undefined,
      ),
    )
    .orderBy(asc(productSizes.priceCents), asc(productSizes.id))
    .limit(200);
}
