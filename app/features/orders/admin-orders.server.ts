/**
 * The back office's view of orders: paginated lists (keyset on created_at, id, so page 5,000 is as
 * fast as page 1), status changes that keep the running totals and the stock right, and the
 * dashboard figures read from running totals instead of scanning every order.
 *
 * Rules written down (P-9 and the lead's brief):
 * - Cancelling puts every item's quantity back on its size (if the size still exists).
 * - Moving a cancelled order to confirmed or delivered takes the items out of stock again; when
 *   the stock no longer covers it the change is refused with a message naming the item.
 * - Revenue excludes cancelled orders: cancelling subtracts the order total from its day's
 *   revenue, un-cancelling adds it back. Order counts include every order placed.
 */

import { and, asc, eq, gte, inArray, isNull, sql } from "drizzle-orm";
import { db, type Executor, type Transaction } from "#app/db/client.server.ts";
import { decodeCursor, encodeCursor, newestFirst, UUID } from "#app/db/keyset.ts";
import { rowsOf } from "#app/db/rows.ts";
import {
  deliveredRevenue,
  emailOutbox,
  type OrderStatus,
  orderDailyStats,
  orderItems,
  orderStatusCounts,
  orders,
  products,
} from "#app/db/schema.ts";
import { SQL_REFUSALS } from "#app/db/sql-refusals.ts";
import { type AuditBy, recordAuditBy } from "#app/features/audit/audit.server.ts";
import { idFilesOfOrders, type OrderIdFile } from "#app/features/media/id-on-file.server.ts";
import { config } from "#app/utils/env.server.ts";
import { addStoreDays, STORE_TIME_ZONE, storeDay } from "#app/utils/store-time.ts";
import { type DeliveredBy, deliveredBy } from "./delivered-by.server.ts";
import { type DoorRecord, doorRecords } from "./door-records.server.ts";
import { isWithinScope, type StaffScope } from "./driver-scope.server.ts";
import type { OrderFilters } from "./order-search.schema.ts";
import { orderFilterCondition } from "./order-search.server.ts";
import {
  CLOSED_STATUSES,
  OPEN_STATUSES,
  ORDER_ACTIONS,
  type OrderAction,
  RETURNED_CANCEL_REASON,
} from "./order-status.ts";
import { statusText } from "./order-texts.ts";
import {
  getOrderForStatusChange,
  type OrderItemView,
  type OrderSummary,
  type OrderView,
} from "./orders.server.ts";
import { reopenSlotProblem } from "./reopen-slot.server.ts";

export const ORDERS_PAGE_SIZE = 20;

export type AdminOrderItem = Omit<OrderItemView, "productSizeId">;

export type AdminOrder = OrderSummary &
  Pick<OrderView, "status" | "quantity" | "createdAt"> & {
    /** Why a cancelled order was cancelled, when the shop recorded it ('not confirmed in time'). */
    cancelReason: string | null;
    idPhotoId: string | null;
    /** 'I'll pay with' in cents (P-24), or null. */
    payWithCents: number | null;
    items: AdminOrderItem[];
    /** On the completed list, a delivered order's who and when. */
    delivered?: DeliveredBy | null;
    /** What the driver recorded at the door (record 051), when they did. */
    door?: DoorRecord | null;
    /** The customer asked to keep this order's ID photo on file (record 058): staff verify it here. */
    idFile?: OrderIdFile | null;
  };

export type OrderScope = "incoming" | "completed";

/** Orders that may have a door record: delivered, returning, or checked back in (cancelled). */
const DOOR_STATUSES: readonly OrderStatus[] = ["delivered", "returning", "cancelled"];

/** Adds what the driver recorded at the door (record 051) to the listed orders that may have it. */
export async function withDoorRecords(executor: Executor, listed: AdminOrder[]) {
  const atTheDoor = listed.filter((order) => DOOR_STATUSES.includes(order.status)).map((order) => order.id);
  if (atTheDoor.length === 0) return;
  const records = await doorRecords(executor, atTheDoor);
  for (const order of listed) order.door = records.get(order.id) ?? null;
}

/** Adds the ID kept on file from each listed order's photo (record 058). */
export async function withIdFiles(executor: Executor, listed: AdminOrder[]) {
  const files = await idFilesOfOrders(
    listed.filter((order) => order.idPhotoId).map((order) => order.id),
    executor,
  );
  for (const order of listed) order.idFile = files.get(order.id) ?? null;
}

