/**
 * The driver's run on the phone (`/driver`) on a 390 px context: a driver signs in, sees today's
 * stops in slot order, moves one up, starts the run (each order out for delivery, one e-mail each
 * in the outbox), delivers one (the collected total follows), and the page never scrolls
 * sideways, whatever the length of a customer's name or address.
 *
 * Today's orders cannot be placed through the checkout at night (cut-off): like the staff roles
 * story, this one starts a server of its own on a throwaway PostgreSQL database and writes today's
 * orders straight into it.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { expect, type Locator, type Page, test } from "@playwright/test";
import { eq, inArray } from "drizzle-orm";
import { twMerge } from "tailwind-merge";
import { type DatabaseHandle, openDatabase } from "#app/db/client.server.ts";
import { adminUsers, emailOutbox, orderItems, orders } from "#app/db/schema.ts";
import { hashPassword } from "#app/features/staff/passwords.server.ts";
import { nextDate, storeDay } from "#app/utils/store-time.ts";
import { LOAD_TEST_BUDGETS, type RunningApp, startApp } from "../support/app-server.ts";
import { insertOrderRow } from "../support/order-rows.ts";
import { createThrowawayDatabase } from "../support/throwaway-database.ts";
import { signInAs } from "./support/admin-sign-in.ts";

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
const SCREENSHOTS = process.env.DRIVER_SCREENSHOTS;
const DRIVER = { email: "run-driver@capitalgrown.test", password: "Driver-Lantern-Orchard-64" };
const OWNER = { email: "run-owner@capitalgrown.test", password: "Run-Owner-Copper-Field-27" };
const LONG_NAME = "Alicia Fernández-Castillo de la Vega";
const LONG_ADDRESS =
  "12345 Northwesternmost Pennsylvania Avenue Extension Apartment 1234-B (ring Fernández-Castillo twice), Washington, DC 20001";

async function screenshot(page: Page, name: string) {
  if (!SCREENSHOTS) return;
  mkdirSync(SCREENSHOTS, { recursive: true });
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 844 });
    await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 390, height: 844 });
}

/** No sideways scroll at 390 px, and no class list setting one property twice (as class-conflicts.spec). */
async function noSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const lists = await page.evaluate(() =>
    [...document.querySelectorAll("[class]")].map((element) => element.getAttribute("class") ?? ""),
  );
  const overridden = lists.filter(
    (list) => twMerge(list).split(" ").length !== list.split(/\s+/).filter(Boolean).length,
  );
  expect(overridden).toEqual([]);
}

/**
 * The run hydrates as an island (record 059): the island's script is the page's only script from
 * the build, React Router's client (its context, entry, route manifest) is not on the page, and the
 * island's effects ran without an error on the page.
 */
async function hydratedAsIsland(page: Page, errors: string[]) {
  await expect(page.getByTestId("phone-sync")).toHaveAttribute("data-ready", "true");
  const scripts = await page.evaluate(() =>
    [...document.querySelectorAll("script[src]")].map(
      (script) => new URL((script as HTMLScriptElement).src).pathname,
    ),
  );
  expect(scripts).toEqual([expect.stringMatching(/^\/assets\/driver-island-[\w-]+\.js$/)]);
  expect(await page.evaluate(() => "__reactRouterContext" in window)).toBe(false);
  expect(errors).toEqual([]);
}

/** The page, and the element when given, end within the 390 px viewport: nothing cut off at its edges. */
async function fitsThePhone(page: Page, element?: Locator) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  if (!element) return;
  const box = await element.boundingBox();
  expect(box?.x).toBeGreaterThanOrEqual(0);
  expect((box?.x ?? 0) + (box?.width ?? 999)).toBeLessThanOrEqual(390);
  expect(await element.evaluate((node) => node.scrollWidth <= node.clientWidth)).toBe(true);
}

