import { describe, expect, it } from "vitest";
import type { OrderActionResult } from "#app/features/orders/order-action.server.ts";
import { orderActionResponse } from "./order-action-response.server.ts";

/** The status and toast a response carries: data() keeps them in `init` and `data`, a plain object is a 200. */
function answered(response: ReturnType<typeof orderActionResponse>) {
  if ("init" in response && "data" in response) return { status: response.init?.status, body: response.data };
  return { status: 200, body: response };
}

const error = (description: string) => ({ ok: false, title: "Error", description });
const success = (description: string) => ({ ok: true, title: "Success", description });

describe("the order screens' answer to each action result", () => {
  it.each<[OrderActionResult, number, object]>([
    [{ ok: true, kind: "status-changed" }, 200, success("Order status updated")],
    [{ ok: true, kind: "order-assigned", driverName: "Dana" }, 200, success("Order assigned to Dana")],
    [{ ok: true, kind: "order-assigned", driverName: null }, 200, success("Order assigned to nobody")],
    [
      {
        ok: true,
        kind: "slot-assigned",
        slot: "10:00 AM-12:00 PM",
        orders: 1,
        driverName: "Dana",
        pendingLeft: 0,
      },
      200,
      success("1 order of 10:00 AM-12:00 PM assigned to Dana"),
    ],
    [
      {
        ok: true,
        kind: "slot-assigned",
        slot: "10:00 AM-12:00 PM",
        orders: 3,
        driverName: null,
        pendingLeft: 0,
      },
      200,
      success("3 orders of 10:00 AM-12:00 PM assigned to nobody"),
    ],
    [
      {
        ok: true,
        kind: "slot-assigned",
        slot: "10:00 AM-12:00 PM",
        orders: 2,
        driverName: "Dana",
        pendingLeft: 1,
      },
      200,
      success(
        "2 orders of 10:00 AM-12:00 PM assigned to Dana. 1 pending order was left out: confirm it first.",
      ),
    ],
    [{ ok: false, kind: "invalid-form", message: "Choose a reason" }, 400, error("Choose a reason")],
    [{ ok: false, kind: "invalid-form", message: null }, 400, error("Failed to update order status")],
    [
      { ok: false, kind: "moved-on" },
      409,
      error("This order has changed meanwhile. The list shows it as it is now."),
    ],
    [
      { ok: false, kind: "out-of-stock", itemName: "Blue Dream (3.5g)" },
      409,
      error("Not enough stock to reopen this order: Blue Dream (3.5g)"),
    ],
    [
      { ok: false, kind: "slot-refused", message: "This delivery time is full" },
      409,
      error("This delivery time is full"),
    ],
    [{ ok: false, kind: "not-on-run" }, 403, error("This order is not on your run")],
    [{ ok: false, kind: "not-found" }, 404, error("Failed to update order status")],
    [{ ok: false, kind: "failed" }, 500, error("Failed to update order status")],
    [{ ok: false, kind: "invalid-assignment" }, 400, error("Failed to assign the driver")],
    [
      { ok: false, kind: "assignment-refused", reason: "not-a-driver" },
      400,
      error("Choose an active driver"),
    ],
    [
      { ok: false, kind: "assignment-refused", reason: "not-confirmed" },
      409,
      error("Confirm this order before giving it to a driver"),
    ],
    [
      { ok: false, kind: "assignment-refused", reason: "not-open" },
      409,
      error("This order is no longer open"),
    ],
  ])("%j → %i", (result, status, body) => {
    expect(answered(orderActionResponse(result))).toEqual({ status, body });
  });
});
