/**
 * Cash that adds up and the run's manifest (P-33, record 052) on a 390 px phone: a driver takes a
 * float, starts the run with a vehicle (the manifest is frozen and prints), delivers both stops
 * at the door and hands in a short count; a manager sees the difference on the today
 * board, confirms the drop, and finds it on the dashboard and in the daily cash report (print
 * view and CSV).
 *
 * Today's orders are written straight into a throwaway PostgreSQL database of this story's own
 * server (the checkout's cut-off closes today's slots at night), as in the driver's run story.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { and, eq } from "drizzle-orm";
import { type DatabaseHandle, openDatabase } from "#app/db/client.server.ts";
import { adminUsers, auditEvents, orderItems, orders, productSizes, products } from "#app/db/schema.ts";
import { hashPassword } from "#app/features/staff/passwords.server.ts";
import { storeDay } from "#app/utils/store-time.ts";
import { LOAD_TEST_BUDGETS, type RunningApp, startApp } from "../support/app-server.ts";
import { insertOrderRow } from "../support/order-rows.ts";
import { createThrowawayDatabase } from "../support/throwaway-database.ts";
import { signInAs } from "./support/admin-sign-in.ts";

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
const SCREENSHOTS = process.env.DRIVER_SCREENSHOTS;
const DRIVER = { email: "cash-driver@capitalgrown.test", password: "Driver-Copper-Meadow-81" };
const MANAGER = { email: "cash-manager@capitalgrown.test", password: "Manager-Quartz-Harbor-46" };
const OWNER = { email: "cash-owner@capitalgrown.test", password: "Cash-Owner-Linden-Vale-39" };
const LONG_NAME = "Alicia Fernández-Castillo de la Vega";

async function screenshot(page: Page, name: string) {
  if (!SCREENSHOTS) return;
  mkdirSync(SCREENSHOTS, { recursive: true });
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 844 });
    await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 390, height: 844 });
}

async function pdf(page: Page, name: string) {
  if (!SCREENSHOTS) return;
  await page.emulateMedia({ media: "print" });
  await page.pdf({ path: path.join(SCREENSHOTS, `${name}.pdf`), format: "Letter", printBackground: true });
  await page.emulateMedia({ media: "screen" });
}

async function noSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
}

test.describe("a driver's cash and run manifest", () => {
  test.skip(!TEST_DATABASE_URL, "needs TEST_DATABASE_URL (PostgreSQL)");

  test("a driver with a float delivers, hands in a short count, and a manager confirms the drop", async ({
    browser,
  }) => {
    test.setTimeout(300_000);
    const database = await createThrowawayDatabase(TEST_DATABASE_URL as string, "cg_driver_cash");
    let app: RunningApp | undefined;
    let helper: DatabaseHandle | undefined;
    try {
      app = await startApp({
        buildDir: process.env.E2E_BUILD_DIR as string,
        env: {
          DATABASE_URL: database.url,
          SEED_DEMO_COUNT: "2",
          ADMIN_EMAIL: OWNER.email,
          ADMIN_PASSWORD: OWNER.password,
          ...LOAD_TEST_BUDGETS,
        },
      });
      helper = await openDatabase({ kind: "postgres", url: database.url, applicationName: "cg-test-helper" });
      const db = helper.db;
      const [driver] = await db
        .insert(adminUsers)
        .values({
          email: DRIVER.email,
          passwordHash: await hashPassword(DRIVER.password),
          role: "driver",
          firstName: "Dana",
        })
        .returning({ id: adminUsers.id });
      const driverId = (driver as { id: string }).id;
      await db.insert(adminUsers).values({
        email: MANAGER.email,
        passwordHash: await hashPassword(MANAGER.password),
        role: "manager",
        firstName: "Mia",
      });

      const [product] = await db
        .insert(products)
        .values({ name: "Story Kush", category: "Flower" })
        .returning({ id: products.id });
      const [size] = await db
        .insert(productSizes)
        .values({
          productId: product?.id as string,
          size: "3.5g",
          priceCents: 4000,
          flowerEquivalentMg: 3500,
        })
        .returning({ id: productSizes.id });
      const today = storeDay(new Date());
      const stop = async (customerName: string, deliveryTime: string, payWithCents: number | null) => {
        const { id } = await insertOrderRow(db, {
          customerName,
          deliveryDate: today,
          deliveryTime,
          driverId,
          idPhotoId: null,
        });
        await db.update(orders).set({ totalAmountCents: 8000, payWithCents }).where(eq(orders.id, id));
        await db.insert(orderItems).values({
          orderId: id,
          productId: product?.id as string,
          productSizeId: size?.id as string,
          productName: "Story Kush",
          sizeLabel: "3.5g",
          quantity: 2,
          unitPriceCents: 4000,
          totalPriceCents: 8000,
        });
        return id;
      };
      await stop(LONG_NAME, "10:00 AM-12:00 PM", 10000);
      await stop("Bo Secondslot", "2:00 PM-4:00 PM", null);

      // The driver, on the phone.
      const phone = await browser.newContext({ baseURL: app.url, viewport: { width: 390, height: 844 } });
      const page = await phone.newPage();
      await signInAs(page, DRIVER);
      await page.goto("/driver");
      const cash = page.getByRole("region", { name: "Cash" });
      await cash.getByLabel("Float taken at the start ($)").fill("20");
      await cash.getByRole("button", { name: "Save float" }).click();
      await expect(page.getByText("Float saved")).toBeVisible();

      await page.getByLabel("Vehicle (optional, for the manifest)").fill("Blue Corolla DC 4417");
      await page.getByRole("button", { name: "Start run" }).click();
      await expect(page.getByText("2 orders out for delivery")).toBeVisible();

      // The manifest, frozen at departure: on the phone and printable.
      await page.getByRole("link", { name: /^Manifest · left/ }).click();
      await expect(page.getByRole("heading", { name: "Run manifest" })).toBeVisible();
      const manifest = page.getByRole("article", { name: "Run manifest" });
      await expect(manifest).toContainText("Blue Corolla DC 4417");
      await expect(manifest).toContainText(LONG_NAME);
      await expect(manifest).toContainText("14 g");
      await expect(manifest).toContainText("$160.00");
      await noSidewaysScroll(page);
      await screenshot(page, "driver-manifest");
      await pdf(page, "driver-manifest");
      await page.getByRole("link", { name: "Back to my run" }).click();

      // Both stops delivered at the door (the cash received is what they said they would pay
      // with): $160.00 collected, $20.00 change given.
      const stops = page
        .getByRole("region", { name: /^Stops/ })
        .getByRole("listitem")
        .filter({ hasText: /^Stop \d/ });
      for (let delivered = 1; delivered <= 2; delivered++) {
        const first = stops.first();
        await first.getByText("Delivered", { exact: true }).first().click();
        const deliver = first.getByRole("form", { name: /^Delivered: / });
        await deliver.getByLabel(/The name on the ID is/).check();
        await deliver.getByLabel("Date of birth on the ID").fill("1985-06-15");
        await deliver.getByTestId("signature-pad").scrollIntoViewIfNeeded();
        const pad = await deliver.getByTestId("signature-pad").boundingBox();
        if (!pad) throw new Error("no signature pad");
        await page.mouse.move(pad.x + 30, pad.y + 60);
        await page.mouse.down();
        await page.mouse.move(pad.x + 160, pad.y + 120, { steps: 8 });
        await page.mouse.up();
        await expect(deliver.getByText("Signed", { exact: true })).toBeVisible();
        await deliver.getByRole("button", { name: "Delivered" }).click();
        await expect(page.getByRole("status").filter({ hasText: /^Delivered$/ })).toBeVisible();
        await expect(page.getByTestId("collected")).toHaveText(delivered === 1 ? "$80.00" : "$160.00");
      }
      await expect(cash).toContainText("Expected back$180.00");
      await expect(cash).toContainText("Change given$20.00");
      await noSidewaysScroll(page);
      await screenshot(page, "driver-cash-open");

      // A short count: $175.00 for $180.00 expected.
      await cash.getByLabel("Cash counted ($)").fill("175");
      await cash.getByRole("button", { name: "Hand in cash" }).click();
      await expect(page.getByText("Cash handed in: a manager confirms the drop")).toBeVisible();
      await expect(page.getByTestId("cash-difference")).toHaveText("Short $5.00");
      await expect(page.getByTestId("cash-state")).toContainText("waiting for a manager");
      await expect(cash.getByRole("button", { name: "Hand in cash" })).toHaveCount(0);
      await noSidewaysScroll(page);
      await screenshot(page, "driver-cash-handed-in");

      // The manager, on a phone too: the board shows the driver's road and the difference.
      const office = await browser.newContext({ baseURL: app.url, viewport: { width: 390, height: 844 } });
      const staff = await office.newPage();
      await signInAs(staff, MANAGER);
      await staff.goto("/admin/today");
      const dana = staff.getByRole("listitem", { name: "Driver Dana" });
      await expect(dana).toContainText("Short $5.00");
      await expect(dana).toContainText("Expected $180.00");
      await expect(dana.getByTestId("last-synced")).toHaveText("—");
      await expect(dana.getByText("Done", { exact: true })).toBeVisible();
      await expect(dana.getByRole("link", { name: /^Manifest/ })).toBeVisible();
      // The drivers panel fits the phone (the board's slot cards below are the board's own).
      const panel = staff.getByRole("region", { name: "Drivers", exact: true });
      expect(await panel.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
      expect(
        ((await dana.boundingBox())?.x ?? 0) + ((await dana.boundingBox())?.width ?? 999),
      ).toBeLessThanOrEqual(390);
      await dana.getByRole("button", { name: "Confirm the cash drop of Dana" }).click();
      await expect(staff.getByText("Cash drop confirmed")).toBeVisible();
      await expect(dana).toContainText("Drop confirmed by Mia");
      await screenshot(staff, "board-drivers");

      await staff.goto("/admin/dashboard");
      const differences = staff.getByRole("region", { name: "Cash differences (last 7 days)" });
      await expect(differences).toContainText("Dana");
      await expect(differences).toContainText("Short $5.00");
      await expect(differences).toContainText("drop confirmed");
      await screenshot(staff, "dashboard-cash-differences");

      await staff.goto("/admin/today/cash-report");
      const row = staff.getByRole("row", { name: "Cash of Dana" });
      await expect(row).toContainText("$180.00");
      await expect(row).toContainText("$175.00");
      await expect(row).toContainText("Short $5.00");
      await expect(row).toContainText("Confirmed by Mia");
      await screenshot(staff, "cash-report");
      await pdf(staff, "cash-report");
      const csv = await staff.request.get(`/admin/today/cash-report/export?date=${today}`);
      expect(csv.status()).toBe(200);
      const lines = (await csv.text()).trim().split("\n");
      expect(lines[0]).toBe(
        "Date,Driver,Orders delivered,Float,Collected,Change given,Expected,Counted,Difference,Handed in at,Confirmed by",
      );
      expect(lines[1]).toMatch(new RegExp(`^${today},Dana,2,20.00,160.00,20.00,180.00,175.00,-5.00,.+,Mia$`));

      // The difference is in the audit log, twice: at the hand-in and at the confirmation.
      const audited = await db
        .select({ action: auditEvents.action, details: auditEvents.details })
        .from(auditEvents)
        .where(and(eq(auditEvents.targetType, "cash_sheet")));
      expect(
        audited
          .filter((e) => e.action !== "cash.float_set")
          .map((e) => [e.action, (e.details as { differenceCents: number }).differenceCents])
          .sort(),
      ).toEqual([
        ["cash.drop_confirmed", -500],
        ["cash.handed_in", -500],
      ]);
      await phone.close();
      await office.close();
    } finally {
      await helper?.close();
      await app?.stop();
      await database.drop();
    }
  });
});
