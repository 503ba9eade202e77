/**
 * The back office's view of orders: paginated lists (keyset on created_at, id, so page 5,000 is as
 * fast as page 1), status changes that keep the running totals and the stock right, and the
 * dashboard figures read from running totals instead of scanning every order.
 *
 * Rules written down (decision 9 and the lead's brief):
 * - Cancelling puts every item's quantity back on its size (if the size still exists).
 * - Moving a cancelled order to confirmed or delivered takes the items out of stock again; when
 *   the stock no longer covers it the change is refused with a message naming the item.
 * - Revenue excludes cancelled orders: cancelling subtracts the order total from its day's
 *   revenue, un-cancelling adds it back. Order counts include every order placed.
 */
import { and, asc, eq, gte, inArray, isNull, sql } from "drizzle-orm";
import { db, type Executor, type Transaction } from "#app/db/client.server.ts";
import { decodeCursor, encodeCursor, newestFirst, UUID } from "#app/db/keyset.ts";
import {
  type OrderStatus,
  orderDailyStats,
  orderItems,
  orderStatusCounts,
  orders,
  products,
} from "#app/db/schema.ts";
import { STORE_TIME_ZONE, storeDay } from "#app/utils/store-time.ts";
import type { OrderItemView, OrderSummary, OrderView } from "./orders.server.ts";

export const ORDERS_PAGE_SIZE = 20;

export type AdminOrderItem = Omit<OrderItemView, "productSizeId">;

export type AdminOrder = OrderSummary &
  Pick<OrderView, "status" | "quantity" | "createdAt"> & {
    /** Why a cancelled order was cancelled, when the shop recorded it ('not confirmed in time'). */
    cancelReason: string | null;
    idPhotoId: string | null;
    /** 'I'll pay with' in cents (decision 24), or null. */
    payWithCents: number | null;
    items: AdminOrderItem[];
  };

export type OrderScope = "incoming" | "completed";

export type OrdersPage = { orders: AdminOrder[]; nextCursor: string | null };

const SCOPE_STATUSES: Record<OrderScope, OrderStatus[]> = {
  incoming: ["pending", "confirmed", "cancelled"],
  completed: ["delivered"],
};

