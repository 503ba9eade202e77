/**
 * The admin order lists' one action (conventions §7): an intent of the status flow
 * (`order-status.ts`), parsed with the shared schema, applied with `applyOrderAction`. The incoming
 * and completed routes both answer with it (the completed list reopens orders).
 */
import { data } from "react-router";
import { errorMessage, log } from "#app/utils/logger.server.ts";
import { applyOrderAction } from "./admin-orders.server.ts";
import { orderStatusSchema } from "./order-status.schema.ts";
import { type CancelReasonCode, cancelReasonText } from "./order-status.ts";

export type OrderActionData = { ok: boolean; title: string; description: string };

/** `actorId`: the signed-in admin, recorded on the stock movements a cancel or reopen writes. */
export async function handleOrderAction(form: FormData, actorId: string | null) {
  const parsed = orderStatusSchema.safeParse(Object.fromEntries(form));
  const failed: OrderActionData = { ok: false, title: "Error", description: "Failed to update order status" };
  if (!parsed.success) {
    const message = parsed.error.issues.find((issue) => issue.path[0] !== "intent")?.message;
    return data({ ...failed, description: message ?? failed.description }, { status: 400 });
  }
  const { orderId, intent, reason, reasonText } = parsed.data;
  try {
    const result = await applyOrderAction(orderId, intent, {
      cancelReason: reason ? cancelReasonText(reason as CancelReasonCode, reasonText) : undefined,
      actorId,
    });
    if (result.ok && result.changed) {
      return { ok: true, title: "Success", description: "Order status updated" } satisfies OrderActionData;
    }
    if (result.ok) {
      return data(
        { ...failed, description: "This order has changed meanwhile. The list shows it as it is now." },
        { status: 409 },
      );
    }
    if (result.reason === "out-of-stock") {
      return data(
        { ...failed, description: `Not enough stock to reopen this order: ${result.itemName}` },
        { status: 409 },
      );
    }
    if (result.reason === "slot-full") {
      return data({ ...failed, description: result.message }, { status: 409 });
    }
    return data(failed, { status: 404 });
  } catch (error) {
    log.error("Failed to update order status", { error: errorMessage(error) });
    return data(failed, { status: 500 });
  }
}
