/**
 * P-26 and P-27, end to end with real accounts: the owner invites a driver and a
 * manager; the driver sees today's run and its customers' ID photos but gets 'You don't have
 * access to this page' on the products and the audit log; the manager changes a price; the owner
 * finds in the audit log the driver's view of the ID photo (naming the order) and the manager's
 * price change with the old and the new price.
 *
 * A driver sees only TODAY's orders (store time), and at night no slot of today can be ordered
 * through the checkout (cut-off): this story starts a server of its own on a throwaway PostgreSQL
 * database and writes today's order straight into it, with an ID photo stored by the app itself
 * (sent through /api/id-photo as the checkout does, so encrypted under the server's key).
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { eq } from "drizzle-orm";
import { type DatabaseHandle, openDatabase } from "#app/db/client.server.ts";
import { productSizes } from "#app/db/schema.ts";
import { storeDay } from "#app/utils/store-time.ts";
import { LOAD_TEST_BUDGETS, type RunningApp, startApp } from "../support/app-server.ts";
import { type LoopbackSmtp, startLoopbackSmtp } from "../support/loopback-smtp.ts";
import { insertOrderRow } from "../support/order-rows.ts";
import { createThrowawayDatabase } from "../support/throwaway-database.ts";
import { pngBytes } from "./admin-support.ts";
import { signInAs } from "./support/admin-sign-in.ts";
import { invitationPath } from "./support/invitation-mail.ts";

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
const OWNER = { email: "roles-owner@capitalgrown.test", password: "Roles-Owner-Lantern-73" };
const DRIVER = { email: "roles-driver@capitalgrown.test", password: "Driver-Maple-Harbor-58", name: "Dana" };
const MANAGER = {
  email: "roles-manager@capitalgrown.test",
  password: "Manager-Cedar-Pocket-91",
  name: "Milo",
};
const NO_ACCESS = "You don't have access to this page";
const SCREENSHOTS = process.env.ROLES_SCREENSHOTS;

/** The app's own upload of a checkout's ID photo: its id, as the checkout post would name it. */
async function uploadIdPhoto(url: string) {
  const form = new FormData();
  const png = await pngBytes(640, 400, "#9cc8ad");
  form.set("idFront", new File([new Uint8Array(png)], "id.png", { type: "image/png" }));
  const response = await fetch(`${url}/api/id-photo`, {
    method: "POST",
    body: form,
    headers: { Origin: url, "Sec-Fetch-Site": "same-origin" },
  });
  expect(response.status).toBe(200);
  const { token } = (await response.json()) as { token: string };
  expect(token).toMatch(/^[0-9a-f-]{36}$/);
  return token;
}

