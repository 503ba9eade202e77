/**
 * Staff story: the product form never loses work. A save pressed while the image
 * still uploads waits for it; a refused or failed save shows the same form with everything typed,
 * with JavaScript and without.
 */
import { randomBytes } from "node:crypto";
import { expect, type Page, test } from "@playwright/test";
import sharp from "sharp";
import { signIn } from "./admin-support.ts";
import { uniqueName } from "./support/storefront.ts";

/** A PNG of noise: it does not compress, so its upload takes a while on a slow link. */
function noisyPng(side: number) {
  return sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } })
    .png()
    .toBuffer();
}

async function fillRequired(page: Page, name: string) {
  await page.getByLabel("Product Name").fill(name);
  await page.getByLabel("Category").selectOption("Edibles");
  await page.getByLabel("Description").fill("Made by the form story.");
  await page.getByLabel("Size", { exact: true }).fill("10 pack");
  await page.getByLabel("Price ($)", { exact: true }).fill("30");
  await page.getByLabel("Inventory").fill("9");
  await page.getByLabel("Flower eq. (g)").fill("0.35");
}

test("Create Product pressed during a slow image upload creates the product once the upload ends", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const name = uniqueName("E2E Slow Upload Gummies");
  await signIn(page);
  await page.goto("/admin/products/new");
  await fillRequired(page, name);

  // A slow uplink, as on a shop's phone: Chromium throttles the upload itself.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 50,
    downloadThroughput: -1,
    uploadThroughput: 64 * 1024,
  });
  const png = await noisyPng(300);
  expect(png.byteLength).toBeGreaterThan(200_000);
  const uploaded = page.waitForResponse((response) =>
    response.url().endsWith("/admin/products/upload-image"),
  );
  await page
    .getByLabel("Upload product image")
    .setInputFiles({ name: "gummies.png", mimeType: "image/png", buffer: png });

  const button = page.getByRole("button", { name: "Uploading image…" });
  await expect(button).toBeVisible();
  await expect(button).toBeDisabled();
  await expect(page.getByRole("button", { name: "Create Product" })).toHaveCount(0);
  // Pressed anyway (a tap on the greyed button, or Enter in a field): kept until the upload ends.
  await button.click({ force: true });
  await expect(page.getByText("The product is created as soon as the image has uploaded.")).toBeVisible();
  await expect(page.getByText("Image is required")).toHaveCount(0);
  expect(page.url()).toMatch(/\/admin\/products\/new$/);

  expect((await uploaded).status()).toBe(201);
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  await expect(page).toHaveURL(/\/admin\/products$/, { timeout: 20_000 });
  await expect(page.getByText("Product created successfully")).toBeVisible();
  await page.getByPlaceholder("Search products...").fill(name);
  const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name }) });
  await expect(card).toHaveCount(1);
  await expect(card.locator('img[src^="/media/"]')).toHaveCount(1);
});

test("a sale price at or above the price is refused with the schema's words", async ({ page }) => {
  await signIn(page);
  await page.goto("/admin/products/new");
  await fillRequired(page, uniqueName("E2E Sale Check"));
  await page.getByLabel("Sale Price ($)").fill("30");
  await page.getByRole("button", { name: "Create Product" }).click();
  await expect(page.getByText("Sale price must be lower than the price")).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/products\/new$/);
});

