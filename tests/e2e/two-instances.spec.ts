/**
 * Record 019: two shop instances on one PostgreSQL database, as compose.yaml runs them (the same
 * COOKIE_SECRET and ID_PHOTO_KEY on both, one DATA_DIR each). What one instance does, the other
 * sees: an order placed on A is on B's incoming list; a price changed on B is on A's /shop within
 * 1 s (A's page cache learns of it through LISTEN/NOTIFY); an admin session started on A works on B.
 */
import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { sql } from "drizzle-orm";
import { type DatabaseHandle, openDatabase } from "#app/db/client.server.ts";
import { LOAD_TEST_BUDGETS, type RunningApp, startApp } from "../support/app-server.ts";
import { orderableSizes, postOrder } from "../support/shop-orders.ts";
import { createThrowawayDatabase } from "../support/throwaway-database.ts";
import { signInAs } from "./support/admin-sign-in.ts";

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
const ADMIN = { email: "two-instances@capitalgrown.test", password: "two-instances-password" };

test.describe("two instances on one PostgreSQL", () => {
  test.skip(!TEST_DATABASE_URL, "needs TEST_DATABASE_URL (PostgreSQL)");

  test("an order placed on A is on B's incoming list, a price changed on B shows on A's /shop within 1 s, and A's admin session works on B", async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    const database = await createThrowawayDatabase(TEST_DATABASE_URL as string, "cg_two");
    const apps: RunningApp[] = [];
    let helper: DatabaseHandle | undefined;
    // What shop.env gives every instance in compose.yaml.
    const shared = {
      DATABASE_URL: database.url,
      COOKIE_SECRET: randomBytes(32).toString("base64"),
      ID_PHOTO_KEY: randomBytes(32).toString("base64"),
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      SEED_DEMO: "true",
      // Few enough products that every one of them is on /shop's first page.
      SEED_DEMO_COUNT: "8",
      MAX_OPEN_ORDERS: "1000",
      ...LOAD_TEST_BUDGETS,
    };
    try {
      // A first: it migrates and seeds; B starts on the database A prepared (as in compose.yaml).
      const a = await startApp({ buildDir: process.env.E2E_BUILD_DIR as string, env: shared });
      apps.push(a);
      const b = await startApp({ buildDir: process.env.E2E_BUILD_DIR as string, env: shared });
      apps.push(b);
      helper = await openDatabase({ kind: "postgres", url: database.url, applicationName: "cg-test-helper" });

      // An order placed on A…
      const [size] = await orderableSizes(helper.db, 1);
      expect(size).toBeDefined();
      const shopper = 7_000_000 + Math.floor(Math.random() * 1_000_000);
      const placed = await postOrder(a.url, size as NonNullable<typeof size>, shopper);
      expect(placed, JSON.stringify(placed)).toHaveProperty("token");

      // …an admin signs in on A…
      const context = await browser.newContext();
      const page = await context.newPage();
      await signInAs(page, ADMIN, { loginUrl: `${a.url}/admin/login` });
      await expect(page).toHaveURL(/\/admin\/dashboard$/);

      // …and B, never signed in to, is given the session cookie A issued (in a browser of its own)
      // and lists the order placed on A among its incoming orders.
      const cookies = await context.cookies(`${a.url}/admin`);
      expect(cookies.length).toBeGreaterThan(0);
      const onB = await browser.newContext();
      await onB.addCookies(cookies);
      const bPage = await onB.newPage();
      await bPage.goto(`${b.url}/admin/orders`);
      await expect(bPage).toHaveURL(new RegExp(`^${b.url}/admin/orders$`));
      await expect(bPage.getByText(`shopper-${shopper}@example.com`)).toBeVisible();
      // Without that cookie B sends the visitor to its sign-in page: the session is what let us in.
      const stranger = await browser.newContext();
      const strangerPage = await stranger.newPage();
      await strangerPage.goto(`${b.url}/admin/orders`);
      await expect(strangerPage).toHaveURL(/\/admin\/login/);
      await stranger.close();

      // A product whose every size is in stock and at its full price: any new price shows as is.
      const product = (
        (await helper.db.execute(sql`
          SELECT p.id, p.name FROM products p
          WHERE NOT EXISTS (SELECT 1 FROM product_sizes s
                            WHERE s.product_id = p.id AND s.sale_price_cents IS NOT NULL)
          ORDER BY p.name LIMIT 1`)) as unknown as { rows: Array<{ id: string; name: string }> }
      ).rows[0];
      expect(product, "a seeded product without a sale price").toBeDefined();
      const { id, name } = product as { id: string; name: string };
      const newPrice = `$${(60 + Math.floor(Math.random() * 30)).toString()}.${String(10 + Math.floor(Math.random() * 89))}`;

      // A's /shop shows the product and is cached (served twice before the change).
      for (let n = 0; n < 2; n++) {
        const before = await (await fetch(`${a.url}/shop`)).text();
        expect(before).toContain(name.replaceAll("&", "&amp;"));
        expect(before).not.toContain(newPrice);
      }

      // The price changed on B, through the admin's product form…
      await bPage.goto(`${b.url}/admin/products/edit/${id}`);
      await expect(bPage.getByRole("heading", { name: "Edit Product" })).toBeVisible();
      await bPage.getByLabel("Price ($)", { exact: true }).first().fill(newPrice.slice(1));
      const saved = bPage.waitForResponse(
        (response) => response.request().method() === "POST" && response.url().startsWith(b.url),
      );
      await bPage.getByRole("button", { name: "Update Product" }).click();
      await saved;
      const savedAt = Date.now();
      await expect(bPage).toHaveURL(/\/admin\/products$/);
      await expect(bPage.getByText("Product updated successfully")).toBeVisible();

      // …is on A's /shop within 1 s of B answering the save.
      let seenAfterMs: number | undefined;
      while (Date.now() - savedAt < 3_000) {
        const html = await (await fetch(`${a.url}/shop`)).text();
        if (html.includes(newPrice)) {
          seenAfterMs = Date.now() - savedAt;
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      test.info().annotations.push({ type: "price on A after", description: `${seenAfterMs} ms` });
      expect(seenAfterMs, `${newPrice} never showed on A's /shop`).toBeDefined();
      expect(seenAfterMs as number).toBeLessThanOrEqual(1_000);
      await context.close();
      await onB.close();
    } finally {
      await Promise.all(apps.map((app) => app.stop()));
      await helper?.close();
      await database.drop();
    }
  });
});
