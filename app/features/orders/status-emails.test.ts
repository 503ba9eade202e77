import { describe, expect, it } from "vitest";
import {
  EMAIL_PREVIEWS,
  LONG_PRODUCT_NAME,
  SAMPLE_ORDERS,
  SAMPLE_STORE,
} from "#app/demo/email-previews.server.ts";
import { customerConfirmationEmail } from "./order-emails.server.tsx";
import { statusEmail } from "./status-emails.server.tsx";

const hostile = SAMPLE_ORDERS.hostile;
const orderLink = "https://shop.example/thank-you?order=tok_%3Cb%3E%26%22'zyx";

describe("status e-mails (P-23)", () => {
  it("renders every status e-mail of the long-name sample: subject, the long name, the order page link", async () => {
    const previews = EMAIL_PREVIEWS.filter((preview) =>
      /^order-(confirmed|out-for-delivery|delivered|cancelled|cancelled-by-customer)-hostile$/.test(
        preview.name,
      ),
    );
    expect(previews).toHaveLength(5);
    for (const preview of previews) {
      const mail = await preview.render(SAMPLE_STORE);
      expect(mail.subject.length, preview.name).toBeGreaterThan(10);
      expect(mail.text, preview.name).toContain("9a8b7c6d");
      // Every e-mail but 'on its way' lists the items: the 300-character name whole, in both parts.
      if (!preview.name.startsWith("order-out-for-delivery")) {
        expect(mail.text, preview.name).toContain(LONG_PRODUCT_NAME);
        expect(mail.html, preview.name).toContain("Extra Long Cured Small Batch Indoor");
      }
      expect(mail.html, preview.name).not.toContain("<script>");
      expect(mail.html, preview.name).toContain("&lt;script&gt;");
      if (preview.name.startsWith("order-cancelled-by-customer")) {
        expect(mail.text).toContain("https://shop.example/admin/completed-orders");
      } else {
        expect(mail.text, preview.name).toContain(orderLink);
      }
    }
  });

  it("says each step in the customer's words", async () => {
    const confirmed = await statusEmail("confirmed", hostile, SAMPLE_STORE);
    expect(confirmed.subject).toBe("Your order is confirmed for Tue, Dec 1, 6:00 PM-8:00 PM");
    const onItsWay = await statusEmail("out_for_delivery", hostile, SAMPLE_STORE);
    expect(onItsWay.subject).toBe("Your order is on its way (#9a8b7c6d)");
    expect(onItsWay.text).toContain("Your order #9a8b7c6d is on its way to 42 <b>Bold</b> St & 5th");
    const delivered = await statusEmail("delivered", hostile, SAMPLE_STORE);
    expect(delivered.text).toContain("Thank you for shopping with Capital Grown");
    expect(delivered.text).toContain("Paid in cash: $1,234.56");
    const noId = await statusEmail("cancelled", hostile, SAMPLE_STORE, "No valid ID");
    expect(noId.text).toContain(
      "is cancelled because we could not check a valid ID showing you are 21 or older.",
    );
    const other = await statusEmail("cancelled", hostile, SAMPLE_STORE, "Other: the road is closed");
    expect(other.text).toContain("is cancelled because the road is closed.");
    const none = await statusEmail("cancelled", hostile, SAMPLE_STORE, null);
    expect(none.text).toContain("for Tue, Dec 1, 6:00 PM-8:00 PM is cancelled.");
    expect(none.text).not.toContain("because");
  });

  it("tells each status's payment, with what the customer said they would pay with", async () => {
    const order = { ...SAMPLE_ORDERS.typical, totalAmountCents: 8000, payWithCents: 15000 };
    const change = "You'll pay with $150.00: your driver brings $70.00 change (your total is $80.00).";
    const received = await customerConfirmationEmail(order, SAMPLE_STORE);
    expect(received.text).toContain(`Cash on Delivery: payment is due at delivery. ${change}`);
    expect(received.text).not.toContain("exact amount");
    for (const status of ["confirmed", "out_for_delivery"] as const) {
      const mail = await statusEmail(status, order, SAMPLE_STORE);
      expect(mail.text, status).toContain(`Payment is due at delivery. ${change}`);
      expect(mail.text, status).not.toContain("exact amount");
    }
    const delivered = await statusEmail("delivered", order, SAMPLE_STORE);
    expect(delivered.text).toContain("Paid in cash: $80.00");
    expect(delivered.text).not.toContain("due");
    const cancelled = await statusEmail("cancelled", order, SAMPLE_STORE);
    expect(cancelled.text).toContain("Nothing is due.");
    expect(cancelled.text).not.toContain("Payment is due");

    const exact = { ...order, payWithCents: null };
    expect((await customerConfirmationEmail(exact, SAMPLE_STORE)).text).toContain(
      "Cash on Delivery: payment is due at delivery. Prepare the exact amount in cash: $80.00.",
    );
    expect((await statusEmail("confirmed", exact, SAMPLE_STORE)).text).toContain(
      "Payment is due at delivery. Prepare the exact amount in cash: $80.00.",
    );
  });
});
