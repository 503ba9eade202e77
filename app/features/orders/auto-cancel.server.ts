/**
 * Pending orders whose delivery slot has ended without being confirmed are cancelled by the shop
 * itself (P-29), with the reason 'not confirmed in time': the stock goes back on the shelf
 * and the running totals move exactly as for a cancellation by staff (the same status change).
 *
 * Safe with several app instances on one PostgreSQL: each run locks the orders it handles with
 * `FOR UPDATE SKIP LOCKED`, so two instances never cancel the same order, and the change applies
 * only to an order still pending (one confirmed meanwhile by staff is left alone).
 */
import { and, eq, inArray, lt, or } from "drizzle-orm";
import { db } from "#app/db/client.server.ts";
import { orders } from "#app/db/schema.ts";
import { endedSlots } from "#app/features/checkout/delivery-slots.ts";
import { log } from "#app/utils/logger.server.ts";
import { startPeriodicJob } from "#app/utils/periodic-job.server.ts";
import { storeClock } from "#app/utils/store-time.ts";
import { changeOrderStatus } from "./admin-orders.server.ts";

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
  for (;;) {
    const batch = await database.transaction(async (tx) => {
      const due = await tx
        .select({ id: orders.id })
        .from(orders)
        .where(and(eq(orders.status, "pending"), slotEnded))
        .orderBy(orders.deliveryDate, orders.id)
        .limit(BATCH)
        .for("update", { skipLocked: true });
      let changed = 0;
      for (const order of due) {
        const result = await changeOrderStatus(tx, order.id, "cancelled", {
          now,
          cancelReason: NOT_CONFIRMED_IN_TIME,
          onlyFrom: ["pending"],
        });
        if (result.ok && result.changed) changed += 1;
      }
      return { seen: due.length, changed };
    });
    cancelled += batch.changed;
    if (batch.seen < BATCH) return cancelled;
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
