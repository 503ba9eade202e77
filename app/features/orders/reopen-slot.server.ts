/**
 * Slot capacity when an order is reopened (P-22): reopening a cancelled order takes its place
 * in its delivery slot again, so it is refused when the slot has filled up or been closed meanwhile.
 * Called by `changeOrderStatus` inside the status change's transaction, with the order row locked,
 * only when a cancelled order is moved to another status. The check is the one `place_order` makes:
 * `delivery_slot_refusal` under the date-and-slot lock (drizzle/functions/delivery_slot_refusal.sql), the order itself not counted.
 *
 * Returns null when the order may take its slot, or the message staff see.
 */

import { sql } from "drizzle-orm";
import type { Transaction } from "#app/db/client.server.ts";
import { rowsOf } from "#app/db/rows.ts";
import { getDeliverySettings } from "#app/features/delivery/delivery.server.ts";
import { slotCapacity } from "#app/features/delivery/delivery-settings.ts";

export type ReopenedOrderSlot = { orderId: string; deliveryDate: string; deliveryTime: string };

export async function reopenSlotProblem(tx: Transaction, order: ReopenedOrderSlot): Promise<string | null> {
  const capacity = slotCapacity(await getDeliverySettings(tx), order.deliveryDate, order.deliveryTime);
  const result = await tx.execute(
    sql`SELECT refusal, reason FROM delivery_slot_refusal(${order.deliveryDate}::date, ${order.deliveryTime},
      ${capacity}::integer, ${order.orderId}::uuid)`,
  );
  const [row] = rowsOf<{ refusal: string | null; reason: string | null }>(result);
  if (row?.refusal === "closed") {
    return `This delivery time is closed${row.reason ? ` (${row.reason})` : ""}: change the order's delivery time first.`;
  }
  if (row?.refusal === "full") return "This delivery time is full: change the order's delivery time first.";
  return null;
}
