import { expect, test } from "@playwright/test";
import { inArray, sql } from "drizzle-orm";
import pg from "pg";
import sharp from "sharp";
import { type DatabaseHandle, openDatabase } from "#app/db/client.server.ts";
import { orders } from "#app/db/schema.ts";
import { LOAD_TEST_BUDGETS, type RunningApp, startApp } from "../support/app-server.ts";
import { cuttableProxy } from "../support/cuttable-proxy.ts";
import { orderableSizes, postOrder, showsStack } from "../support/shop-orders.ts";
import { createThrowawayDatabase } from "../support/throwaway-database.ts";
import { enrolOverHttp } from "./support/admin-sign-in.ts";

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
const ADMIN = { email: "storm-admin@capitalgrown.test", password: "storm-password-123" };
const STORM_MS = 28_000;

// Record 016: what a PostgreSQL restart, a failover or a managed database's maintenance does
// to the app's connections, every 500 ms for half a minute, under mixed traffic.
test.describe("the database drops the app's connections", () => {
  test.skip(!TEST_DATABASE_URL, "needs TEST_DATABASE_URL (PostgreSQL)");

  test("the process stays up, no stack is shown, every acknowledged order is kept, LISTEN comes back", async () => {
    test.setTimeout(150_000);
    const database = await createThrowawayDatabase(TEST_DATABASE_URL as string, "cg_outage");
    let app: RunningApp | undefined;
    let helper: DatabaseHandle | undefined;
    const killer = new pg.Client({ connectionString: database.url, application_name: "cg-test-killer" });
    try {
      app = await startApp({
        buildDir: process.env.E2E_BUILD_DIR as string,
        env: {
          DATABASE_URL: database.url,
          SEED_DEMO_COUNT: "16",
          ADMIN_EMAIL: ADMIN.email,
          ADMIN_PASSWORD: ADMIN.password,
          LOG_LEVEL: "info",
          ...LOAD_TEST_BUDGETS,
        },
      });
      const { url } = app;
      helper = await openDatabase({ kind: "postgres", url: database.url, applicationName: "cg-test-helper" });
      const sizes = await orderableSizes(helper.db, 6);
      await killer.connect();

      // The owner signs in and sets up two-factor sign-in (P-27) before opening anything.
      const { cookie } = await enrolOverHttp(url, ADMIN);
      expect(cookie).toContain("cg_");
      const catalogue = ["/shop", "/flower", "/edibles", "/"];
      for (const path of catalogue) expect((await fetch(`${url}${path}`)).status).toBe(200);

      const statuses = new Map<number, number>();
      const withStack: string[] = [];
      const acknowledged: string[] = [];
      let catalogueServed = 0;
      let shopper = 0;
      let stormOver = false;
      const count = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1);
      const get = async (path: string, headers: Record<string, string> = {}) => {
        const response = await fetch(`${url}${path}`, { headers, redirect: "manual" });
        const body = await response.text();
        count(response.status);
        if (showsStack(body)) withStack.push(`${path} ${response.status}: ${body.slice(0, 300)}`);
        if (response.status >= 500) expect(response.headers.get("retry-after")).toBeTruthy();
        return response;
      };
      const lanes = [
        async () => {
          for (let i = 0; !stormOver; i++) {
            const response = await get(catalogue[i % catalogue.length] as string);
            if (response.status === 200) catalogueServed++;
          }
        },
        async () => {
          while (!stormOver) {
            const size = sizes[shopper % sizes.length];
            if (!size) break;
            const placed = await postOrder(url, size, shopper++).catch(() => ({ refused: -1, body: "" }));
            if ("token" in placed) acknowledged.push(placed.token);
            else {
              count(placed.refused);
              if (showsStack(placed.body))
                withStack.push(`checkout ${placed.refused}: ${placed.body.slice(0, 300)}`);
            }
          }
        },
        async () => {
          for (let i = 0; !stormOver; i++) {
            await get(i % 2 ? "/admin/orders" : "/admin/products", { cookie });
            await get("/checkout");
          }
        },
      ];
      let terminated = 0;
      const storm = (async () => {
        const until = Date.now() + STORM_MS;
        while (Date.now() < until) {
          const result = await killer.query(
            // Every connection of the app (it names itself capital-grown), never the test's own.
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND application_name NOT LIKE 'cg-test-%' AND pid <> pg_backend_pid()",
            [database.name],
          );
          terminated += result.rowCount ?? 0;
          expect(app?.process.exitCode, app?.logs().slice(-2000)).toBeNull();
          await new Promise((resolve) => setTimeout(resolve, 500));
        }
        stormOver = true;
      })();
      await Promise.all([storm, ...lanes.map((lane) => lane())]);

      expect(app.process.exitCode, app.logs().slice(-3000)).toBeNull();
      expect(terminated).toBeGreaterThan(40);
      expect(withStack).toEqual([]);
      expect(acknowledged.length).toBeGreaterThan(10);
      expect(catalogueServed).toBeGreaterThan(50);
      console.log(
        `outage: ${terminated} connections terminated; statuses ${JSON.stringify([...statuses])}; ${acknowledged.length} orders acknowledged`,
      );

      const kept = await helper.db
        .select({ token: orders.publicToken })
        .from(orders)
        .where(inArray(orders.publicToken, acknowledged));
      const present = new Set(kept.map((row) => row.token));
      expect(acknowledged.filter((token) => !present.has(token))).toEqual([]);

      // After the storm: a price change shows on /shop within a second (LISTEN reconnected).
      const shop = await (await fetch(`${url}/shop`)).text();
      const productSlug = /\/product\/([\w-]+)/.exec(shop)?.[1];
      expect(productSlug).toBeTruthy();
      const changedAt = Date.now();
      // Cards link to the product's slug (record 028).
      await killer.query(
        "UPDATE product_sizes SET price_cents = 77777, sale_price_cents = NULL WHERE product_id = (SELECT id FROM products WHERE slug = $1)",
        [productSlug],
      );
      let shownAfter = Number.POSITIVE_INFINITY;
      while (Date.now() - changedAt < 3_000) {
        if ((await (await fetch(`${url}/shop`)).text()).includes("$777.77")) {
          shownAfter = Date.now() - changedAt;
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(shownAfter).toBeLessThan(1_000);
      expect(app.logs()).toContain("LISTEN catalog_changed: connected again");
    } finally {
      await killer.end().catch(() => {});
      await helper?.close().catch(() => {});
      await app?.stop();
      await database.drop();
    }
  });

  test("while the database is unreachable: cached pages served, a plain 503 elsewhere, checkout keeps the form and the photo", async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const database = await createThrowawayDatabase(TEST_DATABASE_URL as string, "cg_unreachable");
    const target = new URL(database.url);
    const proxy = await cuttableProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const throughProxy = new URL(database.url);
    throughProxy.port = String(proxy.port);
    let app: RunningApp | undefined;
    try {
      app = await startApp({
        buildDir: process.env.E2E_BUILD_DIR as string,
        env: { DATABASE_URL: throughProxy.toString(), SEED_DEMO_COUNT: "16", ...LOAD_TEST_BUDGETS },
      });
      const { url } = app;
      const seeded = await openDatabase({
        kind: "postgres",
        url: database.url,
        applicationName: "cg-test-helper",
      });
      // An edible at $25 in every size: four of them pass the $80 minimum and stay under the limits.
      await orderableSizes(seeded.db, 1);
      const edible = await seeded.db.execute(
        sql`SELECT id FROM products WHERE category = 'Edibles' ORDER BY id LIMIT 1`,
      );
      const productId = (edible as unknown as { rows: Array<{ id: string }> }).rows[0]?.id;
      if (!productId) throw new Error("no edible to order");
      await seeded.db.execute(
        sql`UPDATE product_sizes SET price_cents = 2500, sale_price_cents = NULL WHERE product_id = ${productId}`,
      );
      await seeded.close();
      await page.goto(`${url}/`);
      await page.evaluate(() => window.localStorage.setItem("capital-grown-age-verified", "yes"));
      await page.goto(`${url}/shop`);
      await page.goto(`${url}/product/${productId}`);
      await page.getByRole("spinbutton", { name: "Quantity" }).fill("4");
      await page.getByRole("button", { name: "Add to Cart" }).click();
      await page.goto(`${url}/checkout`);
      await page.getByText("In-person delivery").first().click();
      await page.getByLabel("Full name").fill("Ada Outage");
      await page.getByLabel("Email").fill("ada-outage@example.com");
      await page.getByLabel("Phone").fill("(202) 555-0177");
      await page.getByLabel("Street address").fill("1600 Outage Ave NW");
      await page.getByLabel("City").fill("Washington");
      await page.getByLabel("ZIP code").fill("20001");
      const png = await sharp({ create: { width: 640, height: 400, channels: 3, background: "#7eb394" } })
        .png()
        .toBuffer();
      const sentAhead = page.waitForResponse((response) => response.url().endsWith("/api/id-photo"));
      await page
        .getByLabel(/Upload front of ID/)
        .setInputFiles({ name: "my-id.png", mimeType: "image/png", buffer: png });
      await sentAhead;
      await page.getByRole("checkbox", { name: /21 years of age or older/ }).check();

      await proxy.cut();
      await page.getByRole("button", { name: /Place Order/ }).click();
      await expect(
        page
          .getByText(
            "We couldn't place your order just now. Nothing was charged; please try again in a minute.",
          )
          .first(),
      ).toBeVisible();
      await expect(page.getByLabel("Full name")).toHaveValue("Ada Outage");
      await expect(page.getByLabel("Street address")).toHaveValue("1600 Outage Ave NW");
      await expect(page.getByRole("img", { name: "Preview of your ID" })).toBeVisible();
      if (process.env.OUTAGE_SCREENSHOTS) {
        for (const width of [390, 1280]) {
          await page.setViewportSize({ width, height: 900 });
          await page.screenshot({
            path: `${process.env.OUTAGE_SCREENSHOTS}/checkout-${width}.png`,
            fullPage: true,
          });
        }
      }

      // The catalogue page already cached is still served; a page that needs the database is a plain 503.
      expect((await fetch(`${url}/shop`)).status).toBe(200);
      const admin = await fetch(`${url}/checkout`);
      expect(admin.status).toBe(503);
      expect(admin.headers.get("retry-after")).toBe("30");
      const body = await admin.text();
      expect(body).toContain("Please try again in a minute.");
      expect(showsStack(body)).toBe(false);
      if (process.env.OUTAGE_SCREENSHOTS) {
        const other = await page.context().newPage();
        for (const width of [390, 1280]) {
          await other.setViewportSize({ width, height: 700 });
          await other.goto(`${url}/checkout`);
          await other.screenshot({ path: `${process.env.OUTAGE_SCREENSHOTS}/503-${width}.png` });
        }
        await other.close();
      }
      expect(app.process.exitCode).toBeNull();

      // The database is back: the same form and photo go through.
      await proxy.restore();
      await expect(async () => {
        expect((await fetch(`${url}/healthz`)).status).toBe(200);
        expect((await fetch(`${url}/checkout`)).status).toBe(200);
      }).toPass({ timeout: 10_000 });
      const retried = page.waitForResponse((response) => response.request().method() === "POST");
      await page.getByRole("button", { name: /Place Order/ }).click();
      const answer = await retried;
      expect(answer.status(), app.logs().slice(-4000)).toBe(200);
      await expect(page).toHaveURL(/\/thank-you\?order=/);
      const token = new URL(page.url()).searchParams.get("order") as string;
      const helper = await openDatabase({
        kind: "postgres",
        url: database.url,
        applicationName: "cg-test-helper",
      });
      try {
        const [row] = await helper.db
          .select({ idPhotoId: orders.idPhotoId, name: orders.customerName })
          .from(orders)
          .where(inArray(orders.publicToken, [token]));
        expect(row?.name).toBe("Ada Outage");
        expect(row?.idPhotoId).toBeTruthy();
      } finally {
        await helper.close();
      }
    } finally {
      await app?.stop();
      await proxy.cut().catch(() => {});
      await database.drop();
    }
  });
});