export type OrdersPage = { orders: AdminOrder[]; nextCursor: string | null };

/** Incoming: still to deliver. Completed: delivered, and cancelled with its reason (P-23). */
export const SCOPE_STATUSES: Record<OrderScope, readonly OrderStatus[]> = {
  incoming: OPEN_STATUSES,
  completed: CLOSED_STATUSES,
};

/**
 * Incoming (open) or completed (delivered or cancelled) orders, newest first, one page at a time,
 * narrowed by the list's search and filters (`order-search.server.ts`).
 */
export async function listOrders(
  scope: OrderScope,
  options: { cursor?: string | null; limit?: number; executor?: Executor; filters?: OrderFilters } = {},
): Promise<OrdersPage> {
  const database = options.executor ?? (await db());
  const limit = Math.min(Math.max(options.limit ?? ORDERS_PAGE_SIZE, 1), 100);
  const after = decodeCursor(options.cursor);
  const rows = await scopedOrders(database, scope, options.filters ?? {}, after, limit + 1);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  const nextCursor = rows.length > limit && last ? encodeCursor(last.createdAtText, last.id) : null;
  const listed: AdminOrder[] = await withItems(database, page);
  if (scope === "completed") {
    const delivered = listed.filter((order) => order.status === "delivered").map((order) => order.id);
    const by = await deliveredBy(database, delivered);
    for (const order of listed) order.delivered = by.get(order.id) ?? null;
  }
  return { orders: listed, nextCursor };
}

/** The columns every admin view of an order reads: the lists, the day board and the CSV export. */
export const adminOrderColumns = {
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
};

/**
 * Up to `limit` orders of `scope` that `filters` select, newest first, after the keyset position
 * `after` (the last row of the page before), each with its created_at as exact text for the cursor.
 */
export function scopedOrders(
  executor: Executor,
  scope: OrderScope,
  filters: OrderFilters,
  after: { createdAt: string; id: string } | null,
  limit: number,
) {
  return executor
    .select({ ...adminOrderColumns, createdAtText: sql<string>`${orders.createdAt}::text` })
    .from(orders)
    .where(
      and(
        orderFilterCondition(SCOPE_STATUSES[scope], filters),
        after
          ? sql`(${orders.createdAt}, ${orders.id}) < (${after.createdAt}::timestamptz, ${after.id}::uuid)`
          : undefined,
      ),
    )
    .orderBy(...newestFirst(orders.createdAt, orders.id))
    .limit(limit);
}

type AdminOrderRow = Omit<AdminOrder, "items" | "createdAt"> & { createdAt: Date; createdAtText?: string };

/** Rows of `adminOrderColumns` as `AdminOrder`s: each with its items (one query for all) and an ISO date. */
export async function withItems<Row extends AdminOrderRow>(
  executor: Executor,
  rows: Row[],
): Promise<(Omit<Row, "createdAt" | "createdAtText"> & { createdAt: string; items: AdminOrderItem[] })[]> {
  const items = await itemsFor(
    executor,
    rows.map((row) => row.id),
  );
  return rows.map(({ createdAtText: _text, createdAt, ...row }) => ({
    ...row,
    createdAt: createdAt.toISOString(),
    items: items.get(row.id) ?? [],
  }));
}

