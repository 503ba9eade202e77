/**
 * Orders placed over HTTP the way a shopper's browser without JavaScript places them (a multipart
 * post of the checkout form with the ID photo): used by the crash, outage and outbox stories.
 */
import { sql } from "drizzle-orm";
import type { Executor } from "#app/db/client.server.ts";
import { MIN_ORDER_CENTS } from "#app/features/cart/cart.ts";
import { availableSlots, deliveryOptions } from "#app/features/delivery/delivery-slots.ts";
import { DEFAULT_PURCHASE_LIMITS } from "#app/features/purchase-limits/purchase-limits.ts";
import { orderFields, testPng } from "#tests/support/checkout-test-helpers.server.ts";
import { formDataOf } from "./form-data.ts";

export type OrderableSize = { productId: string; sizeId: string; unitCents: number };

/** The units of one size that reach the order minimum. */
const unitsForMinimum = (unitCents: number) => Math.max(1, Math.ceil(MIN_ORDER_CENTS / unitCents));

/** The smallest purchase limit of the states the shop delivers to, in flower-equivalent mg. */
const SMALLER_STATE_LIMIT_MG = Math.min(...Object.values(DEFAULT_PURCHASE_LIMITS.stateLimitsMg));

/**
 * Whether an order of one size alone, just above the $80 minimum, stays within the smaller state's
 * purchase limit (P-28), at a price between $10 and the minimum: a cheap large size (say 14 g
 * on sale, five of them) would be refused in any state.
 */
export function orderableAtMinimum(unitCents: number, flowerEquivalentMg: number | null) {
  return (
    unitCents >= 1000 &&
    unitCents <= MIN_ORDER_CENTS &&
    (flowerEquivalentMg ?? 0) * unitsForMinimum(unitCents) <= SMALLER_STATE_LIMIT_MG
  );
}

/**
 * Sizes with stock to spare, each to be ordered above the $80 minimum and within the smaller state's
 * purchase limit (`orderableAtMinimum`): which sizes come first depends on their random ids.
 */
export async function orderableSizes(executor: Executor, limit = 10): Promise<OrderableSize[]> {
  await executor.execute(sql`UPDATE product_sizes SET inventory_count = 1000000`);
  const result = await executor.execute(sql`
    SELECT product_id AS "productId", id AS "sizeId",
           coalesce(sale_price_cents, price_cents) AS "unitCents", flower_equivalent_mg AS "flowerEquivalentMg"
    FROM product_sizes ORDER BY id`);
  const sizes = (result as unknown as { rows: Array<OrderableSize & { flowerEquivalentMg: number | null }> })
    .rows;
  return sizes
    .filter((size) => orderableAtMinimum(size.unitCents, size.flowerEquivalentMg))
    .slice(0, limit)
    .map(({ productId, sizeId, unitCents }) => ({ productId, sizeId, unitCents }));
}

export type PlacedOrder = { token: string } | { refused: number; body: string; retryAfter?: string | null };

/**
 * Posts one order. Each order gets its own e-mail and phone so the open-orders limit never refuses
 * it. Resolves with the order's public token when the shop acknowledged it (a redirect to
 * /thank-you?order=…), otherwise with the status and body it answered.
 */
export async function postOrder(
  baseUrl: string,
  size: OrderableSize,
  shopper: number,
  options: { javascript?: boolean } = {},
): Promise<PlacedOrder> {
  const quantity = unitsForMinimum(size.unitCents);
  const now = new Date();
  const { defaultDate } = deliveryOptions(now);
  const fields = orderFields(
    [{ productId: size.productId, sizeId: size.sizeId, quantity }],
    {
      email: `shopper-${shopper}@example.com`,
      phone: `(202) 555-${String(shopper % 10000).padStart(4, "0")}`,
      deliveryDate: defaultDate,
      timeSlot: availableSlots(defaultDate, now)[0] ?? "",
    },
    now,
  );
  const form = formDataOf(options.javascript ? { ...fields, _client: "js" } : fields);
  form.append("idFront", new File([new Uint8Array(await testPng())], "id.png", { type: "image/png" }));
  // With JavaScript the page posts to the route's data URL (React Router's single fetch).
  const path = options.javascript ? "/checkout.data" : "/checkout";
  const response = await fetch(`${baseUrl}${path}`, { method: "POST", body: form, redirect: "manual" });
  const location = response.headers.get("location") ?? "";
  const match = /\/thank-you\?order=([\w-]+)/.exec(location);
  if (response.status >= 300 && response.status < 400 && match?.[1]) {
    await response.body?.cancel();
    return { token: match[1] };
  }
  return {
    refused: response.status,
    body: await response.text(),
    retryAfter: response.headers.get("retry-after"),
  };
}

/** A response body that shows a stack trace (a line like "    at fn (file.js:1:2)"). */
export function showsStack(body: string) {
  return /\n\s+at .+:\d+:\d+\)?/.test(body) || /node_modules|\.server\.ts|server\.ts:\d/.test(body);
}
