import { readFileSync } from "node:fs";
import path from "node:path";
import { createElement } from "react";
import { describe, expect, it } from "vitest";
import { LONG_PRODUCT_NAME, SAMPLE_ORDERS, SAMPLE_STORE } from "#app/demo/email-previews.server.ts";
import { renderEmail } from "#app/features/email/email-layout.server.tsx";
import {
  CustomerConfirmation,
  customerConfirmationEmail,
  type EmailMessage,
  orderEmailView,
  ShopNotification,
  shopNotificationEmail,
} from "./order-emails.server.tsx";

/**
 * The subjects and text parts the hand-built string templates produced for the sample orders,
 * written by the last version of `order-emails.ts` before the port to React (record 021).
 */
type Before = Record<string, Record<"customer" | "shop", { subject: string; text: string }>>;
const BEFORE = JSON.parse(
  readFileSync(path.join(import.meta.dirname, "fixtures/order-emails-before-react.json"), "utf8"),
) as Before;

const EMAILS = { customer: customerConfirmationEmail, shop: shopNotificationEmail } as const;

describe("order e-mails as React components", () => {
  for (const [name, order] of Object.entries(SAMPLE_ORDERS)) {
    for (const [kind, email] of Object.entries(EMAILS) as Array<
      [keyof typeof EMAILS, typeof shopNotificationEmail]
    >) {
      it(`${kind} e-mail, ${name} order: subject and text exactly as before the port`, async () => {
        const mail = await email(order, SAMPLE_STORE);
        expect(mail.subject).toBe(BEFORE[name]?.[kind].subject);
        expect(mail.text).toBe(BEFORE[name]?.[kind].text);
      });
    }
  }

  it("fills its cached template into exactly what rendering the component for the order gives", async () => {
    for (const order of Object.values(SAMPLE_ORDERS)) {
      const view = orderEmailView(order, SAMPLE_STORE);
      for (const [email, component] of [
        [customerConfirmationEmail, CustomerConfirmation],
        [shopNotificationEmail, ShopNotification],
      ] as const) {
        // Twice: the first call renders the template, the second only fills it.
        for (let round = 0; round < 2; round += 1) {
          const filled = await email(order, SAMPLE_STORE);
          const direct = await renderEmail(filled.subject, createElement(component, { view }));
          expect(filled).toEqual(direct);
        }
      }
    }
  });

  const hostile = SAMPLE_ORDERS.hostile;
  const mails = async (): Promise<EmailMessage[]> => [
    await customerConfirmationEmail(hostile, SAMPLE_STORE),
    await shopNotificationEmail(hostile, SAMPLE_STORE),
  ];

  it("keeps a very long product name whole, on one line with its quantity, size and price", async () => {
    for (const mail of await mails()) {
      expect(mail.text).toContain(
        `3 × ${LONG_PRODUCT_NAME} (1/8 oz <small>) — $1,204.56\n1 × Gummies (10 pack) — $30.00\n`,
      );
      // No line of the text part is wrapped or cut: the name's line is longer than 300 characters.
      const line = mail.text.split("\n").find((candidate) => candidate.startsWith("3 × "));
      expect(line?.length).toBeGreaterThan(300);
    }
  });

  it("gives prices and totals with cents and thousands separators in both parts", async () => {
    const [customer, shop] = await mails();
    expect(customer?.text).toContain("\nTotal: $1,234.56\n");
    expect(shop?.text).toContain("\nTotal (cash on delivery): $1,234.56\n");
    expect(shop?.subject).toBe("New order #9a8b7c6d: $1,234.56 for Tue, Dec 1, 6:00 PM-8:00 PM");
    for (const mail of [customer, shop]) {
      expect(mail?.html).toContain("$1,204.56");
      expect(mail?.html).toContain("$30.00");
      expect(mail?.html).toContain("$1,234.56");
    }
  });

  it("escapes markup in names, notes and addresses in the HTML part and keeps it verbatim in the text", async () => {
    const [customer, shop] = await mails();
    for (const mail of [customer, shop]) {
      const html = mail?.html ?? "";
      expect(html).not.toContain("<script");
      expect(html).not.toContain("<b>Bold</b>");
      expect(html).not.toContain("<small>");
      expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co.");
      expect(mail?.text).toContain('Blue Dream <script>alert("x")</script> & Co.');
    }
    expect(customer?.text).toContain("Hi Bob <script>alert('hi')</script> O'Neil & Sons,");
    expect(shop?.text).toContain('Notes: Gate code <1234> & "ring twice"');
    expect(shop?.html).toContain("Gate code &lt;1234&gt; &amp; &quot;ring twice&quot;");
    // The link back to the order carries the token URL-encoded, whatever it holds.
    expect(customer?.text).toContain(
      `View your order: https://shop.example/thank-you?order=${encodeURIComponent(hostile.publicToken)}`,
    );
  });

  it("shows the store's identity from the settings in the shared layout", async () => {
    const store = { ...SAMPLE_STORE, storeName: "Green & Co <DC>", storePhone: "(202) 555-0000" };
    const mail = await customerConfirmationEmail(SAMPLE_ORDERS.typical, store);
    expect(mail.html).toContain("Green &amp; Co &lt;DC&gt;");
    expect(mail.text).toContain("— Green & Co <DC>");
    expect(mail.text).toContain("Questions? Call (202) 555-0000 or write to orders@capitalgrown.example.");
    // The banner is decoration: the store's name is not the first line of the text part.
    expect(mail.text.startsWith("Hi Ada Lovelace,\n")).toBe(true);
  });

  it("never attaches or links the ID photo", async () => {
    for (const mail of await mails()) expect(mail.html).not.toMatch(/id-photos|<img/);
  });
});
