/**
 * Placing an order (spec §4 'Order sequence on submit', decisions 7–10 and 12), all or nothing in
 * one transaction: prices come from the database, stock is decremented conditionally (never below
 * 0), the order and its item snapshots are written, the dashboard's running totals move, and both
 * e-mails are queued. The idempotency key makes a double submit return the first order.
 */
import { randomBytes } from "node:crypto";
import { and, eq, gte, inArray, sql } from "drizzle-orm";
import { db, type Transaction } from "#app/db/client.server.ts";
import {
  orderDailyStats,
  orderItems,
  orderStatusCounts,
  orders,
  productSizes,
  products,
} from "#app/db/schema.ts";
import { unitPriceCents } from "#app/features/catalog/catalog.ts";
import type { CartLineInput, CheckoutInput } from "#app/features/checkout/checkout.schema.ts";
import { deliveryChoiceProblem, storeDay } from "#app/features/checkout/delivery-slots.ts";
import { MIN_ORDER_CENTS } from "#app/features/checkout/limits.ts";
import { queueOrderEmails, wakeEmailWorker } from "#app/features/email/email-outbox.server.ts";
import { log } from "#app/utils/logger.server.ts";
import { getOrderByIdempotencyKey } from "./orders.server.ts";

export type PlaceOrderInput = Omit<CheckoutInput, "ageConfirmed"> & {
  /** The stored, re-encoded ID photo, or null when none could be stored. */
  idPhotoId: string | null;
};

export type PlacedOrder = { id: string; publicToken: string; totalAmountCents: number };

export type PlaceOrderRefusal =
  | { ok: false; reason: "empty-cart" }
  | { ok: false; reason: "delivery"; field: "deliveryDate" | "timeSlot"; message: string }
  | { ok: false; reason: "unavailable"; itemName: string | null }
  | { ok: false; reason: "out-of-stock"; itemName: string }
  | { ok: false; reason: "minimum"; totalCents: number };

export type PlaceOrderResult = { ok: true; order: PlacedOrder; replayed: boolean } | PlaceOrderRefusal;

class Refused extends Error {
  readonly refusal: PlaceOrderRefusal;
  constructor(refusal: PlaceOrderRefusal) {
    super(refusal.reason);
    this.refusal = refusal;
  }
}

class DuplicateSubmit extends Error {}

export function newOrderToken() {
  return randomBytes(24).toString("base64url");
}

/** Lines for the same size are one line: stock and prices are checked once per size. */
export function mergeCartLines(lines: CartLineInput[]) {
  const bySize = new Map<string, CartLineInput>();
  for (const line of lines) {
    const existing = bySize.get(line.sizeId);
    if (existing) existing.quantity += line.quantity;
    else bySize.set(line.sizeId, { ...line });
  }
  // A fixed lock order (by size id) keeps concurrent checkouts from deadlocking each other.
  return [...bySize.values()].sort((a, b) => (a.sizeId < b.sizeId ? -1 : 1));
}

function itemDisplayName(name: string, size: string) {
  return `${name} (${size})`;
}

export async function placeOrder(
  input: PlaceOrderInput,
  options: { now?: Date } = {},
): Promise<PlaceOrderResult> {
  const now = options.now ?? new Date();
  const database = await db();

  const replay = await getOrderByIdempotencyKey(database, input.idempotencyKey);
  if (replay) return { ok: true, order: await placedOrder(replay.id), replayed: true };

  const lines = mergeCartLines(input.items);
  if (lines.length === 0) return { ok: false, reason: "empty-cart" };
  const delivery = deliveryChoiceProblem(input.deliveryDate, input.timeSlot, now);
  if (delivery) return { ok: false, reason: "delivery", ...delivery };

  try {
    const order = await database.transaction((tx) => writeOrder(tx, input, lines, now));
    log.info("Order placed", { orderId: order.id, totalCents: order.totalAmountCents, lines: lines.length });
    wakeEmailWorker();
    return { ok: true, order, replayed: false };
  } catch (error) {
    if (error instanceof Refused) return error.refusal;
    if (error instanceof DuplicateSubmit) {
      const first = await getOrderByIdempotencyKey(database, input.idempotencyKey);
      if (first) return { ok: true, order: await placedOrder(first.id), replayed: true };
    }
    throw error;
  }
}

async function placedOrder(id: string): Promise<PlacedOrder> {
  const database = await db();
  const [row] = await database
    .select({ id: orders.id, publicToken: orders.publicToken, totalAmountCents: orders.totalAmountCents })
    .from(orders)
    .where(eq(orders.id, id));
  if (!row) throw new Error(`Order ${id} vanished`);
  return row;
}

