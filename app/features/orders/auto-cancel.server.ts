/**
 * Pending orders whose delivery slot has ended without being confirmed are cancelled by the shop
 * itself (P-29), with the reason 'not confirmed in time': the stock goes back on the shelf
 * and the running totals move exactly as for a cancellation by staff (the same status change).
 *
 * Safe with several app instances on one PostgreSQL: the change applies only to an order still
 * pending under its row lock, so two instances never cancel the same order twice, and one confirmed
 * meanwhile by staff is left alone. Each order is read and its e-mail rendered before the batch's
 * transaction opens; the e-mail worker is woken once the batch is committed.
 */
import { and, eq, inArray, lt, or } from "drizzle-orm";
import { db } from "#app/db/client.server.ts";
import { orders } from "#app/db/schema.ts";
import { endedSlots } from "#app/features/delivery/delivery-slots.ts";
import { log } from "#app/utils/logger.server.ts";
import { startPeriodicJob } from "#app/utils/periodic-job.server.ts";
import { storeClock } from "#app/utils/store-time.ts";
import {
  changeOrderStatus,
  type PreparedStatusChange,
  prepareStatusChange,
  wakeEmailWorkerNow,
} from "./admin-orders.server.ts";

export const NOT_CONFIRMED_IN_TIME = "not confirmed in time";
/** Orders handled per transaction: a backlog is worked through in short transactions. */
const BATCH = 50;

/** Cancels every pending order whose slot has ended at `now`; returns how many it cancelled. */
export async function cancelUnconfirmedOrders(options: { now?: Date } = {}) {
  const now = options.now ?? new Date();
  const today = storeClock(now).date;
  const endedToday = endedSlots(today, now);
  const slotEnded = or(
    lt(orders.deliveryDate, today),
    endedToday.length > 0
      ? and(eq(orders.deliveryDate, today), inArray(orders.deliveryTime, endedToday))
      : undefined,
  );
  const database = await db();
  let cancelled = 0;
  const change = { now, cancelReason: NOT_CONFIRMED_IN_TIME, onlyFrom: ["pending"] as const };
  for (;;) {
    const due = await database
      .select({ id: orders.id })
      .from(orders)
      .where(and(eq(orders.status, "pending"), slotEnded))
      .orderBy(orders.deliveryDate, orders.id)
      .limit(BATCH);
    const prepared: (PreparedStatusChange | null)[] = [];
    for (const order of due) prepared.push(await prepareStatusChange(order.id, "cancelled", change));
    const changed = await database.transaction(async (tx) => {
      let count = 0;
      for (const [index, order] of due.entries()) {
        const result = await changeOrderStatus(tx, order.id, "cancelled", {
          ...change,
          prepared: prepared[index],
        });
        if (result.ok && result.changed) count += 1;
      }
      return count;
    });
    if (changed > 0) await wakeEmailWorkerNow();
    cancelled += changed;
    if (due.length < BATCH) return cancelled;
  }
}

/** Runs the check at start and then every `intervalMs` (default 5 minutes). */
export function startAutoCancelJob(options: { intervalMs?: number } = {}) {
  return startPeriodicJob(
    async () => {
      const cancelled = await cancelUnconfirmedOrders();
      if (cancelled > 0) log.info(`Cancelled ${cancelled} pending order(s) not confirmed in time`);
    },
    { intervalMs: options.intervalMs ?? 5 * 60 * 1000, failure: "The auto-cancel job failed" },
  );
}
