/**
 * The checkout keeps the shopper's work: under the minimum the page says so before the form, with
 * items to add; what was typed and the ID photo sent ahead stay on the device until the order is
 * placed, through a trip back to the shop and a reload, or until the shopper clears them.
 */
import { expect, type Page, test } from "@playwright/test";
import sharp from "sharp";
import { createProducts, passAgeGate, productSlugOf, uniqueName } from "./support/storefront.ts";

const DRAFT_KEY = "capital-grown-checkout";
const SHOTS = process.env.SHOTS_DIR;

async function idPng() {
  return sharp({ create: { width: 640, height: 400, channels: 3, background: "#7eb394" } })
    .png()
    .toBuffer();
}

async function shoot(page: Page, name: string) {
  if (!SHOTS) return;
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 390, height: 844 });
}

async function addToCart(page: Page, slug: string, quantity: number) {
  await page.goto(`/product/${slug}`);
  await page.getByRole("spinbutton", { name: "Quantity" }).fill(String(quantity));
  await page.getByRole("button", { name: "Add to Cart" }).click();
  await expect(page.getByText("Added to cart").first()).toBeVisible();
}

test("a checkout under the minimum says so first; left to add an item and resumed, it keeps the form and the ID photo", async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const baseURL = process.env.E2E_BASE_URL as string;
  const name = uniqueName("Kept Work Gummies");
  const [id] = await createProducts(browser, baseURL, [
    { name, category: "Edibles", sizes: [{ size: "10 pack", price: "30.00" }] },
  ]);
  const context = await browser.newContext({ baseURL, viewport: { width: 390, height: 844 } });
  await passAgeGate(context);
  const page = await context.newPage();
  const slug = await productSlugOf(page.request, id as string);
  await addToCart(page, slug, 1);

  await page.goto("/checkout");
  const notice = page.getByRole("region", { name: "Minimum order" });
  await expect(notice.getByText("Minimum order required: $80.00")).toBeVisible();
  await expect(notice.getByText("Add $50.00 more to reach minimum order")).toBeVisible();
  // Said before the form, not only as a toast after it.
  const noticeTop = (await notice.boundingBox())?.y ?? Number.POSITIVE_INFINITY;
  const formTop = (await page.getByRole("heading", { name: /Delivery date and time/ }).boundingBox())?.y ?? 0;
  expect(noticeTop).toBeLessThan(formTop);
  await expect(notice.getByText("Suggested from your cart's categories")).toBeVisible();
  await expect(notice.getByRole("button", { name: /^Add / }).first()).toBeVisible();
  // The suggestions fit a phone: no sideways scrolling, every Add button on screen.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  for (const add of await notice.getByRole("button", { name: /^Add / }).all()) {
    const box = await add.boundingBox();
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(390);
  }
  await shoot(page, "checkout-below-minimum");

  await page.getByText("In-person delivery").first().click();
  const slot = await page.locator('input[name="timeSlot"]:checked').inputValue();
  await page.getByLabel("Full name").fill("Resumed Rita");
  await page.getByLabel("Email").fill("rita@kept.test");
  await page.getByLabel("Phone").fill("(202) 555-0123");
  await page.getByLabel("Street address").fill("12 Kept Street NW");
  await page.getByLabel("City").fill("Washington");
  await page.getByLabel("ZIP code").fill("20001");
  await page.getByLabel("I'll pay with (optional)").fill("150");
  const sentAhead = page.waitForResponse(
    (response) => response.url().endsWith("/api/id-photo") && response.status() === 200,
  );
  await page
    .getByLabel(/Upload front of ID/)
    .setInputFiles({ name: "rita-id.png", mimeType: "image/png", buffer: await idPng() });
  await sentAhead;
  // The device keeps the photo's token, never the picture.
  await expect
    .poll(async () => page.evaluate((key) => window.localStorage.getItem(key) ?? "", DRAFT_KEY))
    .toContain('"token"');
  const stored = await page.evaluate((key) => window.localStorage.getItem(key) ?? "", DRAFT_KEY);
  expect(stored).not.toContain("data:image");
  expect(stored.length).toBeLessThan(2000);

  // Back to the shop for more, then a fresh load of the checkout.
  await notice.getByRole("link", { name: "Continue Shopping" }).click();
  await expect(page).toHaveURL(/\/shop$/);
  await addToCart(page, slug, 2);
  await page.goto("/checkout");
  await expect(page.getByRole("region", { name: "Minimum order" })).toHaveCount(0);
  await expect(page.getByLabel("Full name")).toHaveValue("Resumed Rita");
  await expect(page.getByLabel("Email")).toHaveValue("rita@kept.test");
  await expect(page.getByLabel("Phone")).toHaveValue("(202) 555-0123");
  await expect(page.getByLabel("Street address")).toHaveValue("12 Kept Street NW");
  await expect(page.getByLabel("ZIP code")).toHaveValue("20001");
  await expect(page.getByLabel("I'll pay with (optional)")).toHaveValue("150");
  await expect(page.locator('input[name="timeSlot"]:checked')).toHaveValue(slot);
  await expect(page.getByText("ID photo attached: rita-id.png")).toBeVisible();
  await expect(
    page.getByText("Your details are kept on this device until you place your order."),
  ).toBeVisible();
  await page.getByRole("checkbox", { name: /21 years of age or older/ }).check();
  const placeOrder = page.getByRole("button", { name: /Place Order/ });
  await expect(placeOrder).toBeEnabled();
  await shoot(page, "checkout-resumed");

  const posted = page.waitForRequest((request) => new URL(request.url()).pathname === "/checkout.data");
  await placeOrder.click();
  expect(new URLSearchParams((await posted).postData() ?? "").get("idPhotoToken")).toMatch(/^[0-9a-f-]{36}$/);
  await expect(page).toHaveURL(/\/thank-you\?order=/, { timeout: 20_000 });
  // Placed: nothing of the checkout stays on the device.
  expect(await page.evaluate((key) => window.localStorage.getItem(key), DRAFT_KEY)).toBeNull();

  // The thank-you page's toast, at 390 px: over the header, never over the page's buttons; gone
  // when the customer goes on to cancel, so 'Yes, cancel my order' is theirs to tap.
  const placed = page.getByText("Order Placed Successfully!");
  await expect(placed).toBeVisible();
  const toastBox = await placed.boundingBox();
  const cancelBox = await page.getByRole("link", { name: "Cancel order" }).boundingBox();
  expect((toastBox?.y ?? 0) + (toastBox?.height ?? 0)).toBeLessThan(cancelBox?.y ?? 0);
  await page.getByRole("link", { name: "Cancel order" }).click();
  const yes = page.getByRole("button", { name: "Yes, cancel my order" });
  await expect(yes).toBeVisible();
  await expect(placed).toHaveCount(0);
  await yes.scrollIntoViewIfNeeded();
  await yes.click({ trial: true });
  await context.close();
});

