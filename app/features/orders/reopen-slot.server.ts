/**
 * HOOK for slot capacity (decision 22, the delivery-checkout branch): reopening a cancelled order
 * takes its place in its delivery slot again, so it must be refused when the slot has filled up or
 * been closed meanwhile. Called by `changeOrderStatus` inside the status change's transaction, with
 * the order row locked, only when a cancelled order is moved to another status.
 *
 * Return null when the order may take its slot, or the message staff see ('This delivery time is
 * full: …'). Until slot capacity exists every slot has room.
 */
import type { Transaction } from "#app/db/client.server.ts";

export type ReopenedOrderSlot = { orderId: string; deliveryDate: string; deliveryTime: string };

export async function reopenSlotProblem(_tx: Transaction, _order: ReopenedOrderSlot): Promise<string | null> {
  return null;
}