/** Every item of these orders, by order (product name order), in one query. */
export async function itemsFor(executor: Executor, orderIds: string[]) {
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
  | { ok: false; reason: "forbidden" }
  | { ok: false; reason: "out-of-stock"; itemName: string }
  | { ok: false; reason: "slot-full"; message: string };

class StockShort extends Error {
  readonly itemName: string;
  constructor(itemName: string) {
    super(`Not enough stock for ${itemName}`);
    this.itemName = itemName;
  }
}

class SlotRefused extends Error {}

export type StatusChangeOptions = {
  now?: Date;
  /** Recorded with a cancellation (the shop's own: 'not confirmed in time'); cleared otherwise. */
  cancelReason?: string;
  /** Change only an order still in one of these states (a job must not undo a staff decision). */
  onlyFrom?: readonly OrderStatus[];
  /** The admin making the change, recorded on its stock movements (null for the shop's own jobs). */
  actorId?: string | null;
  /** Recorded in the audit log with the change (P-27); the shop's own jobs pass none. */
  audit?: AuditBy;
  /** Only an order within this scope may change (a driver's run, P-26). */
  scope?: StaffScope;
};

/**
 * Sets an order's status (any state to any state) in one transaction with its side effects. The
 * order is read and the customer's e-mail rendered before the transaction opens; the worker is woken
 * after it commits, so the e-mail goes at once.
 */
export async function setOrderStatus(
  orderId: string,
  status: OrderStatus,
  options: StatusChangeOptions = {},
): Promise<SetStatusResult> {
  if (!UUID.test(orderId)) return { ok: false, reason: "not-found" };
  const prepared = await prepareStatusChange(orderId, status, options);
  const database = await db();
  try {
    const result = await database.transaction((tx) =>
      changeOrderStatus(tx, orderId, status, { ...options, prepared }),
    );
    if (result.ok && result.changed && prepared?.mail) await wakeEmailWorkerNow();
    return result;
  } catch (error) {
    if (error instanceof StockShort) return { ok: false, reason: "out-of-stock", itemName: error.itemName };
    if (error instanceof SlotRefused) return { ok: false, reason: "slot-full", message: error.message };
    throw error;
  }
}

/**
 * One of the status flow's actions (`order-status.ts`) taken by staff: applied only while the order is
 * in a status the action starts from (checked again under the order's lock), so two people pressing
 * buttons at once cannot make a move the flow does not have. `changed: false` means the order had
 * moved on meanwhile.
 */
export function applyOrderAction(
  orderId: string,
  action: OrderAction,
  options: {
    cancelReason?: string;
    now?: Date;
    actorId?: string | null;
    audit?: AuditBy;
    scope?: StaffScope;
  } = {},
): Promise<SetStatusResult> {
  const { to, from } = ORDER_ACTIONS[action];
  return setOrderStatus(orderId, to, {
    now: options.now,
    actorId: options.actorId,
    audit: options.audit,
    scope: options.scope,
    cancelReason:
      action === "cancel" ? options.cancelReason : action === "check-in" ? RETURNED_CANCEL_REASON : undefined,
    onlyFrom: from,
  });
}

type OutboxMail = Pick<
  typeof emailOutbox.$inferInsert,
  "kind" | "channel" | "toAddress" | "subject" | "textBody" | "htmlBody"
>;

/**
 * A status change's one read of the order (with its items and driver) and the customer's e-mail for
 * the new status, rendered from it: both done before the change's transaction opens.
 */
export type PreparedStatusChange = {
  order: NonNullable<Awaited<ReturnType<typeof getOrderForStatusChange>>>;
  /** Null when the change sends none (back to pending) or will not happen (see `statusToChangeFrom`). */
  mail: OutboxMail | null;
  /** The status text for a customer who opted into texts (P-37), when SMS is configured. */
  text: OutboxMail | null;
};

/** Reads the order and renders its status e-mail (when it will be sent); null when there is no such order. */
export async function prepareStatusChange(
  orderId: string,
  status: OrderStatus,
  options: Pick<StatusChangeOptions, "cancelReason" | "onlyFrom" | "scope">,
  executor?: Executor,
): Promise<PreparedStatusChange | null> {
  const order = await getOrderForStatusChange(orderId, executor);
  if (!order) return null;
  const willChange =
    status !== "pending" &&
    (!options.scope || isWithinScope(options.scope, order)) &&
    statusToChangeFrom(order.status, status, options.onlyFrom) !== null;
  if (!willChange) return { order, mail: null, text: null };
  const { statusEmail, storeEmailSettings, smsConfigured } = await statusEmails();
  const cancelReason = options.cancelReason ?? null;
  const rendered = await statusEmail(status, order, storeEmailSettings(), cancelReason);
  const body =
    order.smsOptIn && smsConfigured()
      ? statusText(storeEmailSettings().storeName, status, { ...order, cancelReason })
      : null;
  return {
    order,
    text: body
      ? {
          kind: `sms-order-${status.replaceAll("_", "-")}`,
          channel: "sms",
          toAddress: order.phone,
          subject: "",
          textBody: body,
          htmlBody: "",
        }
      : null,
    mail: {
      kind: `order-${status.replaceAll("_", "-")}`,
      toAddress: order.userEmail,
      subject: rendered.subject,
      textBody: rendered.text,
      htmlBody: rendered.html,
    },
  };
}

/**
 * The status the change may start from: the one the order was read in, when it is not already the
 * new one and `onlyFrom` allows it. `change_order_status` applies the change only from that status,
 * under the order's lock, so everything decided on the read (the audit's 'from', the reopen's slot
 * check, the e-mail) still holds when it applies; an order that moved on meanwhile is left unchanged.
 */
function statusToChangeFrom(current: OrderStatus, status: OrderStatus, onlyFrom?: readonly OrderStatus[]) {
  if (current === status) return null;
  if (onlyFrom && !onlyFrom.includes(current)) return null;
  return current;
}

/**
 * The status change inside the caller's transaction, by the `change_order_status` SQL function: the
 * order row locked, stock moved, running totals kept right, the timeline step written, the audit
 * event and the customer's e-mail for the new status queued in the same transaction (P-23).
 * `options.prepared` is the order as read (and its e-mail as rendered) before the transaction; without
 * it the order is read and the e-mail rendered here, inside the caller's transaction. Throws
 * StockShort when un-cancelling needs stock that is gone, SlotRefused when its slot is full.
 */
export async function changeOrderStatus(
  tx: Transaction,
  orderId: string,
  status: OrderStatus,
  options: StatusChangeOptions & { prepared?: PreparedStatusChange | null } = {},
): Promise<SetStatusResult> {
  const now = options.now ?? new Date();
  const prepared =
    options.prepared === undefined
      ? await prepareStatusChange(orderId, status, options, tx)
      : options.prepared;
  // Outside a staff member's scope even when there is no such order: the answer does not tell which.
  if (options.scope && !(prepared && isWithinScope(options.scope, prepared.order))) {
    return { ok: false, reason: "forbidden" } as const;
  }
  if (!prepared) return { ok: false, reason: "not-found" } as const;
  const { order, mail, text } = prepared;
  const from = statusToChangeFrom(order.status, status, options.onlyFrom);
  if (from === null) return { ok: true, changed: false } as const;
  if (from === "cancelled") {
    // Reopening a cancelled order takes its place in the slot again (P-22, slot capacity).
    const problem = await reopenSlotProblem(tx, {
      orderId,
      deliveryDate: order.deliveryDate,
      deliveryTime: order.deliveryTime,
    });
    if (problem) throw new SlotRefused(problem);
  }
  let outcome: "not-found" | "unchanged" | "changed" | undefined;
  try {
    // change_order_status reads the admin from this transaction-local setting for its stock movements.
    if (options.actorId) await tx.execute(sql`SELECT set_config('stock.actor', ${options.actorId}, true)`);
    // Stock and running totals move in SQL only, next to place_order (drizzle/functions/, record 020).
    const result = await tx.execute(
      sql`SELECT change_order_status(${orderId}::uuid, ${status}, ${now.toISOString()}::timestamptz,
        ${options.cancelReason ?? null}, ARRAY[${from}]::text[], ${STORE_TIME_ZONE}) AS outcome`,
    );
    const [row] = rowsOf<{ outcome: typeof outcome }>(result);
    outcome = row?.outcome;
  } catch (error) {
    const short = stockShortItem(error);
    if (short !== null) throw new StockShort(short);
    throw error;
  }
  if (outcome === "not-found") return { ok: false, reason: "not-found" } as const;
  if (outcome !== "changed") return { ok: true, changed: false } as const;
  const reopened = (CLOSED_STATUSES as readonly OrderStatus[]).includes(from) && status !== "cancelled";
  await recordAuditBy(tx, options.audit, {
    action: reopened ? "order.reopened" : "order.status_changed",
    targetType: "order",
    targetId: orderId,
    details: {
      from,
      to: status,
      ...(status === "cancelled" && options.cancelReason ? { reason: options.cancelReason } : {}),
    },
  });
  const messages = [mail, text].filter((message) => message !== null);
  if (messages.length > 0) {
    await tx
      .insert(emailOutbox)
      .values(messages.map((message) => ({ orderId, ...message, nextAttemptAt: now, createdAt: now })));
  }
  return { ok: true, changed: true } as const;
}

/**
 * The e-mail modules, loaded on the first status change: they are React components (.tsx), and the
 * benches and scripts that read orders with plain Node (scripts/bench/dashboard.ts) never change one.
 */
async function statusEmails() {
  const [emails, outbox, sms] = await Promise.all([
    import("./status-emails.server.tsx"),
    import("#app/features/email/email-outbox.server.ts"),
    import("#app/features/email/sms.server.ts"),
  ]);
  return {
    ...emails,
    storeEmailSettings: outbox.storeEmailSettings,
    wakeEmailWorker: outbox.wakeEmailWorker,
    smsConfigured: sms.smsConfigured,
  };
}

/** Sends the e-mails just committed now instead of at the worker's next poll. */
export async function wakeEmailWorkerNow() {
  (await statusEmails()).wakeEmailWorker();
}

export const CUSTOMER_CANCEL_REASON = "Customer request";

export type CustomerCancelResult = { ok: true } | { ok: false; reason: "not-found" | "not-pending" };

/**
 * The customer cancels their own order on its page (P-23): only while it is pending. Stock goes
 * back, its slot frees up (capacity counts orders that are not cancelled), the customer gets the
 * cancellation e-mail and the shop a notice, all queued in one transaction (rendered before it).
 */
export async function cancelOrderByCustomer(
  orderId: string,
  options: { now?: Date } = {},
): Promise<CustomerCancelResult> {
  const now = options.now ?? new Date();
  const change = { now, cancelReason: CUSTOMER_CANCEL_REASON, onlyFrom: ["pending"] as const };
  const prepared = await prepareStatusChange(orderId, "cancelled", change);
  if (!prepared) return { ok: false, reason: "not-found" };
  const { customerCancelledNotice, storeEmailSettings } = await statusEmails();
  const notice = prepared.mail ? await customerCancelledNotice(prepared.order, storeEmailSettings()) : null;
  const database = await db();
  const result = await database.transaction(async (tx) => {
    const changed = await changeOrderStatus(tx, orderId, "cancelled", { ...change, prepared });
    if (!changed.ok) return { ok: false, reason: "not-found" } as const;
    if (!changed.changed) return { ok: false, reason: "not-pending" } as const;
    if (notice) {
      await tx.insert(emailOutbox).values({
        orderId,
        kind: "order-cancelled-by-customer",
        toAddress: config().ordersEmail,
        subject: notice.subject,
        textBody: notice.text,
        htmlBody: notice.html,
        nextAttemptAt: now,
        createdAt: now,
      });
    }
    return { ok: true } as const;
  });
  if (result.ok) await wakeEmailWorkerNow();
  return result;
}

/** The item `change_order_status` could not take out of stock again (`SQL_REFUSALS.outOfStock`), if that failed. */
function stockShortItem(error: unknown): string | null {
  for (let cause = error; cause && typeof cause === "object"; cause = (cause as { cause?: unknown }).cause) {
    const { code, detail } = cause as { code?: unknown; detail?: unknown };
    if (code === SQL_REFUSALS.outOfStock) return String(detail ?? "");
  }
  return null;
}

export type DashboardStats = {
  totalProducts: number;
  totalOrders: number;
  /** Revenue: the totals of delivered orders only. */
  totalRevenueCents: number;
  /** The totals of open orders (pending, confirmed, out for delivery): expected, not yet earned. */
  openValueCents: number;
  openOrders: number;
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
  // Revenue kept by place_order and change_order_status: every order not cancelled.
  const [notCancelled] = await database
    .select({ total: sql<string>`coalesce(sum(${orderDailyStats.revenueCents}), 0)::text` })
    .from(orderDailyStats);
  const [delivered] = await database
    .select({ total: deliveredRevenue.totalCents })
    .from(deliveredRevenue)
    .where(eq(deliveredRevenue.id, 1));
  const deliveredCents = Number(delivered?.total ?? 0);
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

  const statusCounts: Record<OrderStatus, number> = {
    pending: 0,
    confirmed: 0,
    out_for_delivery: 0,
    delivered: 0,
    cancelled: 0,
    returning: 0,
  };
  for (const row of statusRows) statusCounts[row.status] = row.ordersCount;
  const daily = new Map(dailyRows.map((row) => [row.day, row]));
  return {
    totalProducts: productCount?.total ?? 0,
    totalOrders: Object.values(statusCounts).reduce((sum, value) => sum + value, 0),
    totalRevenueCents: deliveredCents,
    openValueCents: Number(notCancelled?.total ?? 0) - deliveredCents,
    openOrders: OPEN_STATUSES.reduce((sum, status) => sum + statusCounts[status], 0),
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
  return Array.from({ length: count }, (_, index) => addStoreDays(lastDay, index - (count - 1)));
}
