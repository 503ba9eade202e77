import { and, asc, desc, eq, inArray, isNull } from "drizzle-orm";
import { db } from "#app/db/client.server.ts";
import { productSizes, products } from "#app/db/schema.ts";
import type { CurrentSizePrice } from "#app/features/cart/cart.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type ProductSizeView = {
  id: string;
  size: string;
  priceCents: number;
  salePriceCents: number | null;
  inStock: boolean;
};

export type ProductView = {
  id: string;
  name: string;
  description: string;
  category: string;
  strain: string | null;
  thcPercentage: number | null;
  thcMg: number | null;
  isFeatured: boolean;
  isDeal: boolean;
  imageUrl: string;
  createdAt: string;
  sizes: ProductSizeView[];
};

/** Every product on sale in the shop, newest first, with its sizes (spec §7 'All products'). */
export async function listProducts(): Promise<ProductView[]> {
  const database = await db();
  const rows = await database
    .select()
    .from(products)
    .where(isNull(products.archivedAt))
    .orderBy(desc(products.createdAt), desc(products.id));
  const sizes = rows.length
    ? await database
        .select()
        .from(productSizes)
        .where(
          inArray(
            productSizes.productId,
            rows.map((row) => row.id),
          ),
        )
        .orderBy(asc(productSizes.position))
    : [];
  const sizesByProduct = new Map<string, ProductSizeView[]>();
  for (const size of sizes) {
    const list = sizesByProduct.get(size.productId) ?? [];
    list.push({
      id: size.id,
      size: size.size,
      priceCents: size.priceCents,
      salePriceCents: size.salePriceCents,
      inStock: size.inventoryCount > 0,
    });
    sizesByProduct.set(size.productId, list);
  }
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    description: row.description,
    category: row.category,
    strain: row.strain,
    thcPercentage: row.thcPercentage,
    thcMg: row.thcMg,
    isFeatured: row.isFeatured,
    isDeal: row.isDeal,
    imageUrl: row.imageUrl,
    createdAt: row.createdAt.toISOString(),
    sizes: sizesByProduct.get(row.id) ?? [],
  }));
}

/** Current facts for the given size ids, for reconciling a stored cart (decision 20). */
export async function currentSizePrices(sizeIds: readonly string[]): Promise<CurrentSizePrice[]> {
  const ids = [...new Set(sizeIds)].filter((id) => UUID.test(id)).slice(0, 200);
  if (ids.length === 0) return [];
  const database = await db();
  const rows = await database
    .select({
      productId: products.id,
      productName: products.name,
      imageUrl: products.imageUrl,
      category: products.category,
      sizeId: productSizes.id,
      sizeLabel: productSizes.size,
      priceCents: productSizes.priceCents,
      salePriceCents: productSizes.salePriceCents,
      inventoryCount: productSizes.inventoryCount,
    })
    .from(productSizes)
    .innerJoin(products, eq(products.id, productSizes.productId))
    .where(and(inArray(productSizes.id, ids), isNull(products.archivedAt)));
  return rows.map(({ inventoryCount, ...row }) => ({ ...row, inStock: inventoryCount > 0 }));
}
