/**
 * P-28 in the browser: the cart panel and the checkout show the running weight against the
 * limit, warn and stop checkout over it; the product page's stepper stops at the per-size cap; the
 * owner sets the limits at /admin/settings/limits.
 */
import { expect, type Page, test } from "@playwright/test";
import { signIn } from "./admin-support.ts";
import { createProducts, passAgeGate, uniqueName } from "./support/storefront.ts";

let flower: { id: string; name: string };
const SCREENSHOTS = process.env.PURCHASE_LIMIT_SCREENSHOTS;

test.beforeAll(async ({ browser }) => {
  const name = uniqueName("E2E Limit Kush");
  const [id] = await createProducts(browser, process.env.E2E_BASE_URL as string, [
    {
      name,
      category: "Flower",
      thcPercentage: 22,
      sizes: [{ size: "3.5g", price: "40.00", flowerEquivalent: "3.5", inventoryCount: 200 }],
    },
  ]);
  flower = { id: id as string, name };
});

test.beforeEach(async ({ context }) => {
  await passAgeGate(context);
});

async function addFromProductPage(page: Page, quantity: number) {
  await page.goto(`/product/${flower.id}`);
  await page.getByRole("spinbutton", { name: "Quantity" }).fill(String(quantity));
  await page.getByRole("button", { name: "Add to Cart" }).click();
  await expect(page.getByText("Added to cart").first()).toBeVisible();
}

async function openCart(page: Page) {
  await page
    .getByRole("button", { name: /^Open cart/ })
    .first()
    .click();
  return page.getByRole("dialog");
}

test("the product page's stepper stops at the per-size cap", async ({ page }) => {
  await page.goto(`/product/${flower.id}`);
  const quantity = page.getByRole("spinbutton", { name: "Quantity" });
  await quantity.fill("15");
  await expect(quantity).toHaveValue("10");
  await expect(page.getByRole("button", { name: "Increase quantity" })).toBeDisabled();
  await page.getByRole("button", { name: "Decrease quantity" }).click();
  await expect(page.getByRole("button", { name: "Increase quantity" })).toBeEnabled();
});

test("the cart panel and the checkout show the weight against the limit and stop an order over it", async ({
  page,
}) => {
  test.setTimeout(90_000);
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/");
    await page.evaluate(() => window.localStorage.removeItem("capital-grown-cart"));
    await addFromProductPage(page, 9); // 31.5 g: under DC's 56 g, over Virginia's 28 g

    const panel = await openCart(page);
    await expect(panel.getByText("31.5 g of 56 g")).toBeVisible();
    await expect(panel.getByText("31.5 g of 28 g")).toBeVisible();
    // Some state takes it (DC): checkout stays open; the panel stops at the cap per size.
    await expect(panel.getByRole("link", { name: "Checkout" })).toBeVisible();
    const increase = panel.getByRole("button", { name: `Increase quantity of ${flower.name} (3.5g)` });
    await increase.click();
    await expect(increase).toBeDisabled();
    await expect(panel.getByText("35 g of 56 g")).toBeVisible();
    if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/cart-panel-${width}.png` });
    await panel.getByRole("button", { name: `Decrease quantity of ${flower.name} (3.5g)` }).click();
    await panel.getByRole("link", { name: "Checkout" }).click();

    await expect(page.getByRole("heading", { name: "Order Summary" })).toBeVisible();
    const summary = page.getByRole("complementary", { name: "Order Summary" });
    await expect(summary.getByText("31.5 g of 56 g")).toBeVisible();
    await page.getByLabel("State").selectOption("VA");
    await expect(summary.getByText("31.5 g of 28 g")).toBeVisible();
    const message =
      "Your order comes to 31.5 g of flower equivalent; the limit for Virginia is 28 g per order.";
    await expect(summary.getByText(message)).toBeVisible();
    await expect(page.getByRole("button", { name: /Place Order/ })).toBeDisabled();
    if (SCREENSHOTS) {
      await summary.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SCREENSHOTS}/checkout-${width}.png` });
    }
    await page.getByLabel("State").selectOption("DC");
    await expect(summary.getByText(message)).toHaveCount(0);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `checkout at ${width}px`).toBeLessThanOrEqual(0);
  }
});

test("the owner sets the limits, and the checkout measures against them", async ({ page, browser }) => {
  await signIn(page);
  await page.getByRole("link", { name: "Limits" }).first().click();
  await expect(page.getByRole("heading", { name: "Purchase Limits" })).toBeVisible();
  await expect(page.getByText(/Confirm these figures with counsel/)).toBeVisible();
  const virginia = page.getByLabel("Virginia (g)");
  await expect(virginia).toHaveValue("28");
  await expect(page.getByLabel("Washington DC (g)")).toHaveValue("56");
  await expect(page.getByLabel("Most of one size per order")).toHaveValue("10");

  await virginia.fill("");
  await page.getByRole("button", { name: "Save Limits" }).click();
  await expect(page.getByText("The Virginia limit is required")).toBeVisible();
  await virginia.fill("35");
  await page.getByRole("button", { name: "Save Limits" }).click();
  await expect(page.getByText("Purchase limits saved")).toBeVisible();
  await expect(virginia).toHaveValue("35");
  if (SCREENSHOTS) {
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 1000 });
      await page.screenshot({ path: `${SCREENSHOTS}/admin-limits-${width}.png`, fullPage: true });
    }
  }

  try {
    const shopper = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
    await passAgeGate(shopper);
    const shop = await shopper.newPage();
    await addFromProductPage(shop, 9);
    await shop.goto("/checkout");
    await shop.getByLabel("State").selectOption("VA");
    await expect(
      shop.getByRole("complementary", { name: "Order Summary" }).getByText("31.5 g of 35 g"),
    ).toBeVisible();
    await shopper.close();
  } finally {
    await page.getByLabel("Virginia (g)").fill("28");
    await page.getByRole("button", { name: "Save Limits" }).click();
    // The first save's toast may still be on screen: this save's is the newest.
    await expect(page.getByText("Purchase limits saved").last()).toBeVisible();
    await expect(page.getByLabel("Virginia (g)")).toHaveValue("28");
  }
});
