/**
 * Issue 14 item 7: the demo catalogue is seeded once in the life of a database. An owner who
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
  test.setTimeout(180_000);
  const dataDir = mkdtempSync(path.join(tmpdir(), "cg-seed-once-"));
  const start = () =>
    startApp({
      buildDir: process.env.E2E_BUILD_DIR as string,
      dataDir,
      env: { SEED_DEMO: "true", SEED_DEMO_COUNT: "6" },
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
