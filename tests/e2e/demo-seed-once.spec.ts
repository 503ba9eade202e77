/**
 * The demo catalogue is seeded once in the life of a database. An owner who
 * deletes every demo product and restarts the shop keeps an empty shop.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { openDatabase } from "#app/db/client.server.ts";
import { productSizes, products } from "#app/db/schema.ts";
import { startApp } from "../support/app-server.ts";

const productLinks = (html: string) => [...html.matchAll(/href="\/product\/[a-z0-9-]+"/g)].length;

test("deleting all demo products and restarting seeds nothing", async () => {
  test.setTimeout(300_000);
  const dataDir = mkdtempSync(path.join(tmpdir(), "cg-seed-once-"));
  const start = () =>
    startApp({
      buildDir: process.env.E2E_BUILD_DIR as string,
      dataDir,
      env: { SEED_DEMO: "true", SEED_DEMO_COUNT: "6" },
      startTimeoutMs: 150_000,
    });
  try {
    let app = await start();
    expect(productLinks(await (await fetch(`${app.url}/shop`)).text())).toBeGreaterThan(0);
    await app.stop();

    // The owner deletes every product (here straight in the database, with the server stopped).
    const database = await openDatabase({ kind: "pglite", dataDir, lockOwner: "the test" });
    await database.db.delete(productSizes);
    await database.db.delete(products);
    await database.close();

    app = await start();
    const shop = await (await fetch(`${app.url}/shop`)).text();
    expect(productLinks(shop)).toBe(0);
    await app.stop();

    const check = await openDatabase({ kind: "pglite", dataDir, lockOwner: "the test" });
    try {
      expect(await check.db.$count(products)).toBe(0);
    } finally {
      await check.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test("the configured store name is used in titles, headers and the admin; 'View all deals' leads to /deals", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const app = await startApp({
    buildDir: process.env.E2E_BUILD_DIR as string,
    // 12 demo products hold 3 deals.
    env: { SEED_DEMO: "true", SEED_DEMO_COUNT: "12", STORE_NAME: "Rowhouse Greens" },
    startTimeoutMs: 150_000,
  });
  const context = await browser.newContext({ baseURL: app.url });
  try {
    await context.addInitScript(() => window.localStorage.setItem("capital-grown-age-verified", "yes"));
    const page = await context.newPage();
    for (const path of ["/", "/shop", "/checkout", "/thank-you", "/order-confirmation", "/admin/login"]) {
      const html = await (await fetch(`${app.url}${path}`)).text();
      const title = /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? "";
      expect(title, path).toContain(path === "/admin/login" ? "Admin Login" : "Rowhouse Greens");
      // The spec's tagline is the one place the literal stays.
      expect(html.replaceAll("Capital Grown. Capital Delivered.", ""), path).not.toContain("Capital Grown");
    }
    await page.goto("/");
    await expect(page.getByRole("heading", { name: "Why Choose Rowhouse Greens" })).toBeVisible();
    await page.goto("/admin/login");
    await expect(page.getByText("Rowhouse Greens back office")).toBeVisible();

    await page.goto("/shop");
    const deals = page.getByRole("region", { name: "Deals" });
    await deals.getByRole("link", { name: "View all deals" }).click();
    await expect(page).toHaveURL(/\/deals$/);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  } finally {
    await context.close();
    await app.stop();
  }
});
