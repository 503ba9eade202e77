/**
 * Proof at the door on a 390 px phone (record 051): the driver delivers a stop with the ID check
 * (the date of birth typed), the cash (the change shown, too little refused) and a signature drawn
 * on the canvas, and fails another with 'Customer not home'. Staff see the signature on the order's
 * card, the failed stop on the today board, check one returned order back in (stock back, a
 * 'return' movement in the ledger) and send another out again.
 *
 * Like the run's own story, it starts a server of its own on a throwaway PostgreSQL database and
 * writes today's orders straight into it (the checkout's cut-off closes today's slots at night).
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { expect, type Locator, type Page, test } from "@playwright/test";
import { and, eq } from "drizzle-orm";
import { type DatabaseHandle, openDatabase } from "#app/db/client.server.ts";
import {
  adminUsers,
  auditEvents,
  deliveryFailures,
  deliveryProofs,
  orderItems,
  orders,
  productSizes,
  stockMovements,
} from "#app/db/schema.ts";
import { insertProduct } from "#app/features/catalog/product-factory.server.ts";
import { hashPassword } from "#app/features/staff/passwords.server.ts";
import { storeDay } from "#app/utils/store-time.ts";
import { LOAD_TEST_BUDGETS, type RunningApp, startApp } from "../support/app-server.ts";
import { insertOrderRow } from "../support/order-rows.ts";
import { createThrowawayDatabase } from "../support/throwaway-database.ts";
import { signInAs } from "./support/admin-sign-in.ts";

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
const SCREENSHOTS = process.env.DRIVER_SCREENSHOTS;
const DRIVER = { email: "proof-driver@capitalgrown.test", password: "Driver-Proof-Lantern-81" };
const OWNER = { email: "proof-owner@capitalgrown.test", password: "Proof-Owner-Copper-Field-27" };
const LONG_NAME = "Alicia Fernández-Castillo de la Vega";

/** The whole page, and the screen itself when given (set DRIVER_SCREENSHOTS to a folder). */
async function screenshot(page: Page, name: string, screen?: Locator) {
  if (!SCREENSHOTS) return;
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-390.png`), fullPage: true });
  await screen?.screenshot({ path: path.join(SCREENSHOTS, `${name}-screen-390.png`) });
}

async function noSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
}

/** A signature with the mouse: two strokes across the canvas. */
async function sign(pad: Locator, page: Page) {
  await pad.scrollIntoViewIfNeeded();
  const box = await pad.boundingBox();
  if (!box) throw new Error("no signature pad");
  for (const [from, to] of [
    [0.15, 0.75],
    [0.45, 0.85],
  ] as const) {
    await page.mouse.move(box.x + box.width * from, box.y + box.height * 0.6);
    await page.mouse.down();
    for (let step = 1; step <= 8; step++) {
      const x = from + ((to - from) * step) / 8;
      await page.mouse.move(box.x + box.width * x, box.y + box.height * (0.3 + (step % 3) * 0.15));
    }
    await page.mouse.up();
  }
}

test.describe("proof at the door", () => {
  test.skip(!TEST_DATABASE_URL, "needs TEST_DATABASE_URL (PostgreSQL)");

  test("a driver delivers with ID, cash and signature, fails a stop; staff see the signature and take the returns", async ({
    browser,
  }) => {
    test.setTimeout(300_000);
    const database = await createThrowawayDatabase(TEST_DATABASE_URL as string, "cg_driver_proof");
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
      const product = await insertProduct(db, {
        name: "Door Test Gummies",
        category: "Edibles",
        sizes: [{ size: "10 pack", priceCents: 2100, inventoryCount: 20 }],
      });
      const sizeId = product.sizes[0]?.id as string;

      const today = storeDay(new Date());
      const stop = async (customerName: string, fields: Partial<typeof orders.$inferInsert> = {}) => {
        const { id } = await insertOrderRow(db, {
          customerName,
          deliveryDate: today,
          deliveryTime: "10:00 AM-12:00 PM",
          driverId,
          status: "out_for_delivery",
          idPhotoId: null,
        });
        if (Object.keys(fields).length > 0) await db.update(orders).set(fields).where(eq(orders.id, id));
        await db.insert(orderItems).values({
          orderId: id,
          productId: product.id,
          productSizeId: sizeId,
          productName: product.name,
          sizeLabel: "10 pack",
          quantity: 2,
          unitPriceCents: 2100,
          totalPriceCents: 4200,
        });
        return id;
      };
      const alicia = await stop(LONG_NAME, { payWithCents: 5000 });
      const bo = await stop("Bo Notathome");
      const cy = await stop("Cy Closedgate");
      const stockNow = async () =>
        (await db.select().from(productSizes).where(eq(productSizes.id, sizeId)))[0]?.inventoryCount;
      expect(await stockNow()).toBe(20);

      // --- The driver at the door, on a phone ---
      const phone = await browser.newContext({ baseURL: app.url, viewport: { width: 390, height: 844 } });
      const page = await phone.newPage();
      await signInAs(page, DRIVER);
      await page.goto("/driver");
      await expect(page.getByRole("heading", { name: "Today's run" })).toBeVisible();
      const stopItem = (name: string) =>
        page.getByRole("listitem").filter({ has: page.getByRole("heading", { name, exact: true }) });

      await stopItem(LONG_NAME).getByText("Delivered", { exact: true }).first().click();
      const delivered = page.getByRole("form", { name: `Delivered: ${LONG_NAME}` });
      await expect(delivered).toBeVisible();
      await delivered.getByLabel(/The name on the ID is/).check();
      await delivered.getByLabel("Date of birth on the ID").fill("1990-04-12");
      await expect(delivered.getByTestId("age-check")).toHaveText(/^Age \d+: 21 or older$/);
      // 'I'll pay with $50.00' is filled in: $8.00 change. Too little is refused before it is sent.
      await expect(delivered.getByLabel("Cash received ($)")).toHaveValue("50.00");
      await expect(delivered.getByTestId("change-to-give")).toHaveText("Change to give: $8.00");
      await delivered.getByLabel("Cash received ($)").fill("40");
      await expect(delivered.getByTestId("change-to-give")).toHaveText(
        "Collect at least $42.00: $2.00 short",
      );
      await delivered.getByLabel("Cash received ($)").fill("50");
      await sign(delivered.getByTestId("signature-pad"), page);
      await expect(delivered.getByText("Signed", { exact: true })).toBeVisible();
      await noSidewaysScroll(page);
      await delivered.scrollIntoViewIfNeeded();
      await screenshot(page, "driver-delivered", delivered);
      await delivered.getByRole("button", { name: "Delivered" }).click();
      await expect(page.getByRole("status")).toHaveText("Delivered");
      await expect(page.getByTestId("collected")).toHaveText("$42.00");

      await stopItem("Bo Notathome").getByText("Could not deliver", { exact: true }).first().click();
      const failed = page.getByRole("form", { name: "Could not deliver: Bo Notathome" });
      for (const reason of [
        "Customer not home",
        "No valid ID",
        "Under 21",
        "Refused",
        "Address not reachable",
        "Other",
      ])
        await expect(failed.getByLabel(reason, { exact: true })).toBeVisible();
      await failed.getByLabel("Customer not home", { exact: true }).check();
      await noSidewaysScroll(page);
      await failed.scrollIntoViewIfNeeded();
      await screenshot(page, "driver-could-not-deliver", failed);
      await failed.getByRole("button", { name: "Could not deliver" }).click();
      await expect(page.getByRole("status")).toHaveText(
        "Could not deliver: the order goes back to the store",
      );

      await stopItem("Cy Closedgate").getByText("Could not deliver", { exact: true }).first().click();
      const cyForm = page.getByRole("form", { name: "Could not deliver: Cy Closedgate" });
      await cyForm.getByLabel("Other", { exact: true }).check();
      await cyForm.getByLabel(/What happened/).fill("Gate locked, no answer");
      await cyForm.getByRole("button", { name: "Could not deliver" }).click();
      await expect(page.getByRole("status")).toHaveText(
        "Could not deliver: the order goes back to the store",
      );

      await page.getByText(/^Done and failed \(3\)/).click();
      await expect(page.getByText("Returning · $42.00 · Customer not home")).toBeVisible();
      await expect(page.getByText("Returning · $42.00 · Other: Gate locked, no answer")).toBeVisible();
      await noSidewaysScroll(page);
      await screenshot(page, "driver-done-and-failed");
      await phone.close();

      // What the server holds: the proof with the signature sealed, the failures with their reasons.
      const [proof] = await db.select().from(deliveryProofs).where(eq(deliveryProofs.orderId, alicia));
      expect(proof).toMatchObject({ driverId, cashReceivedCents: 5000, changeCents: 800 });
      const pngMagic = Buffer.from([0x89, 0x50, 0x4e, 0x47]);
      expect(Buffer.from(proof?.signatureBytes ?? []).includes(pngMagic)).toBe(false);
      const failures = await db.select().from(deliveryFailures);
      expect(failures.map((row) => [row.orderId, row.reason, row.note]).sort()).toEqual(
        [
          [bo, "customer-not-home", null],
          [cy, "other", "Gate locked, no answer"],
        ].sort(),
      );
      const statuses = Object.fromEntries(
        (await db.select({ id: orders.id, status: orders.status }).from(orders)).map((row) => [
          row.id,
          row.status,
        ]),
      );
      expect([statuses[alicia], statuses[bo], statuses[cy]]).toEqual(["delivered", "returning", "returning"]);

      // --- Staff at the store ---
      const desk = await browser.newContext({ baseURL: app.url, viewport: { width: 390, height: 844 } });
      const staff = await desk.newPage();
      await signInAs(staff, OWNER);
      await staff.goto("/admin/today");
      const returning = staff.getByRole("region", { name: /^Could not deliver \(2\)/ });
      await expect(returning).toContainText("Bo Notathome");
      await expect(returning).toContainText("Customer not home");
      await expect(returning).toContainText("Other: Gate locked, no answer");
      await screenshot(staff, "staff-board-returning", returning);

      await staff.goto("/admin/completed-orders");
      const aliciaCard = staff.locator(`#order-${alicia}`);
      await expect(aliciaCard).toContainText("ID checked (age");
      await expect(aliciaCard).toContainText("cash $50.00 · change $8.00");
      await aliciaCard.getByText("Show signature").click();
      const signature = aliciaCard.getByRole("img", { name: `Signature of ${LONG_NAME}` });
      await expect(signature).toBeVisible();
      await expect
        .poll(() => signature.evaluate((image) => (image as HTMLImageElement).naturalWidth))
        .toBeGreaterThan(0);
      const views = await db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.targetId, alicia), eq(auditEvents.action, "order.signature_viewed")));
      expect(views).toHaveLength(1);
      await screenshot(staff, "staff-order-signature", aliciaCard);

      await staff.goto("/admin/orders");
      const boCard = staff.locator(`#order-${bo}`);
      await expect(boCard).toContainText("Customer not home");
      await screenshot(staff, "staff-order-returning", boCard);
      await boCard.getByRole("button", { name: "Check back in" }).click();
      await staff.getByRole("dialog").getByRole("button", { name: "Check back in" }).click();
      await expect(boCard).toHaveCount(0);
      expect(await stockNow()).toBe(22);
      const returned = await db.select().from(stockMovements).where(eq(stockMovements.orderId, bo));
      expect(returned.map((row) => [row.reason, row.delta])).toEqual([["return", 2]]);

      const cyCard = staff.locator(`#order-${cy}`);
      await cyCard.getByRole("button", { name: "Send out again" }).click();
      await staff.getByRole("dialog").getByRole("button", { name: "Send out again" }).click();
      await expect(cyCard.getByText("Confirmed", { exact: true })).toBeVisible();
      expect(await stockNow()).toBe(22);
      const [cyRow] = await db.select({ status: orders.status }).from(orders).where(eq(orders.id, cy));
      expect(cyRow?.status).toBe("confirmed");
      await desk.close();
    } finally {
      await helper?.close();
      await app?.stop();
      await database.drop();
    }
  });
});
