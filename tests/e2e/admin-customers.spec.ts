/**
 * Customers for staff (record 057) on a 390 px phone: a manager opens Customers from the Menu
 * panel, finds a customer by the phone as anyone would type it, opens them, writes a note, exports
 * their data, saves the note again without JavaScript and erases the data (the order stays, anonymised), every step audited; a driver gets the
 * 403 page. Its own server on a throwaway PostgreSQL database (it needs TEST_DATABASE_URL).
 */
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { eq } from "drizzle-orm";
import { adminUsers, auditEvents, customers, orders } from "#app/db/schema.ts";
import { hashPassword } from "#app/features/staff/passwords.server.ts";
import { insertOrderRow } from "../support/order-rows.ts";
import { startOwnShop } from "./own-shop.ts";
import { signInAs } from "./support/admin-sign-in.ts";

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
const SCREENSHOTS = process.env.CUSTOMERS_SCREENSHOTS;
const OWNER = { email: "cust-owner@capitalgrown.test", password: "Cust-Owner-Birch-Lane-27" };
const MANAGER = { email: "cust-manager@capitalgrown.test", password: "Manager-Amber-Ridge-64" };
const DRIVER = { email: "cust-driver@capitalgrown.test", password: "Driver-Slate-Brook-19" };

async function screenshot(page: Page, name: string) {
  if (!SCREENSHOTS) return;
  mkdirSync(SCREENSHOTS, { recursive: true });
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 844 });
    await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 390, height: 844 });
}

test.describe("customers for staff", () => {
  test.skip(!TEST_DATABASE_URL, "needs TEST_DATABASE_URL (PostgreSQL)");

  test("a manager finds a customer by phone, notes, exports and erases; a driver is refused", async ({
    browser,
  }) => {
    test.setTimeout(240_000);
    const own = await startOwnShop(TEST_DATABASE_URL as string, "cg_admin_customers", {
      SEED_DEMO_COUNT: "2",
      ADMIN_EMAIL: OWNER.email,
      ADMIN_PASSWORD: OWNER.password,
    });
    try {
      const { app, db } = own;
      for (const [account, role] of [
        [MANAGER, "manager"],
        [DRIVER, "driver"],
      ] as const) {
        await db.insert(adminUsers).values({
          email: account.email,
          passwordHash: await hashPassword(account.password),
          role,
          firstName: role === "manager" ? "Mia" : "Dana",
        });
      }
      const email = "rosa.returning@example.com";
      const [customer] = await db
        .insert(customers)
        .values({ email, name: "Rosa Returning", phone: "+12025550187", emailVerifiedAt: new Date() })
        .returning({ id: customers.id });
      const customerId = (customer as { id: string }).id;
      const order = await insertOrderRow(db, {
        customerName: "Rosa Returning",
        deliveryDate: "2026-11-20",
        status: "delivered",
        idPhotoId: null,
      });
      await db
        .update(orders)
        .set({ userEmail: email, phone: "+12025550187", customerId })
        .where(eq(orders.id, order.id));

      // The driver: the page is not theirs.
      const road = await browser.newContext({ baseURL: app.url, viewport: { width: 390, height: 844 } });
      const driver = await road.newPage();
      await signInAs(driver, DRIVER);
      await driver.goto("/admin/customers");
      await expect(driver.getByText("You don't have access to this page")).toBeVisible();
      await road.close();

      const office = await browser.newContext({
        baseURL: app.url,
        viewport: { width: 390, height: 844 },
        acceptDownloads: true,
      });
      const page = await office.newPage();
      await signInAs(page, MANAGER);
      await page.goto("/admin/orders");
      await page.getByRole("button", { name: "Menu" }).click();
      await page.getByRole("dialog").getByRole("link", { name: "Customers" }).click();
      await expect(page.getByRole("heading", { name: "Customers" })).toBeVisible();

      await page.getByLabel("Name, phone or e-mail").fill("(202) 555-0187");
      await page.getByRole("button", { name: "Search" }).click();
      const found = page.getByRole("list", { name: "Customers found" }).getByRole("listitem");
      await expect(found).toHaveCount(1);
      await expect(found).toContainText("Rosa Returning");
      await expect(found).toContainText("Account");
      await screenshot(page, "customers-search");
      await found.getByRole("link", { name: "Open customer" }).click();
      await expect(page.getByRole("heading", { name: "Rosa Returning" })).toBeVisible();
      await expect(page.getByRole("link", { name: `Order #${order.id.slice(0, 8)}` })).toBeVisible();

      await page.getByLabel("Staff note").fill("Asked for the side door.");
      await page.getByRole("button", { name: "Save note" }).click();
      await expect(page.getByText("Note saved.")).toBeVisible();
      await page.reload();
      await expect(page.getByLabel("Staff note")).toHaveValue("Asked for the side door.");
      await screenshot(page, "customer-page");
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

      const downloading = page.waitForEvent("download");
      await page.getByRole("link", { name: "Export data" }).click();
      const download = await downloading;
      const exported = JSON.parse(readFileSync((await download.path()) as string, "utf8"));
      expect(exported.account.email).toBe(email);
      expect(exported.orders.map((row: { id: string }) => row.id)).toEqual([order.id]);

      // The note without JavaScript, as the rest of the admin works.
      const plain = await browser.newContext({
        baseURL: app.url,
        viewport: { width: 390, height: 844 },
        javaScriptEnabled: false,
        storageState: await office.storageState(),
      });
      const noScript = await plain.newPage();
      await noScript.goto(`/admin/customers/${customerId}`);
      await noScript.getByLabel("Staff note").fill("Side door; cash only.");
      await noScript.getByRole("button", { name: "Save note" }).click();
      await expect(noScript.getByText("Note saved.")).toBeVisible();
      await expect(noScript.getByLabel("Staff note")).toHaveValue("Side door; cash only.");
      await plain.close();

      await page.getByRole("button", { name: "Erase data" }).click();
      const dialog = page.getByRole("dialog");
      await expect(dialog).toContainText("This cannot be undone.");
      await screenshot(page, "customer-erase-dialog");
      await dialog.getByRole("button", { name: "Erase data" }).click();
      await expect(page.getByText("Customer data erased. 1 order kept for the books")).toBeVisible();
      const [kept] = await db.select().from(orders).where(eq(orders.id, order.id));
      expect(kept).toMatchObject({
        customerName: "Deleted customer",
        userEmail: "",
        phone: "",
        customerId: null,
      });

      const events = await db
        .select({ action: auditEvents.action, actor: auditEvents.actorEmail })
        .from(auditEvents)
        .where(eq(auditEvents.targetId, customerId))
        .orderBy(auditEvents.id);
      expect(events.map((event) => event.action)).toEqual([
        "customer.note-saved",
        "customer.exported",
        "customer.note-saved",
        "customer.erased",
      ]);
      expect(new Set(events.map((event) => event.actor))).toEqual(new Set([MANAGER.email]));
      await office.close();
    } finally {
      await own.stop();
    }
  });
});
