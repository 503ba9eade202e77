import { and, asc, count, eq, inArray, isNull, type SQL, sql } from "drizzle-orm";
import { db, type Executor } from "#app/db/client.server.ts";
import { productSizes, productSlugs, products } from "#app/db/schema.ts";
import { EXACT_STOCK_UP_TO, type ProductFields, productPath } from "./catalog.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type ProductSizeView = {
  id: string;
  size: string;
  priceCents: number;
  salePriceCents: number | null;
  inStock: boolean;
  /** Units on hand, only when EXACT_STOCK_UP_TO or fewer (record 026). */
  left?: number;
};

export type ProductView = ProductFields & { sizes: ProductSizeView[] };

/**
 * Newest first, spelled as the indexes are: drizzle-kit writes `.desc()` index columns as
 * `DESC NULLS LAST`, and PostgreSQL uses such an index only for the same null ordering.
 */
export const NEWEST_FIRST = [sql`${products.createdAt} DESC NULLS LAST`, sql`${products.id} DESC`];

/** Every product on sale in the shop, newest first, with its sizes (K-7 'All products'). */
export async function listProducts(): Promise<ProductView[]> {
  const database = await db();
  const rows = await database
    .select()
    .from(products)
    .where(isNull(products.archivedAt))
    .orderBy(...NEWEST_FIRST);
  return withSizes(rows);
}

type ProductRow = typeof products.$inferSelect;
type SizeRow = typeof productSizes.$inferSelect;

/**
 * Product rows with their sizes (in position order), each size shaped by `toSize`: the storefront
 * shows only whether a size is in stock, the admin the stock count.
 */
export async function attachSizes<TSize>(
  executor: Executor,
  rows: ProductRow[],
  toSize: (size: SizeRow) => TSize,
): Promise<Array<Omit<ProductView, "sizes"> & { sizes: TSize[] }>> {
  const sizes = rows.length
    ? await executor
        .select()
        .from(productSizes)
        .where(
          inArray(
            productSizes.productId,
            rows.map((row) => row.id),
          ),
        )
        .orderBy(asc(productSizes.position), asc(productSizes.id))
    : [];
  const sizesByProduct = new Map<string, TSize[]>();
  for (const size of sizes) {
    const list = sizesByProduct.get(size.productId) ?? [];
    list.push(toSize(size));
    sizesByProduct.set(size.productId, list);
  }
  return rows.map((row) => ({
    id: row.id,
    slug: row.slug,
    name: row.name,
    description: row.description,
    category: row.category,
    strain: row.strain,
    thcPercentage: row.thcPercentage,
    thcMg: row.thcMg,
    isFeatured: row.isFeatured,
    isDeal: row.isDeal,
    imageUrl: row.imageUrl,
    imageKey: row.imageKey,
    createdAt: row.createdAt.toISOString(),
    sizes: sizesByProduct.get(row.id) ?? [],
  }));
}

async function withSizes(rows: ProductRow[]): Promise<ProductView[]> {
  return attachSizes(await db(), rows, (size) => ({
    id: size.id,
    size: size.size,
    priceCents: size.priceCents,
    salePriceCents: size.salePriceCents,
    inStock: size.inventoryCount > 0,
    ...(size.inventoryCount <= EXACT_STOCK_UP_TO ? { left: size.inventoryCount } : {}),
  }));
}

/** What a storefront listing asks for; every filter is applied in SQL so 500 products never ship at once. */
export type ProductFilter = {
  /** Exact category ('All' is no filter). */
  category?: string | null;
  /** Only products flagged as deals (P-14). */
  dealsOnly?: boolean;
  featuredOnly?: boolean;
  /** Only products with a size whose sale price is set and lower than its price. */
  onSaleOnly?: boolean;
  /** Strain in this list. */
  strains?: readonly string[] | null;
  /** Case-insensitive substring of the name (K-5). */
  search?: string;
};

function escapeLike(value: string) {
  return value.replace(/[\\%_]/g, (char) => `\\${char}`);
}

function filterConditions(filter: ProductFilter): SQL | undefined {
  const conditions: (SQL | undefined)[] = [isNull(products.archivedAt)];
  if (filter.category) conditions.push(eq(products.category, filter.category));
  if (filter.dealsOnly) conditions.push(eq(products.isDeal, true));
  if (filter.featuredOnly) conditions.push(eq(products.isFeatured, true));
  if (filter.strains) {
    conditions.push(filter.strains.length ? inArray(products.strain, [...filter.strains]) : sql`false`);
  }
  if (filter.search) {
    conditions.push(sql`${products.name} ILIKE ${`%${escapeLike(filter.search)}%`}`);
  }
  if (filter.onSaleOnly) {
    conditions.push(
      sql`EXISTS (SELECT 1 FROM ${productSizes} WHERE ${productSizes.productId} = ${products.id} AND ${productSizes.salePriceCents} > 0 AND ${productSizes.salePriceCents} < ${productSizes.priceCents})`,
    );
  }
  return and(...conditions);
}

/** One page of products matching a filter, newest first, and how many match in all. */
export async function findProducts(
  filter: ProductFilter,
  { limit, offset = 0 }: { limit: number; offset?: number },
): Promise<{ products: ProductView[]; total: number }> {
  const database = await db();
  const where = filterConditions(filter);
  const [rows, [counted]] = await Promise.all([
    database
      .select()
      .from(products)
      .where(where)
      .orderBy(...NEWEST_FIRST)
      .limit(limit)
      .offset(offset),
    database.select({ total: count() }).from(products).where(where),
  ]);
  return { products: await withSizes(rows), total: counted?.total ?? 0 };
}

/** One product with its sizes, or undefined when missing, archived or the id is not a UUID. */
export async function getProduct(id: string): Promise<ProductView | undefined> {
  if (!UUID.test(id)) return undefined;
  return liveProduct(eq(products.id, id));
}

/** The one product, not archived, that `condition` picks, with its sizes. */
async function liveProduct(condition: SQL): Promise<ProductView | undefined> {
  const database = await db();
  const rows = await database
    .select()
    .from(products)
    .where(and(condition, isNull(products.archivedAt)))
    .limit(1);
  const [product] = await withSizes(rows);
  return product;
}

const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/**
 * What `/product/{key}` shows (record 028): the product whose slug is `key`; or, for its id (the
 * old UUID URLs) or a slug it had before a rename, the slug to redirect to; or not found.
 */
export async function findProductPage(
  key: string,
): Promise<{ product: ProductView } | { redirectTo: string } | undefined> {
  const database = await db();
  if (SLUG.test(key) && key.length <= 200) {
    const product = await liveProduct(eq(products.slug, key));
    if (product) return { product };
  }
  const [moved] = UUID.test(key)
    ? await database
        .select({ slug: products.slug })
        .from(products)
        .where(and(eq(products.id, key), isNull(products.archivedAt)))
        .limit(1)
    : SLUG.test(key)
      ? await database
          .select({ slug: products.slug })
          .from(productSlugs)
          .innerJoin(products, eq(products.id, productSlugs.productId))
          .where(and(eq(productSlugs.slug, key), isNull(products.archivedAt)))
          .limit(1)
      : [];
  return moved ? { redirectTo: productPath(moved) } : undefined;
}

/** Slugs and last changes of every product in the shop, for sitemap.xml. */
export async function listProductSitemapEntries(): Promise<{ slug: string; updatedAt: Date }[]> {
  const database = await db();
  return database
    .select({ slug: products.slug, updatedAt: products.updatedAt })
    .from(products)
    .where(isNull(products.archivedAt))
    .orderBy(...NEWEST_FIRST);
}
