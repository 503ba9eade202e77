/**
 * Many orders at once from the incoming list (the schema: `order-bulk.schema.ts`). Each order goes
 * through the single-order path, in its own transaction: `applyOrderAction` for confirm and cancel
 * (the status flow's check under the order's lock, the stock ledger, the customer's e-mail, one
 * audit event), `assignDriver` for a driver. So a bulk action is exactly N single actions, and the
 * answer says, order by order, which failed and why.
 */
import { and, asc, eq, inArray, or, sql } from "drizzle-orm";
import { db } from "#app/db/client.server.ts";
import { orders } from "#app/db/schema.ts";
import type { AuditBy } from "#app/features/audit/audit.server.ts";
import { DELIVERY_SLOT_LABELS } from "#app/features/delivery/delivery-slots.ts";
import {
  adminOrderColumns,
  applyOrderAction,
  type SetStatusResult,
  withItems,
} from "./admin-orders.server.ts";
import { assignDriver, NOT_CONFIRMED_FOR_DRIVER } from "./driver-assignment.server.ts";
import type { StaffScope } from "./driver-scope.server.ts";
import {
  type BulkAction,
  type BulkOrderInput,
  bulkFormValues,
  bulkOrderSchema,
  bulkSkipReason,
  MAX_BULK_ORDERS,
} from "./order-bulk.schema.ts";
import type { OrderFilters } from "./order-search.schema.ts";
import { orderFilterCondition } from "./order-search.server.ts";
import { type CancelReasonCode, cancelReasonText, OPEN_STATUSES, type OrderStatus } from "./order-status.ts";

export type BulkOrderRow = {
  id: string;
  customerName: string;
  status: OrderStatus;
  deliveryDate: string;
  deliveryTime: string;
  totalAmountCents: number;
};

/** The day's slots first in their order, any other label after them (as on the board). */
const slotRank = sql`coalesce(array_position(ARRAY[${sql.join(
  DELIVERY_SLOT_LABELS.map((label) => sql`${label}`),
  sql`, `,
)}]::text[], ${orders.deliveryTime}), ${DELIVERY_SLOT_LABELS.length + 1})`;

/**
 * The orders a bulk post names: the ticked ones, and every open order of each ticked slot; by
 * delivery date, slot, then first placed. At most MAX_BULK_ORDERS.
 */
export async function selectedOrders(input: Pick<BulkOrderInput, "orderIds" | "slots">) {
  const database = await db();
  const slots = input.slots.map((key) => {
    const [date, label] = key.split("|") as [string, string];
    return and(
      eq(orders.deliveryDate, date),
      eq(orders.deliveryTime, label),
      inArray(orders.status, [...OPEN_STATUSES]),
    );
  });
  const which = or(input.orderIds.length > 0 ? inArray(orders.id, input.orderIds) : undefined, ...slots);
  if (!which) return [];
  return database
    .select({
      id: orders.id,
      customerName: orders.customerName,
      status: orders.status,
      deliveryDate: orders.deliveryDate,
      deliveryTime: orders.deliveryTime,
      totalAmountCents: orders.totalAmountCents,
    })
    .from(orders)
    .where(which)
    .orderBy(asc(orders.deliveryDate), slotRank, asc(orders.createdAt), asc(orders.id))
    .limit(MAX_BULK_ORDERS);
}

export type BulkReview = {
  intent: BulkAction;
  /** The orders the action will take, then those it leaves, each with why. */
  orders: (BulkOrderRow & { skip: string | null })[];
};

/** What the one confirmation shows: the selected orders, and which of them the action leaves out. */
export async function reviewBulkAction(input: BulkOrderInput): Promise<BulkReview> {
  const rows = await selectedOrders(input);
  const reviewed = rows.map((row) => ({ ...row, skip: bulkSkipReason(input.intent, row.status) }));
  return {
    intent: input.intent,
    orders: [...reviewed.filter((row) => !row.skip), ...reviewed.filter((row) => row.skip)],
  };
}

export type BulkOutcome = { id: string; customerName: string; ok: boolean; message: string };
export type BulkReport = { intent: BulkAction; outcomes: BulkOutcome[] };