async function screenshot(page: Page, name: string, width: number) {
  if (!SCREENSHOTS) return;
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.setViewportSize({ width, height: 900 });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${width}.png`), fullPage: true });
}

/** The invited person opens the link in a browser of their own and chooses a password. */
async function acceptInvitation(
  browser: Browser,
  app: RunningApp,
  smtp: LoopbackSmtp,
  account: { email: string; password: string },
) {
  const link = await invitationPath(account.email, smtp);
  const context = await browser.newContext({ baseURL: app.url });
  const page = await context.newPage();
  await page.goto(link);
  await expect(page.getByRole("heading", { name: /^Join / })).toBeVisible();
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByLabel("Password again").fill(account.password);
  await page.getByRole("button", { name: "Set password" }).click();
  await expect(page).toHaveURL(/\/admin\/login\?notice=password-set$/);
  return page;
}

test.describe("staff roles with invited accounts", () => {
  test.skip(!TEST_DATABASE_URL, "needs TEST_DATABASE_URL (PostgreSQL)");

  test("a driver works today's run and sees its ID photos but not products or the audit log; the owner audits the driver and a manager", async ({
    browser,
  }) => {
    test.setTimeout(240_000);
    const database = await createThrowawayDatabase(TEST_DATABASE_URL as string, "cg_roles");
    let app: RunningApp | undefined;
    let helper: DatabaseHandle | undefined;
    // Invitations go out over SMTP only: their link is never stored (record 036).
    const smtp = await startLoopbackSmtp();
    try {
      app = await startApp({
        buildDir: process.env.E2E_BUILD_DIR as string,
        env: {
          DATABASE_URL: database.url,
          SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
          SEED_DEMO_COUNT: "4",
          ADMIN_EMAIL: OWNER.email,
          ADMIN_PASSWORD: OWNER.password,
          ...LOAD_TEST_BUDGETS,
        },
      });
      helper = await openDatabase({ kind: "postgres", url: database.url, applicationName: "cg-test-helper" });

      // Today's order (store time), unassigned, with an ID photo the app stored; and one of another
      // day, which is not on a driver's run.
      const today = storeDay(new Date());
      const customer = "Tess Todaysrun";
      const photoId = await uploadIdPhoto(app.url);
      const order = await insertOrderRow(helper.db, {
        customerName: customer,
        deliveryDate: today,
        idPhotoId: photoId,
      });
      const shortId = order.id.slice(0, 8);
      const otherDay = storeDay(new Date(Date.now() + 30 * 3_600_000));
      await insertOrderRow(helper.db, {
        customerName: "Otto Otherday",
        deliveryDate: otherDay,
        idPhotoId: await uploadIdPhoto(app.url),
      });

      // The owner (bootstrap account) sets up two-factor sign-in at the first sign-in, then invites.
      const ownerContext = await browser.newContext({ baseURL: app.url });
      const owner = await ownerContext.newPage();
      await signInAs(owner, OWNER);
      await expect(owner).toHaveURL(/\/admin\/dashboard$/);
      await owner.getByRole("link", { name: "Staff", exact: true }).click();
      await expect(owner.getByRole("heading", { name: "Staff", exact: true })).toBeVisible();
      for (const [person, role] of [
        [DRIVER, "driver"],
        [MANAGER, "manager"],
      ] as const) {
        await owner.getByLabel("Email").fill(person.email);
        await owner.getByLabel("First name").fill(person.name);
        await owner.getByLabel("Role").first().selectOption(role);
        await owner.getByRole("button", { name: "Send invitation" }).click();
        await expect(owner.getByText(`Invitation sent to ${person.email}.`)).toBeVisible();
      }
      await expect(owner.getByRole("list", { name: "Pending invitations" })).toContainText(DRIVER.email);
      await expect(owner.getByRole("list", { name: "Pending invitations" })).toContainText(MANAGER.email);

      // The driver accepts, signs in (no second factor needed by default) and lands on today's run.
      const driver = await acceptInvitation(browser, app, smtp, DRIVER);
      await driver.setViewportSize({ width: 390, height: 844 });
      const photoResponse = driver.waitForResponse(
        (response) => new URL(response.url()).pathname === `/admin/id-photos/${photoId}`,
      );
      await signInAs(driver, DRIVER);
      await expect(driver).toHaveURL(/\/admin\/today/);
      const card = driver.getByText(customer, { exact: true });
      await expect(card).toBeVisible();
      await expect(driver.getByText("Otto Otherday")).toHaveCount(0);
      const image = driver.getByRole("img", { name: `ID of ${customer}` });
      await image.scrollIntoViewIfNeeded();
      await expect(image).toBeVisible();
      const photo = await photoResponse;
      expect(photo.status()).toBe(200);
      expect(photo.headers()["content-type"]).toMatch(/^image\//);
      await expect
        .poll(() => image.evaluate((element) => (element as HTMLImageElement).naturalWidth))
        .toBeGreaterThan(0);
      await screenshot(driver, "driver-today", 390);
      const nav = driver.getByRole("navigation", { name: "Admin" });
      await expect(nav.getByRole("link", { name: "Products" })).toHaveCount(0);
      await expect(nav.getByRole("link", { name: "Audit" })).toHaveCount(0);

      // Not the products, not the audit log: the 403 page.
      for (const forbidden of ["/admin/products", "/admin/audit"]) {
        const response = await driver.goto(forbidden);
        expect(response?.status()).toBe(403);
        await expect(driver.getByRole("heading", { name: NO_ACCESS })).toBeVisible();
        await screenshot(driver, `driver-403${forbidden.replaceAll("/", "-")}`, 390);
      }

      // The manager accepts, sets up two-factor sign-in at the first sign-in and changes a price.
      const manager = await acceptInvitation(browser, app, smtp, MANAGER);
      await signInAs(manager, MANAGER);
      await expect(manager).toHaveURL(/\/admin\/dashboard$/);
      await manager.goto("/admin/products");
      const edit = manager.locator('a[href^="/admin/products/edit/"]').first();
      const productId = ((await edit.getAttribute("href")) ?? "").replace("/admin/products/edit/", "");
      await manager.goto(`/admin/products/edit/${productId}`);
      const productName = await manager.locator('input[name="name"]').inputValue();
      const sizeId = await manager.locator('input[name="sizes.0.id"]').inputValue();
      const sizeLabel = await manager.locator('input[name="sizes.0.size"]').inputValue();
      const [before] = await helper.db
        .select({ priceCents: productSizes.priceCents })
        .from(productSizes)
        .where(eq(productSizes.id, sizeId));
      const oldCents = before?.priceCents as number;
      const newCents = oldCents + 250;
      await manager.locator('input[name="sizes.0.price"]').fill((newCents / 100).toFixed(2));
      await manager.getByRole("button", { name: "Update Product" }).click();
      await expect(manager.getByText("Product updated successfully").first()).toBeVisible();

      // The owner finds both in the audit log.
      await owner.goto("/admin/audit");
      await expect(owner.getByRole("heading", { name: "Audit log" })).toBeVisible();
      await owner.getByLabel("Who").selectOption({ label: DRIVER.email });
      await owner.getByLabel("Action").selectOption({ label: "Viewed the ID photo" });
      await owner.getByRole("button", { name: "Filter" }).click();
      await expect(owner).toHaveURL(/action=id_photo.viewed/);
      const view = owner
        .getByRole("listitem")
        .filter({ hasText: `order #${shortId}` })
        .first();
      await expect(view).toContainText("Viewed the ID photo");
      await expect(view).toContainText(DRIVER.email);
      await screenshot(owner, "owner-audit-driver", 390);

      await owner.getByLabel("Who").selectOption({ label: MANAGER.email });
      await owner.getByLabel("Action").selectOption({ label: "Changed prices" });
      await owner.getByRole("button", { name: "Filter" }).click();
      await expect(owner).toHaveURL(/action=product.price_changed/);
      const change = owner.getByRole("listitem").filter({ hasText: productName });
      const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;
      await expect(change).toContainText(
        `${productName}: ${sizeLabel} ${dollars(oldCents)} → ${dollars(newCents)}`,
      );
      await expect(change).toContainText(MANAGER.email);
      await screenshot(owner, "owner-audit-manager", 1280);
      await ownerContext.close();
    } finally {
      await helper?.close().catch(() => {});
      await app?.stop();
      await smtp.close();
      await database.drop();
    }
  });
});
