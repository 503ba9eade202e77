/**
 * The ID on file (record 058) as a story: a signed-in customer ticks 'Keep my ID on file for next
 * time', staff verify the ID with its expiry on the order card, the next checkout shows 'ID on file
 * (expires 03/2029)' instead of the upload and places the order, staff see the photo on the new
 * order, then revoke it, and the checkout after that asks for the upload again.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { signIn } from "./admin-support.ts";
import { sendIdPhotoAhead } from "./checkout-form.ts";
import { signInWithCode } from "./support/customer-sign-in.ts";
import { createProducts, passAgeGate, sizeIdFromCart, uniqueName } from "./support/storefront.ts";

const SHOTS = path.resolve(import.meta.dirname, "../../test-results/id-on-file-screens");

async function shoot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

test("ID on file: kept when ticked, verified by staff, used instead of the upload, revoked", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const email = `id-file-${Date.now()}@example.com`;
  const productName = uniqueName("E2E File Haze");
  const [productId] = await createProducts(browser, baseURL as string, [
    { name: productName, category: "Flower", sizes: [{ size: "7g", price: "90.00", inventoryCount: 40 }] },
  ]);
  const context = await browser.newContext({ baseURL });
  await passAgeGate(context);
  const page = await context.newPage();
  await signInWithCode(page, process.env.E2E_DATA_DIR as string, email);
  const png = Buffer.from(
    await (await import("sharp"))
      .default({
        create: { width: 640, height: 400, channels: 3, background: "#7eb394" },
      })
      .png()
      .toBuffer(),
  );

  /** The cart holds the product; the checkout's fields filled in, up to the ID step. */
  const openCheckout = async () => {
    await sizeIdFromCart(context, productId as string);
    await page.goto("/checkout");
    await page.getByText("In-person delivery").first().click();
    await page.getByLabel("Full name").fill("Fay File");
    await page.getByLabel("Phone", { exact: true }).fill("(202) 555-0188");
    await page.getByLabel("Street address").fill("1600 Test Ave NW");
    await page.getByLabel("City").fill("Washington");
    await page.getByLabel("ZIP code").fill("20001");
  };
  const placeOrder = async () => {
    await page.getByRole("checkbox", { name: /21 years of age or older/ }).check();
    await page.getByRole("button", { name: /Place Order/ }).click();
    await expect(page).toHaveURL(/\/thank-you\?order=[\w-]{32}$/, { timeout: 20_000 });
  };

  // 1. The first order: the upload, and the box ticked.
  await openCheckout();
  await sendIdPhotoAhead(page, png);
  await page.getByRole("checkbox", { name: "Keep my ID on file for next time" }).check();
  await shoot(page, "checkout-keep-box");
  await placeOrder();

  // 2. Staff verify it on that order's card, with the ID's expiry.
  const staff = await browser.newContext({ baseURL });
  const admin = await staff.newPage();
  await signIn(admin);
  await admin.goto(`/admin/orders?q=${encodeURIComponent(email)}`);
  const firstCard = admin
    .locator("[id^=order-]")
    .filter({ hasText: "The customer asked to keep this ID on file." });
  await expect(firstCard).toHaveCount(1);
  await firstCard.getByLabel("ID expires").fill("2029-03-31");
  await shoot(admin, "order-card-verify");
  await firstCard.getByRole("button", { name: "Verify and keep on file" }).click();
  await expect(admin.getByText("ID kept on file").first()).toBeVisible();
  await expect(admin.getByText("ID on file (expires 03/2029)").first()).toBeVisible();

  // 3. The next checkout: no upload, the words instead, and the order is placed.
  await openCheckout();
  await expect(page.getByText("ID on file (expires 03/2029)")).toBeVisible();
  await expect(page.getByLabel(/Upload front of ID/)).toHaveCount(0);
  await shoot(page, "checkout-id-on-file");
  await placeOrder();

  // 4. Staff see the photo on the new order too.
  await admin.goto(`/admin/orders?q=${encodeURIComponent(email)}`);
  const cards = admin
    .locator("[id^=order-]")
    .filter({ has: admin.getByRole("heading", { level: 2, name: /^Order #/ }) });
  await expect(cards).toHaveCount(2);
  const newest = cards.first();
  const photo = newest.getByRole("img", { name: "ID of Fay File" });
  await expect(photo).toBeVisible();
  expect(await photo.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);
  await expect(newest.getByText("No ID photo – check at the door")).toHaveCount(0);

  // 5. Staff revoke it; the next checkout asks for the upload again.
  const verifiedCard = cards.filter({ hasText: "ID on file (expires 03/2029)" });
  await verifiedCard.getByRole("button", { name: "Revoke ID on file" }).click();
  await expect(admin.getByText("ID taken off file").first()).toBeVisible();
  await openCheckout();
  await expect(page.getByLabel(/Upload front of ID/)).toHaveCount(1);
  await expect(page.getByText("ID on file (expires 03/2029)")).toHaveCount(0);
  await staff.close();
  await context.close();
});
