import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { OrderPaymentNote } from "./order-payment-note.tsx";

const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replaceAll("&#x27;", "'")
    .replace(/\s+/g, " ")
    .trim();

function note(status: Parameters<typeof OrderPaymentNote>[0]["status"], payWithCents: number | null) {
  return textOf(
    renderToStaticMarkup(<OrderPaymentNote status={status} totalCents={8000} payWithCents={payWithCents} />),
  );
}

describe("the order page's payment box", () => {
  it.each(["pending", "confirmed", "out_for_delivery"] as const)(
    "%s: due at delivery, with the change",
    (status) => {
      expect(note(status, 15000)).toBe(
        "Cash on Delivery Payment due at delivery You'll pay with $150.00: your driver brings $70.00 change (your total is $80.00).",
      );
      expect(note(status, null)).toBe(
        "Cash on Delivery Payment due at delivery Prepare the exact amount in cash: $80.00.",
      );
    },
  );

  it("delivered: paid; cancelled: nothing due, never 'Payment due at delivery'", () => {
    expect(note("delivered", 15000)).toBe("Paid in cash Paid at delivery: $80.00");
    expect(note("cancelled", 15000)).toBe("Nothing is due This order is cancelled: you pay nothing.");
  });
});
