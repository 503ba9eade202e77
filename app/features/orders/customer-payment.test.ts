import { describe, expect, it } from "vitest";
import { customerPayment } from "./customer-payment.ts";

describe("customerPayment", () => {
  it.each(["pending", "confirmed", "out_for_delivery"] as const)(
    "a %s order: payment due at delivery, the exact amount or the change",
    (status) => {
      expect(customerPayment(status, 8000, null)).toEqual({
        title: "Cash on Delivery",
        detail: "Payment due at delivery",
        cashToPrepare: "Prepare the exact amount in cash: $80.00.",
      });
      expect(customerPayment(status, 8000, 15000).cashToPrepare).toBe(
        "You'll pay with $150.00: your driver brings $70.00 change (your total is $80.00).",
      );
      expect(customerPayment(status, 8000, 8000).cashToPrepare).toBe(
        "Prepare the exact amount in cash: $80.00.",
      );
    },
  );

  it("a delivered order is paid; a cancelled one owes nothing, whatever was to be paid with", () => {
    expect(customerPayment("delivered", 8000, 15000)).toEqual({
      title: "Paid in cash",
      detail: "Paid at delivery: $80.00",
      cashToPrepare: null,
    });
    expect(customerPayment("cancelled", 8000, 15000)).toEqual({
      title: "Nothing is due",
      detail: "This order is cancelled: you pay nothing.",
      cashToPrepare: null,
    });
  });
});
