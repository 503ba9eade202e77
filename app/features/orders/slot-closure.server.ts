/**
 * Closing a date or a slot that already has orders: staff are asked what becomes of them before
 * the closure is saved — keep them (delivered as booked), move them to another delivery time (each
 * customer gets an e-mail through the outbox) or cancel them with the closure's reason (each through
 * the single-order cancel: stock back, the cancellation e-mail, one audit event).
 */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { db } from "#app/db/client.server.ts";
import { rowsOf } from "#app/db/rows.ts";
import { emailOutbox, orders } from "#app/db/schema.ts";
import { type AuditBy, recordAuditBy } from "#app/features/audit/audit.server.ts";
import { getDeliverySettings, listClosures, slotBookings } from "#app/features/delivery/delivery.server.ts";
import { slotCapacity } from "#app/features/delivery/delivery-settings.ts";
import { DELIVERY_SLOT_LABELS, endedSlots, slotsOfDate } from "#app/features/delivery/delivery-slots.ts";
import { formatStoreDate, nextDate } from "#app/utils/store-time.ts";
import { applyOrderAction } from "./admin-orders.server.ts";
import { OPEN_STATUSES, type OrderStatus } from "./order-status.ts";
import { getOrderById } from "./orders.server.ts";

export type ClosureOpenOrder = {
  id: string;
  customerName: string;
  status: OrderStatus;
  deliveryTime: string;
  totalAmountCents: number;
};

/** What staff choose for the open orders of a slot they close. */
export const OPEN_ORDER_CHOICES = ["keep", "move", "cancel"] as const;
export type OpenOrderChoice = (typeof OPEN_ORDER_CHOICES)[number];

/** The open orders (pending, confirmed, out for delivery) of a date, or of one slot of it. */
export async function openOrdersOf(date: string, slot: string | null): Promise<ClosureOpenOrder[]> {
  const database = await db();
  const rows = await database
    .select({
      id: orders.id,
      customerName: orders.customerName,
      status: orders.status,
      deliveryTime: orders.deliveryTime,
      totalAmountCents: orders.totalAmountCents,
    })
    .from(orders)
    .where(
      and(
        eq(orders.deliveryDate, date),
        slot ? eq(orders.deliveryTime, slot) : undefined,
        inArray(orders.status, [...OPEN_STATUSES]),
      ),
    )
    .orderBy(asc(orders.deliveryTime), asc(orders.createdAt), asc(orders.id));
  const rank = (label: string) => (DELIVERY_SLOT_LABELS as string[]).indexOf(label);
  return rows.sort((a, b) => rank(a.deliveryTime) - rank(b.deliveryTime));
}

export type MoveTarget = { value: string; date: string; slot: string; placesLeft: number };

/**
 * Where the orders of a closing slot may go: the date's other slots (when one slot closes) and the
 * next day's, each not ended, not closed, with its places left (capacity less orders holding one).
 */
export async function moveTargets(date: string, slot: string | null, now: Date): Promise<MoveTarget[]> {
  const dates = [date, nextDate(date)];
  const [settings, closures, bookings] = await Promise.all([
    getDeliverySettings(),
    listClosures(date),
    slotBookings(dates),
  ]);
  const targets: MoveTarget[] = [];
  for (const day of dates) {
    const ended = endedSlots(day, now) as string[];
    for (const label of slotsOfDate(day)) {
      if (day === date && (slot === null || label === slot)) continue;
      if (ended.includes(label)) continue;
      if (
        closures.some((closure) => closure.date === day && (closure.slot === null || closure.slot === label))
      )
        continue;
      const placesLeft = slotCapacity(settings, day, label) - (bookings.get(`${day} ${label}`) ?? 0);
      targets.push({ value: `${day}|${label}`, date: day, slot: label, placesLeft });
    }
  }
  return targets;
}

export type MoveResult = { ok: true; moved: number } | { ok: false; message: string };

function deliveryText(date: string, slot: string) {
  return `${formatStoreDate(date)}, ${slot}`;
}

/**
 * Moves the open orders of `from` (a date, or one slot of it) to `to` in one transaction: each order's
 * delivery changes, the slot counters move with it (one place given back, one taken), one audit event
 * per order and the customer's e-mail queued. Refused, nothing moved, when `to` is closed or lacks
 * the places.
 */
