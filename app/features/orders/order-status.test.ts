import { describe, expect, it } from "vitest";
import { parseOrderFilters } from "./order-search.schema.ts";
import {
  ALL_STATUSES,
  actionsFor,
  cancelReasonForCustomer,
  cancelReasonText,
  canTake,
  ORDER_ACTIONS,
} from "./order-status.ts";

describe("the order status flow table (P-23)", () => {
  it("offers each status its next steps, with the first shop's words", () => {
    expect(ALL_STATUSES.map((status) => [status, actionsFor(status)])).toEqual([
      ["pending", ["confirm", "cancel"]],
      ["confirmed", ["out-for-delivery", "deliver", "cancel"]],
      ["out_for_delivery", ["deliver", "cancel"]],
      ["returning", ["check-in", "send-out-again"]],
      ["delivered", ["reopen"]],
      ["cancelled", ["reopen"]],
    ]);
    expect([ORDER_ACTIONS.confirm.label, ORDER_ACTIONS.deliver.label, ORDER_ACTIONS.cancel.label]).toEqual([
      "Confirm",
      "Mark Delivered",
      "Cancel",
    ]);
    expect(ORDER_ACTIONS["out-for-delivery"].label).toBe("Out for Delivery");
    expect(canTake("deliver", "pending")).toBe(false);
    // Mark Delivered, Cancel and Reopen ask first; Confirm and Out for Delivery do not.
    expect(
      Object.entries(ORDER_ACTIONS)
        .filter(([, action]) => action.confirm)
        .map(([name]) => name),
    ).toEqual(["deliver", "cancel", "reopen", "check-in", "send-out-again"]);
  });

  it("stores a reason as staff read it and tells the customer in plain words", () => {
    expect(cancelReasonText("no-valid-id")).toBe("No valid ID");
    expect(cancelReasonText("other", "  moved away ")).toBe("Other: moved away");
    expect(cancelReasonForCustomer("Address not reachable")).toBe("we could not reach your delivery address");
    expect(cancelReasonForCustomer("not confirmed in time")).toBe(
      "we could not confirm it before its delivery time",
    );
    expect(cancelReasonForCustomer("Other: moved away")).toBe("moved away");
    expect(cancelReasonForCustomer(null)).toBe("");
  });

  it("reads the lists' filters from the URL, dropping what is not valid", () => {
    expect(
      parseOrderFilters(new URLSearchParams("q=%20Ada%20&status=out_for_delivery&from=2026-11-01")),
    ).toEqual({
      q: "Ada",
      status: "out_for_delivery",
      from: "2026-11-01",
    });
    expect(parseOrderFilters(new URLSearchParams("status=lost&to=tomorrow&q="))).toEqual({});
  });
});
