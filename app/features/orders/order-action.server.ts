/**
 * The admin order lists' one action: an intent of the status flow
 * (`order-status.ts`), parsed with the shared schema, applied with `applyOrderAction`. The incoming
 * and completed routes both answer with it (the completed list reopens orders), the today board
 * with `todayBoardAction`. Both return what happened; the routes turn it into a status code and a toast.
 */
import type { RouterContextProvider } from "react-router";
import { type AuditBy, auditBy } from "#app/features/audit/audit.server.ts";
import { adminForm, requireAdmin } from "#app/features/staff/guard.server.ts";
import { errorMessage, log } from "#app/utils/logger.server.ts";
import { applyOrderAction } from "./admin-orders.server.ts";
import { type AssignmentRefusal, assignDriver, assignmentSchema } from "./driver-assignment.server.ts";
import { type StaffScope, staffScopeOf } from "./driver-scope.server.ts";
import { orderStatusSchema } from "./order-status.schema.ts";
import { type CancelReasonCode, cancelReasonText } from "./order-status.ts";

export type OrderActionResult =
  | { ok: true; kind: "status-changed" }
  | { ok: true; kind: "order-assigned"; driverName: string | null }
  | {
      ok: true;
      kind: "slot-assigned";
      slot: string;
      orders: number;
      driverName: string | null;
      /** Pending orders of the slot left out: only confirmed orders go to a driver. */
      pendingLeft: number;
    }
  /** The form did not parse; `message` is the schema's for a field, null for an unknown intent. */
  | { ok: false; kind: "invalid-form"; message: string | null }
  /** The order had moved on meanwhile (another person's change): nothing was changed. */
  | { ok: false; kind: "moved-on" }
  | { ok: false; kind: "out-of-stock"; itemName: string }
  | { ok: false; kind: "slot-refused"; message: string }
  | { ok: false; kind: "not-on-run" }
  | { ok: false; kind: "not-found" }
  | { ok: false; kind: "failed" }
  | { ok: false; kind: "invalid-assignment" }
  | { ok: false; kind: "assignment-refused"; reason: AssignmentRefusal };

/**
 * `by`: the signed-in admin, recorded on the stock movements a cancel or reopen writes and in the
 * audit log; `scope`: the orders they may change (a driver's run).
 */
export async function handleOrderAction(
  form: FormData,
  by: AuditBy,
  scope: StaffScope,
): Promise<OrderActionResult> {
  const parsed = orderStatusSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) {
    const message = parsed.error.issues.find((issue) => issue.path[0] !== "intent")?.message;
    return { ok: false, kind: "invalid-form", message: message ?? null };
  }
  const { orderId, intent, reason, reasonText } = parsed.data;
  try {
    const result = await applyOrderAction(orderId, intent, {
      cancelReason: reason ? cancelReasonText(reason as CancelReasonCode, reasonText) : undefined,
      actorId: by.actor.userId,
      audit: by,
      scope,
    });
    if (result.ok)
      return result.changed ? { ok: true, kind: "status-changed" } : { ok: false, kind: "moved-on" };
    if (result.reason === "out-of-stock")
      return { ok: false, kind: "out-of-stock", itemName: result.itemName };
    if (result.reason === "slot-full") return { ok: false, kind: "slot-refused", message: result.message };
    if (result.reason === "forbidden") return { ok: false, kind: "not-on-run" };
    return { ok: false, kind: "not-found" };
  } catch (error) {
    log.error("Failed to update order status", { error: errorMessage(error) });
    return { ok: false, kind: "failed" };
  }
}

/** The signed-in admin's order action: within their scope, recorded as theirs. */
export async function staffOrderAction(context: Readonly<RouterContextProvider>) {
  const admin = requireAdmin(context);
  return handleOrderAction(adminForm(context), auditBy(admin, context), staffScopeOf(admin));
}

/** The today board's posts: a driver assignment (owners and managers), or a status move. */
export async function todayBoardAction(context: Readonly<RouterContextProvider>): Promise<OrderActionResult> {
  const admin = requireAdmin(context);
  const form = adminForm(context);
  const by = auditBy(admin, context);
  const intent = form.get("intent");
  if (intent !== "assign" && intent !== "assign-slot")
    return handleOrderAction(form, by, staffScopeOf(admin));
  const parsed = assignmentSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) return { ok: false, kind: "invalid-assignment" };
  const result = await assignDriver(parsed.data, by);
  if (!result.ok) return { ok: false, kind: "assignment-refused", reason: result.reason };
  return parsed.data.intent === "assign"
    ? { ok: true, kind: "order-assigned", driverName: result.driverName }
    : {
        ok: true,
        kind: "slot-assigned",
        slot: parsed.data.slot,
        orders: result.orders,
        driverName: result.driverName,
        pendingLeft: result.pendingLeft,
      };
}
