/**
 * Low stock (record 028): sizes of products in the shop with as many units as
 * their own threshold or fewer, sold-out first. The dashboard panel lists them, and a digest e-mail
 * goes to the shop once a day at opening time, however many instances share the database.
 */
import { and, asc, eq, isNull, lte, sql } from "drizzle-orm";
import { db, type Executor } from "#app/db/client.server.ts";
import { emailOutbox, productSizes, products } from "#app/db/schema.ts";
import { outboxRow, storeEmailSettings, wakeEmailWorker } from "#app/features/email/email-outbox.server.ts";
import { type NotToday, onceAStoreDay } from "#app/features/settings/daily-claim.server.ts";
import { config } from "#app/utils/env.server.ts";
import { log } from "#app/utils/logger.server.ts";
import { startDigestJob } from "#app/utils/periodic-job.server.ts";
import { lowStockDigestEmail } from "./low-stock-email.server.tsx";

export type LowStockSize = {
  productId: string;
  productName: string;
  sizeId: string;
  size: string;
  inventoryCount: number;
  lowStockThreshold: number;
};

/** Sizes at or below their threshold, sold-out first, then fewest left, then by name. */
export async function listLowStock(executor?: Executor, options: { limit?: number } = {}) {
  const database = executor ?? (await db());
  const where = and(
    isNull(products.archivedAt),
    lte(productSizes.inventoryCount, productSizes.lowStockThreshold),
  );
  const [rows, [counted]] = await Promise.all([
    database
      .select({
        productId: products.id,
        productName: products.name,
        sizeId: productSizes.id,
        size: productSizes.size,
        inventoryCount: productSizes.inventoryCount,
        lowStockThreshold: productSizes.lowStockThreshold,
      })
      .from(productSizes)
      .innerJoin(products, eq(products.id, productSizes.productId))
      .where(where)
      .orderBy(
        asc(productSizes.inventoryCount),
        asc(products.name),
        asc(productSizes.position),
        asc(productSizes.id),
      )
      .limit(options.limit ?? 500),
    database
      .select({ total: sql<number>`count(*)::int` })
      .from(productSizes)
      .innerJoin(products, eq(products.id, productSizes.productId))
      .where(where),
  ]);
  return { sizes: rows as LowStockSize[], total: Number(counted?.total ?? 0) };
}

/** The `store_settings` key recording the last store day a digest was decided on. */
export const LOW_STOCK_DIGEST_KEY = "low-stock-digest";

export type DigestOutcome =
  | { sent: true; day: string; sizes: number }
  | NotToday
  | { sent: false; reason: "nothing-low"; day: string };

/**
 * The day's digest, once: from its due time on, the first call of the store day claims the day in
 * `store_settings` (one statement, so of several instances or concurrent runs exactly one wins) and,
 * in the same transaction, queues the e-mail when anything is low. Nothing low: no e-mail that day.
 */
export async function sendLowStockDigestIfDue(
  options: { now?: Date; setting?: string; to?: string } = {},
): Promise<DigestOutcome> {
  const now = options.now ?? new Date();
  const setting = options.setting ?? config().LOW_STOCK_DIGEST_TIME;
  const outcome = await onceAStoreDay(
    { key: LOW_STOCK_DIGEST_KEY, setting, now },
    async (tx, date): Promise<DigestOutcome> => {
      const { sizes, total } = await listLowStock(tx, { limit: 200 });
      if (sizes.length === 0) return { sent: false, reason: "nothing-low", day: date };
      const mail = await lowStockDigestEmail({ day: date, sizes, total }, storeEmailSettings());
      await tx
        .insert(emailOutbox)
        .values(outboxRow("low-stock-digest", options.to ?? config().ordersEmail, mail, now));
      return { sent: true, day: date, sizes: total };
    },
  );
  if (outcome.sent) wakeEmailWorker();
  return outcome;
}

/**
 * Checks every minute whether today's digest is due (LOW_STOCK_DIGEST_TIME). Every instance may run
 * it: the claim in `sendLowStockDigestIfDue` lets one of them send.
 */
export function startLowStockDigestJob(options: { intervalMs?: number } = {}) {
  return startDigestJob({
    ...options,
    time: config().LOW_STOCK_DIGEST_TIME,
    send: sendLowStockDigestIfDue,
    sent: (outcome) => log.info(`Low-stock digest queued: ${outcome.sizes} sizes`, { day: outcome.day }),
    failure: "The low-stock digest failed",
  });
}