async function writeOrder(
  tx: Transaction,
  input: PlaceOrderInput,
  lines: CartLineInput[],
  now: Date,
): Promise<PlacedOrder> {
  const sizeRows = await tx
    .select({
      sizeId: productSizes.id,
      productId: productSizes.productId,
      size: productSizes.size,
      priceCents: productSizes.priceCents,
      salePriceCents: productSizes.salePriceCents,
      productName: products.name,
      imageUrl: products.imageUrl,
      archivedAt: products.archivedAt,
    })
    .from(productSizes)
    .innerJoin(products, eq(products.id, productSizes.productId))
    .where(
      inArray(
        productSizes.id,
        lines.map((line) => line.sizeId),
      ),
    );
  const bySize = new Map(sizeRows.map((row) => [row.sizeId, row]));

  // Every line must name a size of the product it claims, still on sale in the shop.
  for (const line of lines) {
    const row = bySize.get(line.sizeId);
    if (!row || row.productId !== line.productId || row.archivedAt !== null) {
      throw new Refused({
        ok: false,
        reason: "unavailable",
        itemName: row ? itemDisplayName(row.productName, row.size) : null,
      });
    }
  }

  const estimate = lines.reduce((sum, line) => {
    const row = bySize.get(line.sizeId) as (typeof sizeRows)[number];
    return sum + unitPriceCents(row) * line.quantity;
  }, 0);
  if (estimate < MIN_ORDER_CENTS) throw new Refused({ ok: false, reason: "minimum", totalCents: estimate });

  // Conditional decrement: the row lock serialises concurrent buyers, the WHERE keeps stock >= 0,
  // and the prices read back are the ones under that lock.
  const priced = [];
  for (const line of lines) {
    const row = bySize.get(line.sizeId) as (typeof sizeRows)[number];
    const [locked] = await tx
      .update(productSizes)
      .set({ inventoryCount: sql`${productSizes.inventoryCount} - ${line.quantity}` })
      .where(and(eq(productSizes.id, line.sizeId), gte(productSizes.inventoryCount, line.quantity)))
      .returning({
        size: productSizes.size,
        priceCents: productSizes.priceCents,
        salePriceCents: productSizes.salePriceCents,
      });
    if (!locked) {
      throw new Refused({
        ok: false,
        reason: "out-of-stock",
        itemName: itemDisplayName(row.productName, row.size),
      });
    }
    const unit = unitPriceCents(locked);
    priced.push({ line, row, sizeLabel: locked.size, unit, total: unit * line.quantity });
  }
  const totalCents = priced.reduce((sum, item) => sum + item.total, 0);
  if (totalCents < MIN_ORDER_CENTS) throw new Refused({ ok: false, reason: "minimum", totalCents });

  const first = priced[0] as (typeof priced)[number];
  const deliveryAddress = `${input.address}, ${input.city}, ${input.state} ${input.zipCode}`;
  const [order] = await tx
    .insert(orders)
    .values({
      publicToken: newOrderToken(),
      idempotencyKey: input.idempotencyKey,
      status: "pending",
      statusChangedAt: now,
      userEmail: input.email,
      customerName: input.name,
      phone: input.phone,
      street: input.address,
      city: input.city,
      state: input.state,
      zipCode: input.zipCode,
      deliveryAddress,
      deliveryDate: input.deliveryDate,
      deliveryTime: input.timeSlot,
      totalAmountCents: totalCents,
      notes: input.notes,
      idPhotoId: input.idPhotoId,
      productId: first.line.productId,
      quantity: priced.reduce((sum, item) => sum + item.line.quantity, 0),
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing({ target: orders.idempotencyKey })
    .returning({ id: orders.id, publicToken: orders.publicToken });
  // Another request with the same key won the race: this one rolls back and returns that order.
  if (!order) throw new DuplicateSubmit();

  await tx.insert(orderItems).values(
    priced.map((item) => ({
      orderId: order.id,
      productId: item.line.productId,
      productSizeId: item.line.sizeId,
      productName: item.row.productName,
      sizeLabel: item.sizeLabel,
      imageUrl: item.row.imageUrl,
      quantity: item.line.quantity,
      unitPriceCents: item.unit,
      totalPriceCents: item.total,
    })),
  );

  await tx
    .insert(orderDailyStats)
    .values({ day: storeDay(now), ordersCount: 1, revenueCents: totalCents })
    .onConflictDoUpdate({
      target: orderDailyStats.day,
      set: {
        ordersCount: sql`${orderDailyStats.ordersCount} + 1`,
        revenueCents: sql`${orderDailyStats.revenueCents} + ${totalCents}`,
      },
    });
  await tx
    .insert(orderStatusCounts)
    .values({ status: "pending", ordersCount: 1 })
    .onConflictDoUpdate({
      target: orderStatusCounts.status,
      set: { ordersCount: sql`${orderStatusCounts.ordersCount} + 1` },
    });

  await queueOrderEmails(
    tx,
    {
      id: order.id,
      publicToken: order.publicToken,
      customerName: input.name,
      userEmail: input.email,
      phone: input.phone,
      deliveryAddress,
      deliveryDate: input.deliveryDate,
      deliveryTime: input.timeSlot,
      totalAmountCents: totalCents,
      notes: input.notes,
      hasIdPhoto: input.idPhotoId !== null,
      items: priced.map((item) => ({
        productName: item.row.productName,
        sizeLabel: item.sizeLabel,
        quantity: item.line.quantity,
        unitPriceCents: item.unit,
        totalPriceCents: item.total,
      })),
    },
    { now },
  );

  return { id: order.id, publicToken: order.publicToken, totalAmountCents: totalCents };
}
