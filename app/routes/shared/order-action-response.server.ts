/**
 * What the admin order screens' status buttons and the today board's driver assignment get back:
 * the HTTP status and the toast (`{ ok, title, description }`, shown by `OrderActions` and the
 * board) for each result of `order-action.server.ts`. Used by the incoming and completed lists and
 * the today board.
 */
import { data } from "react-router";
import {
  type AssignmentRefusal,
  NOT_CONFIRMED_FOR_DRIVER,
} from "#app/features/orders/driver-assignment.server.ts";
import type { OrderActionResult } from "#app/features/orders/order-action.server.ts";

export type OrderActionData = { ok: boolean; title: string; description: string };

const STATUS_FAILED = "Failed to update order status";
const ASSIGN_FAILED = "Failed to assign the driver";

function refused(status: 400 | 403 | 404 | 409 | 500, description: string) {
  return data({ ok: false, title: "Error", description } satisfies OrderActionData, { status });
}

function done(description: string) {
  return { ok: true, title: "Success", description } satisfies OrderActionData;
}

export function orderActionResponse(result: OrderActionResult) {
  switch (result.kind) {
    case "status-changed":
      return done("Order status updated");
    case "order-assigned":
      return done(`Order assigned to ${result.driverName ?? "nobody"}`);
    case "slot-assigned":
      return done(
        `${result.orders} ${result.orders === 1 ? "order" : "orders"} of ${result.slot} assigned to ${result.driverName ?? "nobody"}${pendingLeftText(result.pendingLeft)}`,
      );
    case "invalid-form":
      return refused(400, result.message ?? STATUS_FAILED);
    case "moved-on":
      return refused(409, "This order has changed meanwhile. The list shows it as it is now.");
    case "out-of-stock":
      return refused(409, `Not enough stock to reopen this order: ${result.itemName}`);
    case "slot-refused":
      return refused(409, result.message);
    case "not-on-run":
      return refused(403, "This order is not on your run");
    case "not-found":
      return refused(404, STATUS_FAILED);
    case "failed":
      return refused(500, STATUS_FAILED);
    case "invalid-assignment":
      return refused(400, ASSIGN_FAILED);
    case "assignment-refused":
      return refused(result.reason === "not-a-driver" ? 400 : 409, ASSIGNMENT_REFUSALS[result.reason]);
  }
}

const ASSIGNMENT_REFUSALS: Record<AssignmentRefusal, string> = {
  "not-a-driver": "Choose an active driver",
  "not-confirmed": NOT_CONFIRMED_FOR_DRIVER,
  "not-open": "This order is no longer open",
};

function pendingLeftText(pendingLeft: number) {
  if (pendingLeft === 0) return "";
  return pendingLeft === 1
    ? ". 1 pending order was left out: confirm it first."
    : `. ${pendingLeft} pending orders were left out: confirm them first.`;
}