test("a save the server fails keeps the form as typed, image included, and saves on the next try", async ({
  page,
  baseURL,
}) => {
  const name = uniqueName("E2E Failed Save Mints");
  await signIn(page);
  await page.goto("/admin/products/new");
  await fillRequired(page, name);
  await page.getByLabel("Or paste an image URL").fill(`${baseURL}/apple-touch-icon.png`);
  await page.getByRole("button", { name: "Use URL" }).click();
  await page.getByRole("switch", { name: "Deal Product" }).click();

  // The database refuses the row: a NUL in the name passes the form's checks but no PostgreSQL text
  // column takes it. The first save is sent with one, as a client with a stale script might.
  let broken = 0;
  await page.route("**/admin/products/new.data*", async (route) => {
    const form = new URLSearchParams(route.request().postData() ?? "");
    const payload = JSON.parse(form.get("payload") ?? "{}");
    if (broken++ === 0) payload.name = `${payload.name}\u0000`;
    form.set("payload", JSON.stringify(payload));
    await route.continue({ postData: form.toString() });
  });
  const answer = page.waitForResponse((response) => response.url().includes("/admin/products/new.data"));
  await page.getByRole("button", { name: "Create Product" }).click();
  expect((await answer).status()).toBe(500);
  await expect(
    page.getByRole("alert").filter({ hasText: "Failed to save product. Please try again." }),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/products\/new$/);
  await expect(page.getByLabel("Product Name")).toHaveValue(name);
  await expect(page.getByLabel("Description")).toHaveValue("Made by the form story.");
  await expect(page.getByLabel("Price ($)", { exact: true })).toHaveValue("30");
  await expect(page.getByRole("switch", { name: "Deal Product" })).toBeChecked();
  await expect(page.getByRole("img", { name: "Product preview" })).toHaveAttribute(
    "src",
    /apple-touch-icon\.png$/,
  );

  await page.getByRole("button", { name: "Create Product" }).click();
  await expect(page).toHaveURL(/\/admin\/products$/);
  await expect(page.getByText("Product created successfully")).toBeVisible();
});

test("without JavaScript, a refused save shows the errors on the same page with everything typed; the fixed form saves", async ({
  browser,
  baseURL,
}) => {
  // The sign-in page needs its script; the product form then works with scripts off.
  const signedIn = await browser.newContext({ baseURL });
  await signIn(await signedIn.newPage());
  const storageState = await signedIn.storageState();
  await signedIn.close();
  const context = await browser.newContext({ baseURL, storageState, javaScriptEnabled: false });
  const page = await context.newPage();
  try {
    const name = uniqueName("E2E No Script Brownie");
    await page.goto("/admin/products/new");
    await page.getByLabel("Product Name").fill(name);
    await page.getByLabel("Category").selectOption("Edibles");
    await page.getByLabel("Size", { exact: true }).fill("2 pack");
    await page.getByLabel("Price ($)", { exact: true }).fill("24");
    await page.getByLabel("Sale Price ($)").fill("26");
    await page.getByLabel("Flower eq. (g)").fill("0.2");
    await page.getByLabel("Low stock at").fill("3");
    await page.getByLabel("Or paste an image URL").fill(`${baseURL}/apple-touch-icon.png`);
    await page.getByRole("button", { name: "Create Product" }).click();

    await expect(page).toHaveURL(/\/admin\/products\/new$/);
    await expect(page.getByText("Description is required")).toBeVisible();
    await expect(page.getByText("Sale price must be lower than the price")).toBeVisible();
    await expect(page.getByLabel("Product Name")).toHaveValue(name);
    await expect(page.getByLabel("Category")).toHaveValue("Edibles");
    await expect(page.getByLabel("Size", { exact: true })).toHaveValue("2 pack");
    await expect(page.getByLabel("Price ($)", { exact: true })).toHaveValue("24");
    await expect(page.getByLabel("Low stock at")).toHaveValue("3");
    await expect(page.getByRole("img", { name: "Product preview" })).toHaveAttribute(
      "src",
      /apple-touch-icon\.png$/,
    );

    await page.getByLabel("Description").fill("Fudgy, made without a script.");
    await page.getByLabel("Sale Price ($)").fill("20");
    await page.getByRole("button", { name: "Create Product" }).click();
    await expect(page).toHaveURL(/\/admin\/products$/);
    await expect(page.getByText(name)).toBeVisible();
  } finally {
    await context.close();
  }
});
