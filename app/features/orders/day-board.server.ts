/**
 * The day's work (P-25, record 031): a date's orders by delivery slot for the
 * today board, the pick list and the driver slips printed from it, the dashboard's 'Today at a
 * glance' figures, and the count of orders ever placed that the new-order alert watches.
 *
 * Bounded work per request (P-15): the board reads at most `perSlot` orders a slot through
 * the (delivery_date, delivery_time, created_at, id) index, whatever the number of orders that day;
 * the per-slot counts are one GROUP BY over that day's index entries.
 *
 * Statuses are not enumerated here beyond 'cancelled' and 'delivered', so a status added later
 * (out_for_delivery) shows up on the board, the slips and the figures without a change.
 */
import { and, asc, eq, inArray, ne, notInArray, type SQL, sql } from "drizzle-orm";
import { db, type Executor } from "#app/db/client.server.ts";
import { adminUsers, orderDailyStats, orderItems, orderStatusCounts, orders } from "#app/db/schema.ts";
import { DELIVERY_SLOT_LABELS } from "#app/features/delivery/delivery-slots.ts";
import { errorMessage, log } from "#app/utils/logger.server.ts";
import { storeDay } from "#app/utils/store-time.ts";
import { type AdminOrder, adminOrderColumns, withItems } from "./admin-orders.server.ts";
import { BOARD_ORDERS_PER_SLOT, boardQuery, MAX_DRIVER_SLIPS, slotOrder } from "./day-board.ts";
import { doorRecords } from "./door-records.server.ts";
import { type StaffScope, scopeCondition } from "./driver-scope.server.ts";

/** An order on the board: the admin card's shape, with the driver it is assigned to. */
export type BoardOrder = AdminOrder & {
  driverId?: string | null;
  driverName?: string | null;
};

export type BoardSlot = {
  label: string;
  /** Orders of the slot that hold a place: every status but cancelled (P-22). */
  count: number;
  cancelled: number;
  /** Places of the slot that date, when the shop set a capacity. */
  capacity?: number;
  /** Cash still to collect in the slot: totals of orders not yet delivered or cancelled. */
  toCollectCents: number;
  /** The first `perSlot` orders of the slot (not cancelled), first placed first. */
  orders: BoardOrder[];
  /** The closure's reason when the shop closed this slot (or the whole date) and kept its orders. */
  closedReason?: string;
};

export type DayBoard = { date: string; slots: BoardSlot[]; orders: number; toCollectCents: number };

/** Statuses that no longer need packing or a driver. */
const DONE = ["cancelled", "delivered"] as const;

/**
 * What goes downstream (the pick list, the slips, a driver's run): orders still to deliver that the
 * shop has confirmed; pending ones only when staff ask for them (`includePending`), labelled so.
 */
export type DownstreamOptions = {
  includePending?: boolean;
  /** Only these orders (a selection printed from the incoming list). */
  orderIds?: readonly string[];
};

function downstreamCondition(options: DownstreamOptions): SQL | undefined {
  return and(
    notInArray(orders.status, [...DONE, "returning"]),
    options.includePending ? undefined : ne(orders.status, "pending"),
    options.orderIds ? inArray(orders.id, [...options.orderIds]) : undefined,
  );
}

type SlotCountRow = { label: string; count: number; cancelled: number; toCollectCents: number };

async function slotCounts(
  executor: Executor,
  date: string,
  slot?: string,
  scope: StaffScope = { kind: "all" },
  extra?: SQL,
): Promise<SlotCountRow[]> {
  return executor
    .select({
      label: orders.deliveryTime,
      count: sql<number>`(count(*) FILTER (WHERE ${orders.status} <> 'cancelled'))::int`,
      cancelled: sql<number>`(count(*) FILTER (WHERE ${orders.status} = 'cancelled'))::int`,
      toCollectCents: sql<number>`coalesce(sum(${orders.totalAmountCents}) FILTER (WHERE ${orders.status} NOT IN ('cancelled', 'delivered')), 0)::float8`,
    })
    .from(orders)
    .where(
      and(
        eq(orders.deliveryDate, date),
        slot ? eq(orders.deliveryTime, slot) : undefined,
        scopeCondition(scope),
        extra,
      ),
    )
    .groupBy(orders.deliveryTime);
}

/** The admin order columns, and the assigned driver's name (joined from admin_users). */
const boardColumns = {
  ...adminOrderColumns,
  driverId: orders.driverId,
  driverName: sql<string | null>`coalesce(nullif(${adminUsers.firstName}, ''), ${adminUsers.email})`,
};

/**
 * The board of `date` (yyyy-MM-dd): the five slots always (empty ones too, Sunday's included),
 * then any other slot label found on that date's orders. `slot` limits it to one slot.
 */
