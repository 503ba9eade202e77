/**
 * Seeds the demo catalogue into a new shop: products, sizes and drawn product images. Once in the
 * life of a database (record 028): a flag in `store_settings` records it, so a shop whose owner
 * deleted every demo product is not seeded again at the next start. Never touches a shop that
 * already has products.
 */
import { availableParallelism } from "node:os";
import { eq, sql } from "drizzle-orm";
import type { Database, Executor } from "#app/db/client.server.ts";
import { products, storeSettings } from "#app/db/schema.ts";
import { productArtworkSvg } from "#app/demo/artwork.server.ts";
import { insertProducts } from "#app/features/catalog/product-factory.server.ts";
import { type StoredImage, storeProductArtwork } from "#app/features/media/images.server.ts";
import { getPurchaseLimitSettings } from "#app/features/purchase-limits/purchase-limits.server.ts";
import { estimateFlowerEquivalentMg } from "#app/features/purchase-limits/purchase-limits.ts";
import { DEMO_PRODUCT_COUNT, demoProducts } from "./demo-catalog.ts";

export type SeedOptions = {
  /** How many products (default 64; more gives generated variants). */
  count?: number;
  /** Progress messages, e.g. the app's logger. */
  log?: (message: string, fields?: Record<string, unknown>) => void;
  /** Images rendered at once (default: the number of cores, at most 4). */
  concurrency?: number;
  /** The moment the newest product was "added" (default: now). */
  now?: Date;
};

export type SeedResult = { seeded: number; images: number; ms: number };

/** The `store_settings` key set once the demo catalogue was seeded (or found products to keep). */
export const DEMO_SEEDED_KEY = "demo-catalogue-seeded";

async function hasProducts(executor: Executor) {
  const rows = await executor.select({ id: products.id }).from(products).limit(1);
  return rows.length > 0;
}

async function wasSeeded(executor: Executor) {
  const rows = await executor
    .select({ key: storeSettings.key })
    .from(storeSettings)
    .where(eq(storeSettings.key, DEMO_SEEDED_KEY))
    .limit(1);
  return rows.length > 0;
}

async function markSeeded(executor: Executor, seeded: number, now: Date) {
  await executor
    .insert(storeSettings)
    .values({ key: DEMO_SEEDED_KEY, value: { at: now.toISOString(), products: seeded }, updatedAt: now })
    .onConflictDoNothing();
}

/** Runs `task` over `items` with at most `limit` at a time, keeping the order of results. */
async function mapWithConcurrency<T, R>(items: T[], limit: number, task: (item: T) => Promise<R>) {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}

/**
 * Fills an empty shop with the demo catalogue; does nothing (seeded: 0) when any product exists.
 * Images are stored first (content-addressed, so a repeat is harmless), then every product and
 * size is inserted in one transaction that checks again that the shop is still empty.
 */
export async function seedDemoCatalogue(database: Database, options: SeedOptions = {}): Promise<SeedResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  if ((await wasSeeded(database)) || (await hasProducts(database))) {
    await markSeeded(database, 0, options.now ?? new Date());
    return { seeded: 0, images: 0, ms: elapsed() };
  }

  const list = demoProducts(options.count ?? DEMO_PRODUCT_COUNT);
  const concurrency = options.concurrency ?? Math.min(4, availableParallelism());
  // Identical artwork (possible among generated variants) is rendered and stored once.
  const rendered = new Map<string, Promise<StoredImage>>();
  const images = await mapWithConcurrency(list, concurrency, (product) => {
    const svg = productArtworkSvg(product);
    let stored = rendered.get(svg);
    if (!stored) {
      stored = storeProductArtwork(database, svg);
      rendered.set(svg, stored);
    }
    return stored;
  });
  options.log?.("Rendered the demo product images", { images: rendered.size, ms: elapsed() });

  const now = (options.now ?? new Date()).getTime();
  const seeded = await database.transaction(async (tx) => {
    // Two app instances starting together on one PostgreSQL database seed once.
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('capital-grown:seed-demo-catalogue'))`);
    if ((await wasSeeded(tx)) || (await hasProducts(tx))) return 0;
    const { equivalences } = await getPurchaseLimitSettings(tx);
    await insertProducts(
      tx,
      list.map((product, index) => {
        const createdAt = new Date(now - product.ageMinutes * 60_000);
        const image = images[index] as StoredImage;
        return {
          name: product.name,
          description: product.description,
          category: product.category,
          strain: product.strain,
          thcPercentage: product.thcPercentage,
          thcMg: product.thcMg,
          isFeatured: product.isFeatured,
          isDeal: product.isDeal,
          imageUrl: image.imageUrl,
          imageKey: image.imageKey,
          createdAt,
          updatedAt: createdAt,
          // Weighed by label with the owner's equivalences (P-28).
          sizes: product.sizes.map((size) => ({
            ...size,
            flowerEquivalentMg: estimateFlowerEquivalentMg(
              {
                category: product.category,
                thcMg: product.thcMg,
                sizeLabel: size.size,
                productSizeLabels: product.sizes.map((entry) => entry.size),
              },
              equivalences,
            ),
          })),
        };
      }),
    );
    await markSeeded(tx, list.length, new Date(now));
    return list.length;
  });
  return { seeded, images: rendered.size, ms: elapsed() };
}
