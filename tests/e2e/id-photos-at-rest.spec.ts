/**
 * ID photos at rest (record 014), against the real built server on the embedded database: an ID photo's bytes are
 * in no file of the data folder (database files and write-ahead log included), everything in the
 * data folder is private to the shop's user, and a server with another key refuses to start.
 */
import { randomBytes } from "node:crypto";
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import pg from "pg";
import sharp from "sharp";
import { openDatabase } from "#app/db/client.server.ts";
import { startApp } from "../support/app-server.ts";
import { insertOrderRow } from "../support/order-rows.ts";
import { signIn, tomorrowInStore } from "./admin-support.ts";
import { E2E_ADMIN } from "./support/global-setup.ts";
import { createProducts, passAgeGate, uniqueName } from "./support/storefront.ts";

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: "utf8" }).map((name) => path.join(folder, name));
}

/** A photo of noise: its JPEG is unique, so finding a slice of it anywhere means it leaked. */
function noisyPng(width: number, height: number) {
  return sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

async function sizeIdOf(page: Page, productId: string) {
  await page.goto(`/product/${productId}`);
  // A click before hydration does nothing: click until the cart says it took the item.
  await expect(async () => {
    await page.getByRole("button", { name: "Add to Cart" }).click();
    await expect(page.getByText("Added to cart").first()).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  const cart = await page.evaluate(() => window.localStorage.getItem("capital-grown-cart"));
  return (JSON.parse(cart ?? "[]") as { selectedSize?: { id: string }; sizeId?: string }[])
    .map((line) => line.selectedSize?.id ?? line.sizeId)
    .find(Boolean) as string;
}

test("an ordered ID photo is in no file of the data folder, and every file there is private to the shop", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const workDir = mkdtempSync(path.join(tmpdir(), "cg-at-rest-"));
  const dataDir = path.join(workDir, "data");
  // What an older version left behind: a data folder and an e-mail anyone on the machine could read.
  mkdirSync(path.join(dataDir, "outbox"), { recursive: true, mode: 0o755 });
  chmodSync(dataDir, 0o755);
  writeFileSync(path.join(dataDir, "outbox", "older.eml"), "Subject: older\n", { mode: 0o644 });

  const app = await startApp({
    buildDir: process.env.E2E_BUILD_DIR as string,
    dataDir,
    env: { ADMIN_EMAIL: E2E_ADMIN.email, ADMIN_PASSWORD: E2E_ADMIN.password, SEED_DEMO: "false" },
  });
  let stopped = false;
  try {
    const productName = uniqueName("Vault Kush");
    const [productId] = await createProducts(browser, app.url, [
      {
        name: productName,
        category: "Edibles",
        sizes: [{ size: "10 pack", price: "90.00", inventoryCount: 5 }],
      },
    ]);
    const shopper = await browser.newContext({ baseURL: app.url });
    await passAgeGate(shopper);
    const sizeId = await sizeIdOf(await shopper.newPage(), productId as string);

    // The photo is sent ahead (as the checkout page does), then the order names it.
    const upload = await shopper.request.post("/api/id-photo", {
      headers: { Origin: app.url },
      multipart: { idFront: { name: "id.png", mimeType: "image/png", buffer: await noisyPng(480, 300) } },
    });
    expect(upload.status(), await upload.text()).toBe(200);
    const { token } = (await upload.json()) as { token: string };
    const order = await shopper.request.post("/checkout", {
      headers: { Origin: app.url },
      maxRedirects: 0,
      multipart: {
        name: "Ada At-Rest",
        email: "at-rest@example.com",
        phone: "(202) 555-0177",
        address: "1 Vault St NW",
        city: "Washington",
        state: "DC",
        zipCode: "20001",
        notes: "",
        deliveryDate: tomorrowInStore(),
        timeSlot: "12:00 PM-2:00 PM",
        ageConfirmed: "on",
        idempotencyKey: `at-rest-${Date.now()}`,
        items: JSON.stringify([{ productId, sizeId, quantity: 1 }]),
        idPhotoToken: token,
      },
    });
    expect(order.status(), await order.text().catch(() => "")).toBe(302);
    await shopper.close();

    // The stored photo, as staff see it (decrypted by the server).
    const staff = await browser.newContext({ baseURL: app.url });
    const staffPage = await staff.newPage();
    await signIn(staffPage);
    const photoResponse = await staffPage.request.get(`/admin/id-photos/${token}`);
    expect(photoResponse.status()).toBe(200);
    const stored = await photoResponse.body();
    await staff.close();
    expect([...stored.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    expect(stored.byteLength).toBeGreaterThan(50_000);

    // The order's e-mails reach the outbox folder: files the server wrote while running.
    await expect(() =>
      expect(
        readdirSync(path.join(dataDir, "outbox")).filter((name) => name !== "older.eml").length,
      ).toBeGreaterThan(0),
    ).toPass({ timeout: 15_000 });

    await app.stop();
    stopped = true;

    const entries = [dataDir, ...filesUnder(dataDir)];
    expect(entries.length).toBeGreaterThan(100);
    const readableByOthers = entries.filter((entry) => (lstatSync(entry).mode & 0o077) !== 0);
    expect(readableByOthers).toEqual([]);
    expect(entries.some((entry) => entry.includes(`${path.sep}pg_wal${path.sep}`))).toBe(true);

    const files = entries.filter((entry) => lstatSync(entry).isFile());
    const slices = [0.1, 0.3, 0.5, 0.7, 0.9].map((at) => {
      const start = Math.floor(stored.byteLength * at);
      return stored.subarray(start, start + 32);
    });
    const leaks = files.filter((file) => {
      const content = readFileSync(file);
      return slices.some((slice) => content.includes(slice));
    });
    expect(leaks).toEqual([]);
    // The same search finds what is stored unencrypted: it would find the photo if it were there.
    const withProductName = files.filter((file) => readFileSync(file).includes(Buffer.from(productName)));
    expect(withProductName.length).toBeGreaterThan(0);
  } finally {
    if (!stopped) await app.stop();
    rmSync(workDir, { recursive: true, force: true });
  }
});

test("a server started without the database's ID photo key refuses to start and names the key it needs", async () => {
  test.setTimeout(120_000);
  const buildDir = process.env.E2E_BUILD_DIR as string;
  const workDir = mkdtempSync(path.join(tmpdir(), "cg-wrong-key-"));
  const dataDir = path.join(workDir, "data");
  const keysFolder = path.join(dataDir, "keys");
  const start = (env: Record<string, string>) =>
    startApp({ buildDir, dataDir, env: { SEED_DEMO: "false", LOG_LEVEL: "info", ...env } }).then(
      async (app) => {
        await app.stop();
        return { started: true, logs: app.logs() };
      },
      (error: Error) => ({ started: false, logs: error.message }),
    );
  try {
    const first = await start({});
    expect(first.started).toBe(true);
    expect(first.logs).toMatch(
      /Generated the ID photo encryption key [0-9a-f]{16} in .+id-photo\.key: back it up apart from the database/,
    );
    const needed = /Generated the ID photo encryption key ([0-9a-f]{16})/.exec(first.logs)?.[1];
    const keyFile = path.join(keysFolder, "id-photo.key");
    expect(lstatSync(keyFile).mode & 0o777).toBe(0o600);
    expect(lstatSync(keysFolder).mode & 0o777).toBe(0o700);
    const key = readFileSync(keyFile, "utf8").trim();
    // The key file goes missing (as on a second server with its own DATA_DIR).
    rmSync(keysFolder, { recursive: true });
    const refusal = new RegExp(
      `Could not start: ID photos in this database are encrypted with key ${needed}; this instance has key [0-9a-f]{16}: set ID_PHOTO_KEY to the key used by the other instances`,
    );

    const withAnotherKey = await start({ ID_PHOTO_KEY: randomBytes(32).toString("base64") });
    expect(withAnotherKey.started).toBe(false);
    expect(withAnotherKey.logs).toMatch(refusal);

    const withNoKey = await start({});
    expect(withNoKey.started).toBe(false);
    expect(withNoKey.logs).toMatch(refusal);
    rmSync(keysFolder, { recursive: true });

    // The right key given as ID_PHOTO_KEY (as a second server gets it) is accepted.
    const withTheKey = await start({ ID_PHOTO_KEY: key });
    expect(withTheKey.started, withTheKey.logs).toBe(true);
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
});

test("on a shared PostgreSQL, a second instance needs the first one's key, and then reads its photos", async ({
  browser,
}) => {
  test.skip(!process.env.TEST_DATABASE_URL, "needs TEST_DATABASE_URL");
  test.setTimeout(180_000);
  const buildDir = process.env.E2E_BUILD_DIR as string;
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  const database = `cg_keys_${randomBytes(6).toString("hex")}`;
  await admin.query(`CREATE DATABASE "${database}"`);
  const url = new URL(process.env.TEST_DATABASE_URL as string);
  url.pathname = `/${database}`;
  const workDir = mkdtempSync(path.join(tmpdir(), "cg-shared-key-"));
  const env = {
    DATABASE_URL: url.toString(),
    SEED_DEMO: "false",
    ADMIN_EMAIL: E2E_ADMIN.email,
    ADMIN_PASSWORD: E2E_ADMIN.password,
  };
  const running: { stop(): Promise<void> }[] = [];
  try {
    const first = await startApp({ buildDir, dataDir: path.join(workDir, "first"), env });
    running.push(first);
    const key = readFileSync(path.join(workDir, "first", "keys", "id-photo.key"), "utf8").trim();

    // A second server with a data folder of its own and no ID_PHOTO_KEY: it may not write photos.
    const refused = await startApp({ buildDir, dataDir: path.join(workDir, "second"), env }).then(
      async (app) => {
        await app.stop();
        return "started";
      },
      (error: Error) => error.message,
    );
    expect(refused).toMatch(
      /Could not start: ID photos in this database are encrypted with key [0-9a-f]{16}; this instance has key [0-9a-f]{16}: set ID_PHOTO_KEY to the key used by the other instances/,
    );

    const second = await startApp({
      buildDir,
      dataDir: path.join(workDir, "second-with-key"),
      env: { ...env, ID_PHOTO_KEY: key },
    });
    running.push(second);
    const context = await browser.newContext({ baseURL: second.url });
    const sent = await context.request.post("/api/id-photo", {
      headers: { Origin: second.url },
      multipart: { idFront: { name: "id.png", mimeType: "image/png", buffer: await noisyPng(200, 120) } },
    });
    expect(sent.status(), await sent.text()).toBe(200);
    const { token } = (await sent.json()) as { token: string };
    await context.close();
    // Staff see a customer's ID photo only through its order (P-27: the view is audited
    // against the order): the order is written straight into the shared database.
    const rows = await openDatabase({
      kind: "postgres",
      url: url.toString(),
      applicationName: "cg-test-helper",
    });
    try {
      await insertOrderRow(rows.db, {
        customerName: "Key Sharing",
        deliveryDate: tomorrowInStore(),
        idPhotoId: token,
      });
    } finally {
      await rows.close();
    }

    // Staff signed in on the first instance see the photo the second one stored.
    const staff = await browser.newContext({ baseURL: first.url });
    const page = await staff.newPage();
    await signIn(page);
    const photo = await page.request.get(`/admin/id-photos/${token}`);
    expect(photo.status()).toBe(200);
    expect([...(await photo.body()).subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    await staff.close();
  } finally {
    for (const app of running) await app.stop();
    await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await admin.end();
    rmSync(workDir, { recursive: true, force: true });
  }
});
