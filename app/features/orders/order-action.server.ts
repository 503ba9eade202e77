/**
 * The admin order lists' one action: an intent of the status flow
 * (`order-status.ts`), parsed with the shared schema, applied with `applyOrderAction`. The incoming
 * and completed routes both answer with it (the completed list reopens orders).
 */
import { data, type RouterContextProvider } from "react-router";
import { adminForm, requireAdmin } from "#app/features/admin-auth/guard.server.ts";
import { type AuditBy, auditBy } from "#app/features/staff/audit.server.ts";
import { errorMessage, log } from "#app/utils/logger.server.ts";
import { applyOrderAction } from "./admin-orders.server.ts";
import { assignDriver, assignmentSchema } from "./driver-assignment.server.ts";
import { type StaffScope, staffScopeOf } from "./driver-scope.server.ts";
import { orderStatusSchema } from "./order-status.schema.ts";
import { type CancelReasonCode, cancelReasonText } from "./order-status.ts";

export type OrderActionData = { ok: boolean; title: string; description: string };

/**
 * `by`: the signed-in admin, recorded on the stock movements a cancel or reopen writes and in the
 * audit log; `scope`: the orders they may change (a driver's run).
 */
export async function handleOrderAction(form: FormData, by: AuditBy, scope: StaffScope) {
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
      actorId: by.actor.userId,
      audit: by,
      scope,
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
    if (result.reason === "forbidden") {
      return data({ ...failed, description: "This order is not on your run" }, { status: 403 });
    }
    return data(failed, { status: 404 });
  } catch (error) {
    log.error("Failed to update order status", { error: errorMessage(error) });
    return data(failed, { status: 500 });
  }
}

/** The signed-in admin's order action: within their scope, recorded as theirs. */
export async function staffOrderAction(context: Readonly<RouterContextProvider>) {
  const admin = requireAdmin(context);
  return handleOrderAction(adminForm(context), auditBy(admin, context), staffScopeOf(admin));
}

/** The today board's posts: a driver assignment (owners and managers), or a status move. */
export async function todayBoardAction(context: Readonly<RouterContextProvider>) {
  const admin = requireAdmin(context);
  const form = adminForm(context);
  const by = auditBy(admin, context);
  const intent = form.get("intent");
  if (intent !== "assign" && intent !== "assign-slot")
    return handleOrderAction(form, by, staffScopeOf(admin));
  const failed: OrderActionData = { ok: false, title: "Error", description: "Failed to assign the driver" };
  const parsed = assignmentSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) return data(failed, { status: 400 });
  const result = await assignDriver(parsed.data, by);
  if (!result.ok) return data({ ...failed, description: "Choose an active driver" }, { status: 400 });
  const who = result.driverName ?? "nobody";
  return {
    ok: true,
    title: "Success",
    description:
      parsed.data.intent === "assign"
        ? `Order assigned to ${who}`
        : `${result.orders} ${result.orders === 1 ? "order" : "orders"} of ${parsed.data.slot} assigned to ${who}`,
  } satisfies OrderActionData;
}
