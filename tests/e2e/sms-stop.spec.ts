/**
 * P-37 in the browser (record 054): a shopper who ticks 'Text me updates' gets the order-received
 * text once (Twilio's Messages API, here a loopback stand-in the server is pointed at through
 * TWILIO_API_URL); their replies reach the shop's webhook signed as Twilio signs them: HELP is
 * answered, STOP silences the number, so the owner's 'Out for Delivery' sends no text while its
 * e-mail still goes. An unsigned or wrongly signed call changes nothing. Its own server with texts.
 */
import { expect, test } from "@playwright/test";
import { and, eq } from "drizzle-orm";
import { emailOutbox, orders, smsOptOuts } from "#app/db/schema.ts";
import { startLoopbackTwilio, twilioSignature } from "../support/loopback-twilio.ts";
import { fillCheckout } from "./checkout-form.ts";
import { type OwnShop, startOwnShop } from "./own-shop.ts";
import { signInAs } from "./support/admin-sign-in.ts";
import { passAgeGate } from "./support/storefront.ts";

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
const ACCOUNT_SID = `AC${"0123456789abcdef".repeat(2)}`;
const AUTH_TOKEN = "e2e-loopback-stop-token-9876543210";
const SHOP_NUMBER = "+12025550100";
const PHONE = "+12025550178";
const OWNER = { email: "sms-owner@capitalgrown.test", password: "Sms-Owner-Cedar-Hill-42" };
const SHOPPER = {
  name: "Stella Stopper",
  email: "stella.stopper@example.com",
  phone: "(202) 555-0178",
  textMe: true,
};

test.describe("texts and STOP", () => {
  test.skip(
    !TEST_DATABASE_URL,
    "needs TEST_DATABASE_URL (PostgreSQL: the test reads the outbox beside the server)",
  );

  test("the order-received text arrives once; HELP is answered; after STOP a status change texts nothing and still e-mails", async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    const twilio = await startLoopbackTwilio(ACCOUNT_SID, AUTH_TOKEN);
    let own: OwnShop | undefined;
    try {
      own = await startOwnShop(TEST_DATABASE_URL as string, "cg_sms_stop", {
        SEED_DEMO_COUNT: "12",
        ADMIN_EMAIL: OWNER.email,
        ADMIN_PASSWORD: OWNER.password,
        TWILIO_ACCOUNT_SID: ACCOUNT_SID,
        TWILIO_AUTH_TOKEN: AUTH_TOKEN,
        TWILIO_FROM: SHOP_NUMBER,
        TWILIO_API_URL: twilio.url,
      });
      const { app, db } = own;
      const base = app.url;
      const received = twilio.received;
      const textsTo = () => received.filter((text) => text.to === PHONE);

      const shop = await browser.newContext();
      await passAgeGate(shop);
      const page = await shop.newPage();
      await fillCheckout(page, base, SHOPPER);
      await page.getByRole("button", { name: /Place Order/ }).click();
      await expect(page).toHaveURL(/\/thank-you\?order=[\w-]{32}$/, { timeout: 20_000 });
      const [order] = await db
        .select({ id: orders.id, smsOptIn: orders.smsOptIn })
        .from(orders)
        .where(eq(orders.userEmail, SHOPPER.email));
      expect(order?.smsOptIn).toBe(true);
      const orderId = (order as { id: string }).id;

      // The order-received text, once, from the shop's number, through the `twilio` library's client.
      await expect.poll(() => textsTo().length, { timeout: 15_000 }).toBe(1);
      const [first] = textsTo();
      expect(first?.from).toBe(SHOP_NUMBER);
      expect(first?.body).toContain("we got order");
      expect(first?.body).toContain("Reply STOP");
      expect(first?.userAgent).toMatch(/^twilio-node\//);
      await page.waitForTimeout(1_500);
      expect(textsTo()).toHaveLength(1);

      /** A text from the customer to the shop's number, as Twilio posts it to the webhook. */
      const reply = (body: string, signWith: string | null = AUTH_TOKEN) => {
        const params = {
          AccountSid: ACCOUNT_SID,
          MessageSid: `SM${body.toLowerCase().padEnd(32, "0")}`,
          From: PHONE,
          To: SHOP_NUMBER,
          Body: body,
        };
        const url = `${base}/api/sms/incoming`;
        return page.request.post(url, {
          form: params,
          headers: signWith ? { "X-Twilio-Signature": twilioSignature(signWith, url, params) } : {},
        });
      };

      const help = await reply("HELP");
      expect(help.status()).toBe(200);
      expect(help.headers()["content-type"]).toContain("text/xml");
      expect(await help.text()).toContain(
        "<Message>Capital Grown: texts about your orders. Call (202) 555-0142 for help. Reply STOP to end them.</Message>",
      );

      // Not Twilio: refused, and the number is not silenced by it.
      expect((await reply("STOP", null)).status()).toBe(403);
      expect((await reply("STOP", "not-the-auth-token")).status()).toBe(403);
      expect(await db.select().from(smsOptOuts).where(eq(smsOptOuts.phone, PHONE))).toEqual([]);

      const stop = await reply("Stop");
      expect(stop.status()).toBe(200);
      expect(await stop.text()).toContain("you will get no more texts from us");
      expect(await db.select({ phone: smsOptOuts.phone }).from(smsOptOuts)).toEqual([{ phone: PHONE }]);
      // The answers go back in the webhook's response, not as texts of their own.
      expect(textsTo()).toHaveLength(1);

      // The owner confirms the order and sends it out for delivery.
      const office = await browser.newContext({ baseURL: base });
      const admin = await office.newPage();
      await signInAs(admin, OWNER);
      await admin.goto("/admin/orders");
      const card = admin.getByRole("listitem").filter({ hasText: SHOPPER.name });
      await card.getByRole("button", { name: "Confirm" }).click();
      await expect(card.getByText("Confirmed", { exact: true })).toBeVisible();
      await card.getByRole("button", { name: "Out for Delivery" }).click();
      await expect(card.getByText("Out for delivery", { exact: true })).toBeVisible();

      // Its text is queued with the change and given up as it goes; its e-mail is sent.
      const outboxRow = (kind: string) =>
        db
          .select({
            status: emailOutbox.status,
            lastError: emailOutbox.lastError,
            toAddress: emailOutbox.toAddress,
          })
          .from(emailOutbox)
          .where(and(eq(emailOutbox.orderId, orderId), eq(emailOutbox.kind, kind)));
      await expect
        .poll(async () => (await outboxRow("sms-order-out-for-delivery"))[0]?.status, { timeout: 15_000 })
        .toBe("failed");
      expect(await outboxRow("sms-order-out-for-delivery")).toEqual([
        { status: "failed", lastError: "The number replied STOP", toAddress: PHONE },
      ]);
      await expect
        .poll(async () => (await outboxRow("order-out-for-delivery"))[0]?.status, { timeout: 15_000 })
        .toBe("sent");
      expect((await outboxRow("order-out-for-delivery"))[0]?.toAddress).toBe(SHOPPER.email);
      await expect.poll(async () => (await outboxRow("order-confirmed"))[0]?.status).toBe("sent");
      await admin.waitForTimeout(1_500);
      expect(textsTo()).toHaveLength(1);
      expect(received).toHaveLength(1);
      await office.close();
      await shop.close();
    } finally {
      await own?.stop();
      await twilio.close();
    }
  });
});
