/** The storefront's checkout as a shopper fills it, for the stories that start a server of their own. */
import { expect, type Page } from "@playwright/test";
import sharp from "sharp";

/**
 * Opens product pages from /shop until one is in stock at $20 or more, not named in `exclude`.
 * `base`: the server's URL, or "" for the page's baseURL.
 */
export async function openAffordableProduct(page: Page, base: string, exclude: string[] = []) {
  await page.goto(`${base}/shop`);
  const hrefs = await page
    .locator('main a[href^="/product/"]')
    .evaluateAll((links) => [...new Set(links.map((link) => link.getAttribute("href") ?? ""))]);
  expect(hrefs.length, "the shop lists products (demo catalogue)").toBeGreaterThan(0);
  for (const href of hrefs.slice(0, 12)) {
    await page.goto(`${base}${href}`);
    const name = (await page.getByRole("heading", { level: 1 }).innerText()).trim();
    if (exclude.includes(name)) continue;
    const addButton = page.getByRole("button", { name: "Add to Cart" });
    if (!(await addButton.isVisible()) || (await addButton.isDisabled())) continue;
    const text = await page.locator("main").innerText();
    const match = /\$([\d,]+\.\d\d)/.exec(text.slice(text.indexOf(name) + name.length));
    const cents = match ? Math.round(Number((match[1] ?? "0").replaceAll(",", "")) * 100) : 0;
    if (cents >= 2000) return { name, cents };
  }
  throw new Error("No product at $20 or more is in stock");
}

export type Shopper = { name: string; email: string; phone: string; textMe: boolean };

/**
 * A cart of $80 or more of a product not in `exclude` and the form filled in, the ID photo sent
 * ahead, up to the Place Order button. Returns the product's name.
 */
export async function fillCheckout(page: Page, base: string, shopper: Shopper, exclude: string[] = []) {
  const png = await sharp({ create: { width: 640, height: 400, channels: 3, background: "#7eb394" } })
    .png()
    .toBuffer();
  const product = await openAffordableProduct(page, base, exclude);
  await page.getByRole("spinbutton", { name: "Quantity" }).fill(String(Math.ceil(8000 / product.cents)));
  await page.getByRole("button", { name: "Add to Cart" }).click();
  await expect(page.getByText("Added to cart").first()).toBeVisible();
  await page.goto(`${base}/checkout`);
  await page.getByText("In-person delivery").first().click();
  await page.getByLabel("Full name").fill(shopper.name);
  await page.getByLabel("Email").fill(shopper.email);
  await page.getByLabel("Phone", { exact: true }).fill(shopper.phone);
  if (shopper.textMe) await page.getByRole("checkbox", { name: "Text me updates about this order" }).check();
  await page.getByLabel("Street address").fill("1600 Test Ave NW");
  await page.getByLabel("City").fill("Washington");
  await page.getByLabel("ZIP code").fill("20001");
  await sendIdPhotoAhead(page, png);
  await page.getByRole("checkbox", { name: /21 years of age or older/ }).check();
  return product.name;
}

/** Picks the ID photo on the checkout form and waits until it has been sent ahead (/api/id-photo). */
export async function sendIdPhotoAhead(page: Page, png: Buffer) {
  const sentAhead = page.waitForResponse(
    (response) => response.url().endsWith("/api/id-photo") && response.status() === 200,
  );
  await page
    .getByLabel(/Upload front of ID/)
    .setInputFiles({ name: "id.png", mimeType: "image/png", buffer: png });
  await sentAhead;
}