export async function moveOpenOrders(
  from: { date: string; slot: string | null },
  to: { date: string; slot: string },
  closedBecause: string,
  options: { audit?: AuditBy; now?: Date } = {},
): Promise<MoveResult> {
  const now = options.now ?? new Date();
  const target = (await moveTargets(from.date, from.slot, now)).find(
    (candidate) => candidate.date === to.date && candidate.slot === to.slot,
  );
  if (!target) return { ok: false, message: "Choose another delivery time that is open" };
  const settings = await getDeliverySettings();
  const capacity = slotCapacity(settings, to.date, to.slot);
  const database = await db();
  const { statusEmails, outbox } = await emailModules();
  return database.transaction(async (tx) => {
    const moving = await tx
      .select({ id: orders.id, deliveryDate: orders.deliveryDate, deliveryTime: orders.deliveryTime })
      .from(orders)
      .where(
        and(
          eq(orders.deliveryDate, from.date),
          from.slot ? eq(orders.deliveryTime, from.slot) : undefined,
          inArray(orders.status, [...OPEN_STATUSES]),
        ),
      )
      .orderBy(asc(orders.id))
      .for("update");
    if (moving.length === 0) return { ok: true, moved: 0 } as const;
    // The target's counter row, locked: two closures moving orders into one slot count one after the other.
    await tx.execute(sql`
      INSERT INTO delivery_slot_bookings AS b (delivery_date, delivery_time, booked)
      VALUES (${to.date}, ${to.slot}, 0)
      ON CONFLICT (delivery_date, delivery_time) DO UPDATE SET booked = b.booked`);
    const [booked] = rowsOf<{ booked: number }>(
      await tx.execute(
        sql`SELECT booked FROM delivery_slot_bookings WHERE delivery_date = ${to.date} AND delivery_time = ${to.slot} FOR UPDATE`,
      ),
    );
    const left = capacity - Number(booked?.booked ?? 0);
    if (left < moving.length) {
      return {
        ok: false,
        message: `${deliveryText(to.date, to.slot)} has ${Math.max(left, 0)} ${left === 1 ? "place" : "places"} left for ${moving.length} ${moving.length === 1 ? "order" : "orders"}: choose another time, or cancel them`,
      } as const;
    }
    const store = outbox.storeEmailSettings();
    for (const order of moving) {
      await tx
        .update(orders)
        .set({ deliveryDate: to.date, deliveryTime: to.slot })
        .where(eq(orders.id, order.id));
      await tx.execute(sql`
        UPDATE delivery_slot_bookings SET booked = greatest(booked - 1, 0)
        WHERE delivery_date = ${order.deliveryDate} AND delivery_time = ${order.deliveryTime}`);
      await tx.execute(sql`
        UPDATE delivery_slot_bookings SET booked = booked + 1
        WHERE delivery_date = ${to.date} AND delivery_time = ${to.slot}`);
      const previous = deliveryText(order.deliveryDate, order.deliveryTime);
      await recordAuditBy(tx, options.audit, {
        action: "order.delivery_moved",
        targetType: "order",
        targetId: order.id,
        details: { from: previous, to: deliveryText(to.date, to.slot), reason: closedBecause },
      });
      const moved = await getOrderById(order.id, tx);
      if (!moved) continue;
      const mail = await statusEmails.deliveryMovedEmail(moved, store, previous, closedBecause);
      await tx.insert(emailOutbox).values({
        orderId: order.id,
        kind: "order-delivery-moved",
        toAddress: moved.userEmail,
        subject: mail.subject,
        textBody: mail.text,
        htmlBody: mail.html,
        nextAttemptAt: now,
        createdAt: now,
      });
    }
    return { ok: true, moved: moving.length } as const;
  });
}

/** The e-mail modules (React components), loaded when a closure first moves orders. */
async function emailModules() {
  const [statusEmails, outbox] = await Promise.all([
    import("./delivery-moved-email.server.tsx"),
    import("#app/features/email/email-outbox.server.ts"),
  ]);
  return { statusEmails, outbox };
}

/** The stored reason of an order cancelled because its delivery time closed. */
export function closureCancelReason(reason: string) {
  return `Closed: ${reason}`;
}

export type CancelOutcome = { id: string; customerName: string; ok: boolean };

/**
 * Cancels the open orders of `from`, each through the single-order cancel (its own transaction, the
 * stock back, the customer's cancellation e-mail with the closure's reason, one audit event).
 */
export async function cancelOpenOrders(
  from: { date: string; slot: string | null },
  reason: string,
  options: { audit?: AuditBy; now?: Date } = {},
): Promise<CancelOutcome[]> {
  const open = await openOrdersOf(from.date, from.slot);
  const outcomes: CancelOutcome[] = [];
  for (const order of open) {
    const result = await applyOrderAction(order.id, "cancel", {
      cancelReason: closureCancelReason(reason),
      now: options.now,
      actorId: options.audit?.actor.userId ?? null,
      audit: options.audit,
    });
    outcomes.push({ id: order.id, customerName: order.customerName, ok: result.ok && result.changed });
  }
  return outcomes;
}