/** A single change's refusal, in the words the order's own buttons answer with. */
function failureText(result: SetStatusResult) {
  if (result.ok) return "This order has changed meanwhile";
  switch (result.reason) {
    case "out-of-stock":
      return `Not enough stock: ${result.itemName}`;
    case "slot-full":
      return result.message;
    case "forbidden":
      return "This order is not on your run";
    default:
      return "Order not found";
  }
}

/**
 * Applies a confirmed bulk action to each named order in turn, each as the single-order action
 * would (its own transaction, its audit event, its e-mail): one order's refusal leaves the others.
 */
export async function applyBulkAction(
  input: BulkOrderInput,
  by: AuditBy,
  scope: StaffScope,
): Promise<BulkReport> {
  const rows = await selectedOrders({ orderIds: input.orderIds, slots: [] });
  const outcomes: BulkOutcome[] = [];
  const cancelReason =
    input.intent === "bulk-cancel" && input.reason
      ? cancelReasonText(input.reason as CancelReasonCode, input.reasonText)
      : undefined;
  for (const row of rows) {
    const named = { id: row.id, customerName: row.customerName };
    if (input.intent === "bulk-assign") {
      const result = await assignDriver(
        { intent: "assign", orderId: row.id, driverId: input.driverId ?? "" },
        by,
      );
      outcomes.push(
        result.ok
          ? { ...named, ok: true, message: `Assigned to ${result.driverName ?? "nobody"}` }
          : {
              ...named,
              ok: false,
              message:
                result.reason === "not-confirmed"
                  ? NOT_CONFIRMED_FOR_DRIVER
                  : result.reason === "not-open"
                    ? "No longer open"
                    : "Choose an active driver",
            },
      );
      continue;
    }
    if (input.intent === "bulk-print") continue;
    const result = await applyOrderAction(row.id, input.intent === "bulk-confirm" ? "confirm" : "cancel", {
      cancelReason,
      actorId: by.actor.userId,
      audit: by,
      scope,
    });
    outcomes.push(
      result.ok && result.changed
        ? { ...named, ok: true, message: input.intent === "bulk-confirm" ? "Confirmed" : "Cancelled" }
        : { ...named, ok: false, message: failureText(result) },
    );
  }
  const found = new Set(rows.map((row) => row.id));
  for (const id of input.orderIds) {
    if (!found.has(id)) outcomes.push({ id, customerName: "", ok: false, message: "Order not found" });
  }
  return { intent: input.intent, outcomes };
}

/**
 * The incoming list grouped by delivery: open orders narrowed by the list's filters, by delivery
 * date, slot, then first placed; at most MAX_BULK_ORDERS (`more` says when there are others: the
 * delivery-date filter narrows to them). Open orders are a few days' worth, so this is bounded.
 */
export async function incomingBySlot(filters: OrderFilters) {
  const database = await db();
  const rows = await database
    .select(adminOrderColumns)
    .from(orders)
    .where(orderFilterCondition(OPEN_STATUSES, filters))
    .orderBy(asc(orders.deliveryDate), slotRank, asc(orders.createdAt), asc(orders.id))
    .limit(MAX_BULK_ORDERS + 1);
  return {
    orders: await withItems(database, rows.slice(0, MAX_BULK_ORDERS)),
    more: rows.length > MAX_BULK_ORDERS,
  };
}

export type BulkPostAnswer =
  | { kind: "invalid"; message: string }
  | { kind: "review"; review: BulkReview }
  | { kind: "print"; location: string }
  | { kind: "report"; report: BulkReport };

/**
 * A bulk post of the incoming list: without `confirmed`, the review the one confirmation shows
 * (printing needs none: it goes to the slips of the selection); with it, the action applied order
 * by order.
 */
export async function handleBulkPost(
  form: FormData,
  by: AuditBy,
  scope: StaffScope,
): Promise<BulkPostAnswer> {
  const parsed = bulkOrderSchema.safeParse(bulkFormValues(form));
  if (!parsed.success) {
    return { kind: "invalid", message: parsed.error.issues[0]?.message ?? "Select at least one order" };
  }
  const input = parsed.data;
  if (input.intent === "bulk-print") {
    const rows = await selectedOrders(input);
    const params = new URLSearchParams(rows.map((row) => ["order", row.id]));
    return { kind: "print", location: `/admin/today/driver-slips?${params.toString()}` };
  }
  if (!input.confirmed) return { kind: "review", review: await reviewBulkAction(input) };
  return { kind: "report", report: await applyBulkAction(input, by, scope) };
}
