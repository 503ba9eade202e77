/**
 * Reading orders. The storefront sees an order only through its unguessable public token
 * (P-11); the admin side reads by id behind its guard.
 */
import { asc, eq } from "drizzle-orm";
import { db, type Executor } from "#app/db/client.server.ts";
import { type OrderStatus, orderItems, orderStatusEvents, orders } from "#app/db/schema.ts";

/** An order line as every view shows it (confirmation page, admin, e-mails), from the table. */
export type OrderItemView = Pick<
  typeof orderItems.$inferSelect,
  | "id"
  | "productId"
  | "productSizeId"
  | "productName"
  | "sizeLabel"
  | "imageUrl"
  | "quantity"
  | "unitPriceCents"
  | "totalPriceCents"
>;

export type OrderView = {
  id: string;
  publicToken: string;
  status: OrderStatus;
  customerName: string;
  userEmail: string;
  phone: string;
  street: string;
  city: string;
  state: string;
  zipCode: string;
  deliveryAddress: string;
  deliveryDate: string;
  deliveryTime: string;
  totalAmountCents: number;
  /** 'I'll pay with' in cents (P-24), when the shopper gave one. */
  payWithCents: number | null;
  notes: string | null;
  quantity: number;
  hasIdPhoto: boolean;
  cancelReason: string | null;
  createdAt: string;
  items: OrderItemView[];
};

/** One step of an order's timeline (P-23): 'placed' is the order's own creation. */
export type OrderTimelineStep = { status: OrderStatus; at: string; cancelReason: string | null };

/** What every view of an order shows: the customer, the delivery, the total (e-mails, admin cards). */
export type OrderSummary = Pick<
  OrderView,
  | "id"
  | "customerName"
  | "userEmail"
  | "phone"
  | "deliveryAddress"
  | "deliveryDate"
  | "deliveryTime"
  | "totalAmountCents"
  | "notes"
>;

/** The order a customer's page names in `?order=` (its token), or null. */
export function getOrderOfRequest(request: Request) {
  return getOrderByToken(new URL(request.url).searchParams.get("order"));
}

/** Tokens are 32 base64url characters; anything else cannot be one, so it is not even looked up. */
export const ORDER_TOKEN_PATTERN = /^[A-Za-z0-9_-]{32}$/;

async function orderWithItems(executor: Executor, row: typeof orders.$inferSelect): Promise<OrderView> {
  const items = await executor
    .select()
    .from(orderItems)
    .where(eq(orderItems.orderId, row.id))
    .orderBy(asc(orderItems.productName), asc(orderItems.id));
  return {
    id: row.id,
    publicToken: row.publicToken,
    status: row.status,
    customerName: row.customerName,
    userEmail: row.userEmail,
    phone: row.phone,
    street: row.street,
    city: row.city,
    state: row.state,
    zipCode: row.zipCode,
    deliveryAddress: row.deliveryAddress,
    deliveryDate: row.deliveryDate,
    deliveryTime: row.deliveryTime,
    totalAmountCents: row.totalAmountCents,
    payWithCents: row.payWithCents,
    notes: row.notes,
    quantity: row.quantity,
    hasIdPhoto: row.idPhotoId !== null,
    cancelReason: row.cancelReason,
    createdAt: row.createdAt.toISOString(),
    items: items.map((item) => ({
      id: item.id,
      productId: item.productId,
      productSizeId: item.productSizeId,
      productName: item.productName,
      sizeLabel: item.sizeLabel,
      imageUrl: item.imageUrl,
      quantity: item.quantity,
      unitPriceCents: item.unitPriceCents,
      totalPriceCents: item.totalPriceCents,
    })),
  };
}

/** The order behind a thank-you link, or null for a missing or unknown token. */
export async function getOrderByToken(token: string | null | undefined): Promise<OrderView | null> {
  if (!token || !ORDER_TOKEN_PATTERN.test(token)) return null;
  const database = await db();
  const [row] = await database.select().from(orders).where(eq(orders.publicToken, token)).limit(1);
  return row ? orderWithItems(database, row) : null;
}

/** An order by id with its items (admin side; the caller must be an admin). */
export async function getOrderById(id: string, executor?: Executor): Promise<OrderView | null> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const database = executor ?? (await db());
  const [row] = await database.select().from(orders).where(eq(orders.id, id)).limit(1);
  return row ? orderWithItems(database, row) : null;
}

/** An order by id with its items and the driver it is assigned to: what a status change reads. */
export async function getOrderForStatusChange(
  id: string,
  executor?: Executor,
): Promise<(OrderView & { driverId: string | null; smsOptIn: boolean }) | null> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const database = executor ?? (await db());
  const [row] = await database.select().from(orders).where(eq(orders.id, id)).limit(1);
  return row
    ? { ...(await orderWithItems(database, row)), driverId: row.driverId, smsOptIn: row.smsOptIn }
    : null;
}

export async function getOrderByIdempotencyKey(executor: Executor, key: string) {
  const [row] = await executor
    .select({ id: orders.id, publicToken: orders.publicToken })
    .from(orders)
    .where(eq(orders.idempotencyKey, key))
    .limit(1);
  return row ?? null;
}

/**
 * The order's status changes, oldest first, starting with its placing ('pending' at its creation):
 * written by `change_order_status` in the same transaction as each change.
 */
export async function getOrderTimeline(
  order: Pick<OrderView, "id" | "createdAt">,
  executor?: Executor,
): Promise<OrderTimelineStep[]> {
  const database = executor ?? (await db());
  const rows = await database
    .select({
      status: orderStatusEvents.status,
      createdAt: orderStatusEvents.createdAt,
      cancelReason: orderStatusEvents.cancelReason,
    })
    .from(orderStatusEvents)
    .where(eq(orderStatusEvents.orderId, order.id))
    .orderBy(asc(orderStatusEvents.id));
  return [
    { status: "pending", at: order.createdAt, cancelReason: null },
    ...rows.map((row) => ({
      status: row.status,
      at: row.createdAt.toISOString(),
      cancelReason: row.cancelReason,
    })),
  ];
}