test.describe("the driver's run on the phone", () => {
  test.skip(!TEST_DATABASE_URL, "needs TEST_DATABASE_URL (PostgreSQL)");

  test("a driver sees today's stops in slot order, moves one up, starts the run and delivers a stop", async ({
    browser,
  }) => {
    test.setTimeout(240_000);
    const database = await createThrowawayDatabase(TEST_DATABASE_URL as string, "cg_driver_run");
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
      const [driver] = await helper.db
        .insert(adminUsers)
        .values({
          email: DRIVER.email,
          passwordHash: await hashPassword(DRIVER.password),
          role: "driver",
          firstName: "Dana",
        })
        .returning({ id: adminUsers.id });
      const driverId = (driver as { id: string }).id;

      const today = storeDay(new Date());
      const stop = async (
        customerName: string,
        deliveryTime: string,
        fields: Partial<typeof orders.$inferInsert> = {},
      ) => {
        const { id } = await insertOrderRow(helper?.db as DatabaseHandle["db"], {
          customerName,
          deliveryDate: today,
          deliveryTime,
          driverId,
          idPhotoId: null,
        });
        if (Object.keys(fields).length > 0)
          await helper?.db.update(orders).set(fields).where(eq(orders.id, id));
        await helper?.db.insert(orderItems).values({
          orderId: id,
          productName: `Gummies for ${customerName.split(" ")[0]}`,
          sizeLabel: "10 pack",
          quantity: 2,
          unitPriceCents: 2100,
          totalPriceCents: 4200,
        });
        return id;
      };
      const bo = await stop("Bo Secondslot", "2:00 PM-4:00 PM", { notes: "Gate code 4411" });
      const alicia = await stop(LONG_NAME, "10:00 AM-12:00 PM", {
        deliveryAddress: LONG_ADDRESS,
        payWithCents: 5000,
        notes: "Leave nothing at the door; call from the corner of Pennsylvania Avenue",
      });
      const cy = await stop("Cy Thirdplace", "2:00 PM-4:00 PM");
      // Today's unassigned order the driver may take, and tomorrow's run to read ahead.
      await insertOrderRow(helper.db, {
        customerName: "Una Unassigned",
        deliveryDate: today,
        deliveryTime: "4:00 PM-6:00 PM",
        idPhotoId: null,
      });
      await stop("Tomas Tomorrow", "12:00 PM-2:00 PM", { deliveryDate: nextDate(today) });

      const context = await browser.newContext({ baseURL: app.url, viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));
      page.on("console", (message) => {
        // The reload re-sends the page's last post, refused with 409: the console reports that
        // answer too, and it is no script's error.
        if (message.type() !== "error" || message.text().startsWith("Failed to load resource")) return;
        if (new URL(page.url()).pathname === "/driver") errors.push(message.text());
      });
      await signInAs(page, DRIVER);
      // The admin navigation links the run for every role that may drive.
      // On a phone the admin's sections are in the Menu panel.
      await page.getByRole("banner").getByRole("button", { name: "Menu" }).click();
      await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "My run" }).click();
      await expect(page).toHaveURL(/\/driver$/);
      await expect(page.getByRole("heading", { name: "Today's run" })).toBeVisible();
      // No admin chrome on the phone screen.
      await expect(page.getByRole("navigation", { name: "Admin" })).toHaveCount(0);
      await hydratedAsIsland(page, errors);

      const stops = page
        .getByRole("region", { name: /^Stops/ })
        .getByRole("listitem")
        .filter({ hasText: /^Stop \d/ });
      const stopNames = () => stops.locator("h3").allTextContents();
      expect(await stopNames()).toEqual([LONG_NAME, "Bo Secondslot", "Cy Thirdplace"]);
      const first = stops.first();
      await expect(first.getByText("Bring $8.00 change")).toBeVisible();
      await expect(first.getByRole("link", { name: `Call ${LONG_NAME}` })).toHaveAttribute(
        "href",
        /^tel:\+?\d+$/,
      );
      await expect(first.getByRole("link", { name: `Text ${LONG_NAME}` })).toHaveAttribute("href", /^sms:/);
      const navigate = await page.getByRole("link", { name: /^Navigate/ }).getAttribute("href");
      const directions = new URL(navigate as string);
      expect(directions.searchParams.get("destination")).toBe("1 Main St, Washington, DC 20001");
      expect(directions.searchParams.get("waypoints")?.split("|")[0]).toBe(LONG_ADDRESS);
      await noSidewaysScroll(page);
      await expect(page.getByRole("region", { name: /^Unassigned today/ })).toContainText("Una Unassigned");
      await expect(page.getByRole("region", { name: /^Tomorrow/ })).toContainText("Tomas Tomorrow");
      await screenshot(page, "driver-run-open");

      // Cy goes before Bo: within the same slot only, kept on the server.
      await page.getByRole("button", { name: "Move Cy Thirdplace up" }).click();
      await expect(page.getByText("Stop moved")).toBeVisible();
      expect(await stopNames()).toEqual([LONG_NAME, "Cy Thirdplace", "Bo Secondslot"]);
      await page.reload();
      expect(await stopNames()).toEqual([LONG_NAME, "Cy Thirdplace", "Bo Secondslot"]);
      await hydratedAsIsland(page, errors);
      await expect(page.getByRole("button", { name: `Move ${LONG_NAME} up` })).toBeDisabled();

      await page.getByRole("button", { name: "Start run" }).click();
      await expect(page.getByText("3 orders out for delivery")).toBeVisible();
      const statuses = await helper.db
        .select({ status: orders.status })
        .from(orders)
        .where(inArray(orders.id, [alicia, bo, cy]));
      expect(statuses.map((row) => row.status)).toEqual(Array(3).fill("out_for_delivery"));
      const mails = await helper.db
        .select({ orderId: emailOutbox.orderId })
        .from(emailOutbox)
        .where(eq(emailOutbox.kind, "order-out-for-delivery"));
      expect(mails.map((mail) => mail.orderId).sort()).toEqual([alicia, bo, cy].sort());
      await expect(page.getByTestId("collected")).toHaveText("$0.00");
      await noSidewaysScroll(page);
      await screenshot(page, "driver-run-started");

      // The today board on a phone, with the run out: the long name wraps, and the board and its
      // 'Mark Delivered' and 'Cancel' questions fit 390 px.
      const office = await browser.newContext({ baseURL: app.url, viewport: { width: 390, height: 844 } });
      const staff = await office.newPage();
      await signInAs(staff, OWNER);
      await staff.goto("/admin/today");
      const card = staff.locator(`#board-order-${alicia}`);
      await expect(card.getByRole("heading", { name: LONG_NAME })).toBeVisible();
      await fitsThePhone(staff);
      await screenshot(staff, "board-run-out");
      for (const [ask, back] of [
        ["Mark Delivered", "Go back"],
        ["Cancel", "Keep order"],
      ] as const) {
        await card.getByRole("button", { name: ask, exact: true }).click();
        const dialog = staff.getByRole("dialog");
        await expect(dialog).toContainText(LONG_NAME);
        await fitsThePhone(staff, dialog);
        await screenshot(staff, `board-question-${ask === "Cancel" ? "cancel" : "delivered"}`);
        await dialog.getByRole("button", { name: back }).click();
        await expect(dialog).toHaveCount(0);
      }
      await office.close();

      // 'Delivered' and 'Could not deliver' unfold their screens (driver-proof.spec.ts delivers
      // through them): the collected total follows a delivery.
      await first.getByText("Delivered", { exact: true }).first().click();
      await noSidewaysScroll(page);
      await screenshot(page, "driver-run-deliver-question");
      await stops.nth(1).getByText("Could not deliver", { exact: true }).first().click();
      await noSidewaysScroll(page);
      await screenshot(page, "driver-run-cancel-question");
      const deliver = page.getByRole("form", { name: `Delivered: ${LONG_NAME}` });
      await deliver.getByLabel(/The name on the ID is/).check();
      await deliver.getByLabel("Date of birth on the ID").fill("1988-02-29");
      await deliver.getByTestId("signature-pad").scrollIntoViewIfNeeded();
      const pad = await deliver.getByTestId("signature-pad").boundingBox();
      if (!pad) throw new Error("no signature pad");
      await page.mouse.move(pad.x + 30, pad.y + 60);
      await page.mouse.down();
      await page.mouse.move(pad.x + 160, pad.y + 120, { steps: 8 });
      await page.mouse.up();
      await expect(deliver.getByText("Signed", { exact: true })).toBeVisible();
      await deliver.getByRole("button", { name: "Delivered" }).click();
      await expect(page.getByRole("status")).toHaveText("Delivered");
      await expect(page.getByTestId("collected")).toHaveText("$42.00");
      expect(await stopNames()).toEqual(["Cy Thirdplace", "Bo Secondslot"]);
      const [delivered] = await helper.db
        .select({ status: orders.status })
        .from(orders)
        .where(eq(orders.id, alicia));
      expect(delivered?.status).toBe("delivered");
      await page.getByText(/^Done and failed \(1\)/).click();
      await expect(page.getByText(LONG_NAME)).toBeVisible();
      await noSidewaysScroll(page);
      await screenshot(page, "driver-run-done-open");
      await context.close();
    } finally {
      await helper?.close();
      await app?.stop();
      await database.drop();
    }
  });
});