export async function getDayBoard(
  date: string,
  options: {
    slot?: string;
    perSlot?: number;
    /** Places per slot for that date, when known (the slot capacities of P-22). */
    capacities?: ReadonlyMap<string, number>;
    /** Closures of that date: a slot closed with its orders kept says so on the board. */
    closures?: ReadonlyArray<{ date: string; slot: string | null; reason: string }>;
    /** A driver's run: only their orders and unassigned ones (P-26). */
    scope?: StaffScope;
    /** Leave pending orders out (a driver's run takes confirmed orders unless they ask). */
    withoutPending?: boolean;
    executor?: Executor;
  } = {},
): Promise<DayBoard> {
  const executor = options.executor ?? (await db());
  const perSlot = Math.min(Math.max(options.perSlot ?? BOARD_ORDERS_PER_SLOT, 1), 200);
  const notPending = options.withoutPending ? ne(orders.status, "pending") : undefined;
  const counts = await slotCounts(executor, date, options.slot, options.scope, notPending);
  const byLabel = new Map(counts.map((row) => [row.label, row]));
  const labels = options.slot
    ? [options.slot]
    : [...new Set([...DELIVERY_SLOT_LABELS, ...counts.map((row) => row.label)])].sort(
        (a, b) => slotOrder(a) - slotOrder(b),
      );
  const rows: Array<Omit<BoardOrder, "items" | "createdAt"> & { createdAt: Date }> = [];
  for (const label of labels) {
    if ((byLabel.get(label)?.count ?? 0) === 0) continue;
    rows.push(
      ...(await executor
        .select(boardColumns)
        .from(orders)
        .leftJoin(adminUsers, eq(adminUsers.id, orders.driverId))
        .where(
          and(
            eq(orders.deliveryDate, date),
            eq(orders.deliveryTime, label),
            sql`${orders.status} <> 'cancelled'`,
            scopeCondition(options.scope ?? { kind: "all" }),
            notPending,
          ),
        )
        .orderBy(asc(orders.createdAt), asc(orders.id))
        .limit(perSlot)),
    );
  }
  const boardOrders: BoardOrder[] = await withItems(executor, rows);
  // What the door recorded (record 051): a returning order's reason, a delivered one's proof.
  const atTheDoor = boardOrders.filter(
    (order) => order.status === "returning" || order.status === "delivered",
  );
  if (atTheDoor.length > 0) {
    const records = await doorRecords(
      executor,
      atTheDoor.map((order) => order.id),
    );
    for (const order of atTheDoor) order.door = records.get(order.id) ?? null;
  }
  const slots = labels.map((label): BoardSlot => {
    const row = byLabel.get(label);
    const capacity = options.capacities?.get(label);
    const closure = options.closures?.find(
      (closed) => closed.date === date && (closed.slot === null || closed.slot === label),
    );
    return {
      ...(closure && (row?.count ?? 0) > 0 ? { closedReason: closure.reason } : {}),
      label,
      count: row?.count ?? 0,
      cancelled: row?.cancelled ?? 0,
      ...(capacity === undefined ? {} : { capacity }),
      toCollectCents: row?.toCollectCents ?? 0,
      orders: boardOrders.filter((order) => order.deliveryTime === label),
    };
  });
  return {
    date,
    slots,
    orders: slots.reduce((sum, slot) => sum + slot.count, 0),
    toCollectCents: slots.reduce((sum, slot) => sum + slot.toCollectCents, 0),
  };
}

export type PickLine = { productName: string; sizeLabel: string; quantity: number; orders: number };
/** `pending`: how many of the slot's `orders` are not confirmed yet (only when staff include them). */
export type PickSlot = { label: string; orders: number; pending: number; lines: PickLine[] };

/**
 * What to pack for `date` (one slot, or each slot): every product and size of the confirmed orders
 * still to pack (pending ones too with `includePending`), quantities summed, by product name and size.
 */
export async function getPickList(
  date: string,
  options: { slot?: string; executor?: Executor } & DownstreamOptions = {},
): Promise<PickSlot[]> {
  const executor = options.executor ?? (await db());
  const rows = await executor
    .select({
      label: orders.deliveryTime,
      productName: orderItems.productName,
      sizeLabel: orderItems.sizeLabel,
      quantity: sql<number>`sum(${orderItems.quantity})::int`,
      orders: sql<number>`count(DISTINCT ${orders.id})::int`,
    })
    .from(orders)
    .innerJoin(orderItems, eq(orderItems.orderId, orders.id))
    .where(
      and(
        eq(orders.deliveryDate, date),
        options.slot ? eq(orders.deliveryTime, options.slot) : undefined,
        downstreamCondition(options),
      ),
    )
    .groupBy(orders.deliveryTime, orderItems.productName, orderItems.sizeLabel)
    .orderBy(asc(orderItems.productName), asc(orderItems.sizeLabel));
  const orderCounts = await executor
    .select({
      label: orders.deliveryTime,
      orders: sql<number>`count(*)::int`,
      pending: sql<number>`(count(*) FILTER (WHERE ${orders.status} = 'pending'))::int`,
    })
    .from(orders)
    .where(
      and(
        eq(orders.deliveryDate, date),
        options.slot ? eq(orders.deliveryTime, options.slot) : undefined,
        downstreamCondition(options),
      ),
    )
    .groupBy(orders.deliveryTime);
  return orderCounts
    .sort((a, b) => slotOrder(a.label) - slotOrder(b.label))
    .map(({ label, orders: count, pending }) => ({
      label,
      orders: count,
      pending,
      lines: rows.filter((row) => row.label === label).map(({ label: _label, ...line }) => line),
    }));
}

