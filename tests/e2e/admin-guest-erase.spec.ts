/**
 * A guest's data on request (record 057), in the browser: a shopper checks out as a guest; the owner
 * finds them on /admin/customers by the phone as anyone would type it, downloads their data (the
 * order with its lines), is refused the erasure while the order is open, delivers it, and erases
 * after the confirmation. The order stays for the books without personal data and its ID photo is
 * deleted; the audit log shows the export and the erasure. Its own server on a throwaway PostgreSQL
 * database (it needs TEST_DATABASE_URL).
 */
import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { eq } from "drizzle-orm";
import { idPhotos, orderItems, orders } from "#app/db/schema.ts";
import { fillCheckout } from "./checkout-form.ts";
import { startOwnShop } from "./own-shop.ts";
import { signInAs } from "./support/admin-sign-in.ts";
import { passAgeGate } from "./support/storefront.ts";

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
const OWNER = { email: "guest-owner@capitalgrown.test", password: "Guest-Owner-Maple-Row-58" };
const GUEST = {
  name: "Gus Guestly",
  email: "Gus.Guestly@example.com",
  phone: "(202) 555-0191",
  textMe: false,
};

test.describe("a guest's data for staff", () => {
  test.skip(!TEST_DATABASE_URL, "needs TEST_DATABASE_URL (PostgreSQL)");

  test("the owner finds a guest by phone, exports their order, and erases it once delivered, audited", async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    const own = await startOwnShop(TEST_DATABASE_URL as string, "cg_guest_erase", {
      SEED_DEMO_COUNT: "12",
      ADMIN_EMAIL: OWNER.email,
      ADMIN_PASSWORD: OWNER.password,
    });
    try {
      const { app, db } = own;

      const shop = await browser.newContext();
      await passAgeGate(shop);
      const shopper = await shop.newPage();
      const productName = await fillCheckout(shopper, app.url, GUEST);
      await shopper.getByRole("button", { name: /Place Order/ }).click();
      await expect(shopper).toHaveURL(/\/thank-you\?order=[\w-]{32}$/, { timeout: 20_000 });
      await shop.close();
      const [placed] = await db
        .select({ id: orders.id, idPhotoId: orders.idPhotoId, customerId: orders.customerId })
        .from(orders)
        .where(eq(orders.userEmail, GUEST.email));
      expect(placed?.customerId).toBeNull();
      expect(placed?.idPhotoId).toBeTruthy();
      const order = placed as { id: string; idPhotoId: string };

      const office = await browser.newContext({ baseURL: app.url, acceptDownloads: true });
      const page = await office.newPage();
      await signInAs(page, OWNER);
      await page.goto("/admin/customers");
      await page.getByLabel("Name, phone or e-mail").fill(GUEST.phone);
      await page.getByRole("button", { name: "Search" }).click();
      const found = page.getByRole("list", { name: "Customers found" }).getByRole("listitem");
      await expect(found).toHaveCount(1);
      await expect(found).toContainText(GUEST.name);
      await expect(found).toContainText("Guest, no account");
      await expect(found).toContainText("gus.guestly@example.com");
      await expect(found).toContainText("1 order");

      const downloading = page.waitForEvent("download");
      await found.getByRole("link", { name: "Export data" }).click();
      const download = await downloading;
      expect(download.suggestedFilename()).toBe("guest-customer.json");
      const exported = JSON.parse(readFileSync((await download.path()) as string, "utf8"));
      expect(exported.guest).toEqual({ email: "gus.guestly@example.com" });
      expect(exported.orders).toHaveLength(1);
      expect(exported.orders[0]).toMatchObject({
        id: order.id,
        status: "pending",
        name: GUEST.name,
        email: GUEST.email,
        phone: "+12025550191",
        deliveryAddress: "1600 Test Ave NW, Washington, DC 20001",
        hasIdPhoto: true,
      });
      expect(exported.orders[0].items).toHaveLength(1);
      expect(exported.orders[0].items[0]).toMatchObject({ productName });

      // Refused while the order is open: the driver needs the address.
      const erase = async () => {
        await found.getByRole("button", { name: "Erase data" }).click();
        const dialog = page.getByRole("dialog");
        await expect(dialog).toContainText(`Erase ${GUEST.name}'s data?`);
        await expect(dialog).toContainText("This cannot be undone.");
        await dialog.getByRole("button", { name: "Erase data" }).click();
      };
      await erase();
      await expect(page.getByRole("alert")).toContainText("An order of this customer is still open.");
      const [unchanged] = await db.select().from(orders).where(eq(orders.id, order.id));
      expect(unchanged?.customerName).toBe(GUEST.name);

      await page.goto("/admin/orders");
      const card = page.getByRole("listitem").filter({ hasText: GUEST.name });
      await card.getByRole("button", { name: "Confirm" }).click();
      await expect(card.getByText("Confirmed", { exact: true })).toBeVisible();
      await card.getByRole("button", { name: "Out for Delivery" }).click();
      await expect(card.getByText("Out for delivery", { exact: true })).toBeVisible();
      await card.getByRole("button", { name: "Mark Delivered" }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Mark Delivered" }).click();
      await expect(page.getByRole("listitem").filter({ hasText: GUEST.name })).toHaveCount(0);

      await page.goto(`/admin/customers?q=${encodeURIComponent(GUEST.email)}`);
      await expect(found).toHaveCount(1);
      await erase();
      await expect(
        page.getByText("Customer data erased. 1 order kept for the books without personal data."),
      ).toBeVisible();
      const [kept] = await db.select().from(orders).where(eq(orders.id, order.id));
      expect(kept).toMatchObject({
        status: "delivered",
        customerName: "Deleted customer",
        userEmail: "",
        phone: "",
        street: "",
        deliveryAddress: "",
        notes: null,
        idPhotoId: null,
        customerId: null,
      });
      expect(await db.select().from(orderItems).where(eq(orderItems.orderId, order.id))).toHaveLength(1);
      expect(await db.select().from(idPhotos).where(eq(idPhotos.id, order.idPhotoId))).toEqual([]);
      await page.goto(`/admin/customers?q=${encodeURIComponent(GUEST.phone)}`);
      await expect(page.getByText(`No customer matches “${GUEST.phone}”.`)).toBeVisible();

      // Both requests in the audit log, by the owner, naming no e-mail.
      for (const [action, label] of [
        ["customer.exported", "Exported a customer's data on request"],
        ["customer.erased", "Erased a customer's data on request"],
      ]) {
        await page.goto(`/admin/audit?action=${action}`);
        const events = page.getByRole("listitem").filter({ hasText: label });
        await expect(events).toHaveCount(1);
        await expect(events).toContainText(OWNER.email);
        await expect(events).toContainText("guest");
        await expect(events).not.toContainText("gus.guestly");
      }
      await office.close();
    } finally {
      await own.stop();
    }
  });
});