/** Incoming (not delivered) or completed (delivered) orders, newest first, one page at a time. */
export async function listOrders(
  scope: OrderScope,
  options: { cursor?: string | null; limit?: number; executor?: Executor } = {},
): Promise<OrdersPage> {
  const database = options.executor ?? (await db());
  const limit = Math.min(Math.max(options.limit ?? ORDERS_PAGE_SIZE, 1), 100);
  const after = decodeCursor(options.cursor);
  const statuses = SCOPE_STATUSES[scope];
  const rows = await database
    .select({
      id: orders.id,
      status: orders.status,
      customerName: orders.customerName,
      userEmail: orders.userEmail,
      phone: orders.phone,
      deliveryAddress: orders.deliveryAddress,
      deliveryDate: orders.deliveryDate,
      deliveryTime: orders.deliveryTime,
      totalAmountCents: orders.totalAmountCents,
      quantity: orders.quantity,
      notes: orders.notes,
      cancelReason: orders.cancelReason,
      idPhotoId: orders.idPhotoId,
      payWithCents: orders.payWithCents,
      createdAt: orders.createdAt,
      createdAtText: sql<string>`${orders.createdAt}::text`,
    })
    .from(orders)
    .where(
      and(
        statuses.length === 1
          ? eq(orders.status, statuses[0] as OrderStatus)
          : inArray(orders.status, statuses),
        after
          ? sql`(${orders.createdAt}, ${orders.id}) < (${after.createdAt}::timestamptz, ${after.id}::uuid)`
          : undefined,
      ),
    )
    .orderBy(...newestFirst(orders.createdAt, orders.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  const nextCursor = rows.length > limit && last ? encodeCursor(last.createdAtText, last.id) : null;
  const itemsByOrder = await itemsFor(
    database,
    page.map((row) => row.id),
  );
  return {
    orders: page.map(({ createdAtText: _text, createdAt, ...row }) => ({
      ...row,
      createdAt: createdAt.toISOString(),
      items: itemsByOrder.get(row.id) ?? [],
    })),
    nextCursor,
  };
}

async function itemsFor(executor: Executor, orderIds: string[]) {
  const byOrder = new Map<string, AdminOrderItem[]>();
  if (orderIds.length === 0) return byOrder;
  const rows = await executor
    .select({
      orderId: orderItems.orderId,
      id: orderItems.id,
      productId: orderItems.productId,
      productName: orderItems.productName,
      sizeLabel: orderItems.sizeLabel,
      imageUrl: orderItems.imageUrl,
      quantity: orderItems.quantity,
      unitPriceCents: orderItems.unitPriceCents,
      totalPriceCents: orderItems.totalPriceCents,
    })
    .from(orderItems)
    .where(inArray(orderItems.orderId, orderIds))
    .orderBy(asc(orderItems.productName), asc(orderItems.id));
  for (const { orderId, ...item } of rows) {
    const list = byOrder.get(orderId) ?? [];
    list.push(item);
    byOrder.set(orderId, list);
  }
  return byOrder;
}

export type SetStatusResult =
  | { ok: true; changed: boolean }
  | { ok: false; reason: "not-found" }
  | { ok: false; reason: "out-of-stock"; itemName: string };

class StockShort extends Error {
  readonly itemName: string;
  constructor(itemName: string) {
    super(`Not enough stock for ${itemName}`);
    this.itemName = itemName;
  }
}

export type StatusChangeOptions = {
  now?: Date;
  /** Recorded with a cancellation (the shop's own: 'not confirmed in time'); cleared otherwise. */
  cancelReason?: string;
  /** Change only an order still in one of these states (a job must not undo a staff decision). */
  onlyFrom?: OrderStatus[];
};

/** Sets an order's status (any state to any state, spec §4) in one transaction with its side effects. */
export async function setOrderStatus(
  orderId: string,
  status: OrderStatus,
  options: StatusChangeOptions = {},
): Promise<SetStatusResult> {
  if (!UUID.test(orderId)) return { ok: false, reason: "not-found" };
  const database = await db();
  try {
    return await database.transaction((tx) => changeOrderStatus(tx, orderId, status, options));
  } catch (error) {
    if (error instanceof StockShort) return { ok: false, reason: "out-of-stock", itemName: error.itemName };
    throw error;
  }
}

/**
 * The status change inside the caller's transaction, by the `change_order_status` SQL function: the
 * order row locked, stock moved, running totals kept right. Throws StockShort when un-cancelling
 * needs stock that is gone.
 */
export async function changeOrderStatus(
  tx: Transaction,
  orderId: string,
  status: OrderStatus,
  options: StatusChangeOptions = {},
): Promise<SetStatusResult> {
  const now = options.now ?? new Date();
  const onlyFrom = options.onlyFrom
    ? sql`ARRAY[${sql.join(
        options.onlyFrom.map((from) => sql`${from}`),
        sql`, `,
      )}]::text[]`
    : sql`NULL::text[]`;
  try {
    // Stock and running totals move in SQL only, next to place_order (drizzle/0004, decision 020).
    const result = await tx.execute(
      sql`SELECT change_order_status(${orderId}::uuid, ${status}, ${now.toISOString()}::timestamptz,
        ${options.cancelReason ?? null}, ${onlyFrom}, ${STORE_TIME_ZONE}) AS outcome`,
    );
    const [row] = (result as unknown as { rows: { outcome: "not-found" | "unchanged" | "changed" }[] }).rows;
    if (row?.outcome === "not-found") return { ok: false, reason: "not-found" } as const;
    return { ok: true, changed: row?.outcome === "changed" } as const;
  } catch (error) {
    const short = stockShortItem(error);
    if (short !== null) throw new StockShort(short);
    throw error;
  }
}

/** The item `change_order_status` could not take out of stock again (SQLSTATE CG409), if that failed. */
function stockShortItem(error: unknown): string | null {
  for (let cause = error; cause && typeof cause === "object"; cause = (cause as { cause?: unknown }).cause) {
    const { code, detail } = cause as { code?: unknown; detail?: unknown };
    if (code === "CG409") return String(detail ?? "");
  }
  return null;
}

export type DashboardStats = {
  totalProducts: number;
  totalOrders: number;
  /** Sum of order totals, cancelled orders excluded. */
  totalRevenueCents: number;
  statusCounts: Record<OrderStatus, number>;
  /** Oldest first, one entry per store day (days without orders filled with 0). */
  last30Days: { day: string; orders: number; revenueCents: number }[];
  recentOrders: {
    id: string;
    customerName: string;
    status: OrderStatus;
    totalAmountCents: number;
    createdAt: string;
  }[];
};

/** Dashboard figures from running totals and indexes: a handful of small queries, whatever the order count. */
export async function getDashboardStats(
  options: { now?: Date; executor?: Executor } = {},
): Promise<DashboardStats> {
  const database = options.executor ?? (await db());
  const now = options.now ?? new Date();
  const days = lastDays(storeDay(now), 30);
  const [productCount] = await database
    .select({ total: sql<number>`count(*)::int` })
    .from(products)
    .where(isNull(products.archivedAt));
  const statusRows = await database.select().from(orderStatusCounts);
  const [revenue] = await database
    .select({ total: sql<string>`coalesce(sum(${orderDailyStats.revenueCents}), 0)::text` })
    .from(orderDailyStats);
  const dailyRows = await database
    .select()
    .from(orderDailyStats)
    .where(gte(orderDailyStats.day, days[0] as string));
  const recent = await database
    .select({
      id: orders.id,
      customerName: orders.customerName,
      status: orders.status,
      totalAmountCents: orders.totalAmountCents,
      createdAt: orders.createdAt,
    })
    .from(orders)
    .orderBy(...newestFirst(orders.createdAt, orders.id))
    .limit(5);

  const statusCounts: Record<OrderStatus, number> = { pending: 0, confirmed: 0, delivered: 0, cancelled: 0 };
  for (const row of statusRows) statusCounts[row.status] = row.ordersCount;
  const daily = new Map(dailyRows.map((row) => [row.day, row]));
  return {
    totalProducts: productCount?.total ?? 0,
    totalOrders: Object.values(statusCounts).reduce((sum, value) => sum + value, 0),
    totalRevenueCents: Number(revenue?.total ?? 0),
    statusCounts,
    last30Days: days.map((day) => ({
      day,
      orders: daily.get(day)?.ordersCount ?? 0,
      revenueCents: daily.get(day)?.revenueCents ?? 0,
    })),
    recentOrders: recent.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })),
  };
}

/** The `count` calendar days ending with `lastDay` (yyyy-MM-dd), oldest first. */
export function lastDays(lastDay: string, count: number) {
  const [year, month, day] = lastDay.split("-").map(Number) as [number, number, number];
  return Array.from({ length: count }, (_, index) =>
    new Date(Date.UTC(year, month - 1, day - (count - 1 - index))).toISOString().slice(0, 10),
  );
}
