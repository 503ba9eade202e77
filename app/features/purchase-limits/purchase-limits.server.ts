/**
 * The purchase limits settings (P-28) in `store_settings`, and the start-up fill of sizes
 * saved before sizes carried a weight.
 */
import { eq, isNull, sql } from "drizzle-orm";
import { db, type Executor } from "#app/db/client.server.ts";
import { productSizes, products } from "#app/db/schema.ts";
import {
  readStoreSetting,
  type SettingsSaveOptions,
  saveStoreSetting,
} from "#app/features/settings/store-settings.server.ts";
import { log } from "#app/utils/logger.server.ts";
import { storedLimits } from "./purchase-limits.schema.ts";
import { estimateFlowerEquivalentMg, type PurchaseLimitSettings } from "./purchase-limits.ts";

/** The `store_settings` key of the limits. */
export const PURCHASE_LIMITS_KEY = "purchase_limits";

export async function getPurchaseLimitSettings(executor?: Executor): Promise<PurchaseLimitSettings> {
  return storedLimits(await readStoreSetting(PURCHASE_LIMITS_KEY, executor));
}

/**
 * Saves the limits. Product pages (cached, see app/server/page-cache.server.ts) stop the quantity
 * stepper at the per-size cap, so a new cap marks the catalogue changed, as a price change does.
 */
export async function savePurchaseLimitSettings(
  settings: PurchaseLimitSettings,
  options: SettingsSaveOptions = {},
) {
  await saveStoreSetting(PURCHASE_LIMITS_KEY, settings, {
    ...options,
    action: "settings.limits_changed",
    before: getPurchaseLimitSettings,
    afterSave: async (tx, before) => {
      if (before?.maxQuantityPerSize === settings.maxQuantityPerSize) return;
      await tx.execute(sql`
        WITH bumped AS (
          UPDATE catalog_state SET version = version + 1, changed_at = now() WHERE id = 1 RETURNING version)
        SELECT pg_notify('catalog_changed', version::text) FROM bumped`);
    },
  });
  log.info("Purchase limits saved", {
    dcMg: settings.stateLimitsMg.DC,
    vaMg: settings.stateLimitsMg.VA,
    maxQuantityPerSize: settings.maxQuantityPerSize,
  });
}

/**
 * Gives every size without a weight the one its label and the owner's equivalences give it (the
 * rule the demo seed uses), so the limits apply to sizes saved before they existed. Idempotent:
 * it only touches sizes whose weight is null.
 */
export async function fillMissingFlowerEquivalents(executor?: Executor): Promise<number> {
  const database = executor ?? (await db());
  const missing = await database
    .select({ productId: productSizes.productId })
    .from(productSizes)
    .where(isNull(productSizes.flowerEquivalentMg));
  if (missing.length === 0) return 0;
  const { equivalences } = await getPurchaseLimitSettings(database);
  const productIds = [...new Set(missing.map((row) => row.productId))];
  let filled = 0;
  for (const productId of productIds) {
    const [product] = await database
      .select({ category: products.category, thcMg: products.thcMg })
      .from(products)
      .where(eq(products.id, productId));
    if (!product) continue;
    const sizes = await database
      .select({ id: productSizes.id, size: productSizes.size, weight: productSizes.flowerEquivalentMg })
      .from(productSizes)
      .where(eq(productSizes.productId, productId));
    const labels = sizes.map((size) => size.size);
    for (const size of sizes) {
      if (size.weight !== null) continue;
      const weight = estimateFlowerEquivalentMg(
        { category: product.category, thcMg: product.thcMg, sizeLabel: size.size, productSizeLabels: labels },
        equivalences,
      );
      await database
        .update(productSizes)
        .set({ flowerEquivalentMg: weight })
        .where(sql`${productSizes.id} = ${size.id} AND ${productSizes.flowerEquivalentMg} IS NULL`);
      filled += 1;
    }
  }
  return filled;
}