/**
 * One slip per confirmed order still to deliver on `date` (pending ones too with `includePending`),
 * by slot then first placed first; at most MAX_DRIVER_SLIPS (`total` tells how many there are).
 * With `orderIds`, the slips of those orders whatever their date (a selection from the incoming list).
 */
export async function getDriverSlips(
  date: string,
  options: { slot?: string; executor?: Executor } & DownstreamOptions = {},
): Promise<{ slips: BoardOrder[]; total: number }> {
  const executor = options.executor ?? (await db());
  const where = and(
    options.orderIds ? undefined : eq(orders.deliveryDate, date),
    options.slot ? eq(orders.deliveryTime, options.slot) : undefined,
    downstreamCondition(options),
  );
  const [counted] = await executor.select({ total: sql<number>`count(*)::int` }).from(orders).where(where);
  const rows = await executor
    .select(boardColumns)
    .from(orders)
    .leftJoin(adminUsers, eq(adminUsers.id, orders.driverId))
    .where(where)
    .orderBy(asc(orders.deliveryDate), asc(orders.deliveryTime), asc(orders.createdAt), asc(orders.id))
    .limit(MAX_DRIVER_SLIPS);
  rows.sort(
    (a, b) =>
      a.deliveryDate.localeCompare(b.deliveryDate) || slotOrder(a.deliveryTime) - slotOrder(b.deliveryTime),
  );
  return { slips: await withItems(executor, rows), total: counted?.total ?? 0 };
}

export type TodayFigures = {
  date: string;
  /** Orders placed today (store day), whatever their delivery date: the running total. */
  placed: number;
  /** Today's deliveries (delivery date today) by status, with their totals. */
  deliveries: { status: string; orders: number; totalCents: number }[];
  /** Totals of today's delivered orders. */
  revenueCents: number;
  /** Totals of today's orders still open (pending, confirmed, …), by status. */
  expected: { status: string; totalCents: number }[];
};

/**
 * 'Today at a glance': orders placed today from the daily running total, and
 * today's deliveries by status from the (delivery_date, …) index: one GROUP BY over today's
 * orders only, so the cost follows the day's orders, not the shop's history.
 */
export async function getTodayFigures(
  options: { now?: Date; executor?: Executor } = {},
): Promise<TodayFigures> {
  const executor = options.executor ?? (await db());
  const date = storeDay(options.now ?? new Date());
  const [daily] = await executor
    .select({ ordersCount: orderDailyStats.ordersCount })
    .from(orderDailyStats)
    .where(eq(orderDailyStats.day, date));
  const rows = await executor
    .select({
      status: orders.status,
      orders: sql<number>`count(*)::int`,
      totalCents: sql<number>`coalesce(sum(${orders.totalAmountCents}), 0)::float8`,
    })
    .from(orders)
    .where(eq(orders.deliveryDate, date))
    .groupBy(orders.status);
  const known = ["pending", "confirmed", "out_for_delivery", "delivered", "cancelled"];
  const rank = (status: string) => (known.includes(status) ? known.indexOf(status) : known.length);
  const deliveries = rows.sort((a, b) => rank(a.status) - rank(b.status));
  return {
    date,
    placed: daily?.ordersCount ?? 0,
    deliveries,
    revenueCents: deliveries.find((row) => row.status === "delivered")?.totalCents ?? 0,
    expected: deliveries
      .filter((row) => !(DONE as readonly string[]).includes(row.status))
      .map(({ status, totalCents }) => ({ status, totalCents })),
  };
}

/**
 * How many orders were ever placed: the sum of the status running totals (a status change moves
 * an order between rows, never changes the sum). The new-order alert compares it between reloads.
 */
export async function countPlacedOrders(executor?: Executor): Promise<number> {
  const database = executor ?? (await db());
  const [row] = await database
    .select({ total: sql<number>`coalesce(sum(${orderStatusCounts.ordersCount}), 0)::int` })
    .from(orderStatusCounts);
  return row?.total ?? 0;
}

/**
 * The loader of a print view (pick list, driver slips): the board's date and slot from the URL, and
 * what `load` reads for them. A failed read is logged ("Failed to fetch the <what>") and answers
 * `empty`, marked `failed` for the route to say so.
 */
export async function loadPrintView<View extends object>(
  request: Request,
  what: string,
  load: (date: string, slot: string | undefined) => Promise<View>,
  empty: View,
) {
  const query = boardQuery(new URL(request.url), new Date());
  try {
    return { ...query, ...(await load(query.date, query.slot)), failed: false };
  } catch (error) {
    log.error(`Failed to fetch the ${what}`, { error: errorMessage(error) });
    return { ...query, ...empty, failed: true };
  }
}