test("'Clear my details' empties the kept checkout on the device; a suggestion adds to the cart", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const baseURL = process.env.E2E_BASE_URL as string;
  const name = uniqueName("Clear Me Gummies");
  const [id] = await createProducts(browser, baseURL, [
    { name, category: "Edibles", sizes: [{ size: "10 pack", price: "25.00" }] },
  ]);
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 } });
  await passAgeGate(context);
  const page = await context.newPage();
  await addToCart(page, await productSlugOf(page.request, id as string), 1);
  await page.goto("/checkout");
  await page.getByLabel("Full name").fill("Clear Carl");
  await page.getByLabel("Street address").fill("1 Forget Lane");
  await page.reload();
  await expect(page.getByLabel("Full name")).toHaveValue("Clear Carl");
  await page.getByRole("button", { name: "Clear my details" }).click();
  await expect(page.getByLabel("Full name")).toHaveValue("");
  await expect(page.getByLabel("Street address")).toHaveValue("");
  expect(await page.evaluate((key) => window.localStorage.getItem(key), DRAFT_KEY)).toBeNull();
  await page.reload();
  await expect(page.getByLabel("Full name")).toHaveValue("");

  const notice = page.getByRole("region", { name: "Minimum order" });
  const before = await page.getByTestId("checkout-total").innerText();
  await notice.getByRole("button", { name: /^Add / }).first().click();
  await expect(page.getByTestId("checkout-total")).not.toHaveText(before);
  await context.close();
});
