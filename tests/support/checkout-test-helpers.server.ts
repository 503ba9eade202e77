/** Shared by the checkout, order, ID photo and e-mail tests: real rows, real requests, real images. */

import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import sharp from "sharp";
import { db, type Executor } from "#app/db/client.server.ts";
import { rowsOf } from "#app/db/rows.ts";
import { orders, productSizes } from "#app/db/schema.ts";
import { insertProduct } from "#app/features/catalog/product-factory.server.ts";
import type { PlaceOrderInput } from "#app/features/checkout/place-order.server.ts";
import { availableSlots } from "#app/features/delivery/delivery-slots.ts";
import { storeClock } from "#app/utils/store-time.ts";
import { formDataOf } from "./form-data.ts";

/** Monday 23 Nov 2026, 9:00 AM in New York: every slot of the day is still open. */
export const MONDAY_MORNING = new Date("2026-11-23T14:00:00Z");

/** One product with one size, through the factory the seed uses. */
export async function insertTestProduct(
  executor: Executor,
  options: {
    name?: string;
    priceCents?: number;
    salePriceCents?: number | null;
    inventoryCount?: number;
    size?: string;
  } = {},
) {
  const product = await insertProduct(executor, {
    name: options.name,
    category: "Flower",
    imageUrl: "https://images.example/test.jpg",
    sizes: [
      {
        size: options.size ?? "3.5g",
        priceCents: options.priceCents ?? 4000,
        salePriceCents: options.salePriceCents ?? null,
        inventoryCount: options.inventoryCount ?? 100,
      },
    ],
  });
  const size = product.sizes[0];
  if (!size) throw new Error("no size");
  return { productId: product.id, sizeId: size.id, name: product.name };
}

let cachedPng: Uint8Array | undefined;

/** A small real PNG. */
export async function testPng() {
  cachedPng ??= new Uint8Array(
    await sharp({ create: { width: 64, height: 40, channels: 3, background: "#2f7553" } })
      .png()
      .toBuffer(),
  );
  return cachedPng;
}

let shoppers = 0;

/**
 * A shopper of their own for each order: an e-mail address, a phone number and a client address no
 * other order of the run has, so the open-orders limit and the per-address budgets (P-29)
 * apply to the tests that check them, not to every test that places orders.
 */
export function newShopper() {
  shoppers += 1;
  const n = shoppers;
  return {
    email: `shopper${n}@example.com`,
    phone: `(202) ${String(200 + Math.floor(n / 10_000))}-${String(n % 10_000).padStart(4, "0")}`,
    clientAddress: `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
  };
}

export function orderFields(
  items: { productId: string; sizeId: string; quantity: number }[],
  overrides: Record<string, string> = {},
  now = MONDAY_MORNING,
) {
  const date = storeClock(now).date;
  const shopper = newShopper();
  return {
    name: "Ada Shopper",
    email: shopper.email,
    phone: shopper.phone,
    address: "1600 Example Ave NW",
    city: "Washington",
    state: "DC",
    zipCode: "20001",
    notes: "",
    deliveryDate: date,
    timeSlot: availableSlots(date, now)[0] ?? "",
    ageConfirmed: "on",
    idempotencyKey: crypto.randomUUID(),
    items: JSON.stringify(items),
    ...overrides,
  };
}

/** The input placeOrder takes, for the same order; `overrides` replaces any of its fields. */
export function placeOrderInput(
  items: { productId: string; sizeId: string; quantity: number }[],
  overrides: Partial<Omit<PlaceOrderInput, "items">> = {},
  now = MONDAY_MORNING,
): PlaceOrderInput {
  const date = storeClock(now).date;
  const shopper = newShopper();
  const given = Object.fromEntries(Object.entries(overrides).filter(([, value]) => value !== undefined));
  return {
    name: "Ada Shopper",
    email: shopper.email,
    phone: shopper.phone,
    address: "1600 Example Ave NW",
    city: "Washington",
    state: "DC" as const,
    zipCode: "20001",
    notes: null,
    deliveryDate: date,
    timeSlot: availableSlots(date, now)[0] as string,
    idempotencyKey: crypto.randomUUID(),
    idPhotoId: null,
    ...given,
    items,
  };
}

/** The ID photo a test attaches to a checkout post: the small real PNG above. */
export async function testIdPhoto() {
  return { bytes: await testPng(), name: "id.png", type: "image/png" };
}

/**
 * A file that starts like a PNG but cannot be decoded: a refusal that names it unreadable shows the
 * photo was read.
 */
export function undecodablePhoto() {
  const signature = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);
  return { bytes: Buffer.concat([signature, randomBytes(4096)]), name: "id.png", type: "image/png" };
}

/** A size's stock on hand. */
export async function stockOf(db: Executor, sizeId: string) {
  const [row] = await db
    .select({ count: productSizes.inventoryCount })
    .from(productSizes)
    .where(eq(productSizes.id, sizeId));
  return row?.count;
}

/** A size's stock on hand in the database the suite installed (`describeEachDatabase`). */
export async function stockLeft(sizeId: string) {
  return stockOf(await db(), sizeId);
}

/** The stored row of the order a checkout placed, found by the token its answer carries. */
export async function placedOrderRow(token: string) {
  const [row] = await (await db()).select().from(orders).where(eq(orders.publicToken, token));
  if (!row) throw new Error(`no order with token ${token}`);
  return row;
}

/** A checkout's items: one of the product's size. */
export function oneOf(product: { productId: string; sizeId: string }) {
  return [{ productId: product.productId, sizeId: product.sizeId, quantity: 1 }];
}

/** A multipart checkout post, as a browser would send it. */
export function checkoutRequest(
  fields: Record<string, string>,
  file: { bytes: Uint8Array; name: string; type: string } | null,
) {
  const form = formDataOf(fields);
  if (file) form.append("idFront", new File([file.bytes as BlobPart], file.name, { type: file.type }));
  return new Request("http://localhost/checkout", { method: "POST", body: form });
}

/** Slots whose counter row (drizzle/0014) differs from a count of the orders holding a place in them. */
export async function slotBookingsDrift(db: Executor) {
  const result = await db.execute(sql`SELECT delivery_date, delivery_time, b.booked, o.n
    FROM delivery_slot_bookings b
    FULL JOIN (SELECT delivery_date, delivery_time, count(*)::int AS n FROM orders WHERE status <> 'cancelled'
      GROUP BY delivery_date, delivery_time) o USING (delivery_date, delivery_time)
    WHERE coalesce(b.booked, 0) <> coalesce(o.n, 0)`);
  return rowsOf(result);
}
