/**
 * Every page of a customer's order tells the same story as the order: what they said they would pay
 * with and the change, nothing due once cancelled, paid once delivered.
 */
import { type BrowserContext, expect, type Page, test } from "@playwright/test";
import { placeOrderByPost, signIn } from "./admin-support.ts";
import { createProducts, passAgeGate, uniqueName } from "./support/storefront.ts";

const SHOTS = process.env.SHOTS_DIR;
const CHANGE = "You'll pay with $150.00: your driver brings $60.00 change (your total is $90.00).";

async function shoot(page: Page, name: string) {
  if (!SHOTS) return;
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
}

async function sizeIdOf(shopper: BrowserContext, productId: string) {
  const page = await shopper.newPage();
  await page.goto(`/product/${productId}`);
  await page.getByRole("button", { name: "Add to Cart" }).click();
  await expect(page.getByText("Added to cart").first()).toBeVisible();
  const cart = await page.evaluate(() => window.localStorage.getItem("capital-grown-cart"));
  await page.close();
  return (JSON.parse(cart ?? "[]") as { sizeId: string }[])[0]?.sizeId as string;
}

test("the order pages say what is due in the order's status, with the change for 'I'll pay with'", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(150_000);
  const [productId] = await createProducts(browser, baseURL as string, [
    {
      name: uniqueName("One Story Mints"),
      category: "Edibles",
      sizes: [{ size: "10 pack", price: "45.00" }],
    },
  ]);
  const shopper = await browser.newContext({ baseURL });
  await passAgeGate(shopper);
  const sizeId = await sizeIdOf(shopper, productId as string);
  const names = [uniqueName("Pending Pat"), uniqueName("Cancelling Cat"), uniqueName("Delivered Dee")];
  const pages: string[] = [];
  for (const name of names) {
    pages.push(
      await placeOrderByPost(shopper.request, {
        name,
        productId: productId as string,
        sizeId,
        quantity: 2,
        payWith: "150",
      }),
    );
  }
  const [pendingPage, cancelPage, deliverPage] = pages as [string, string, string];
  const confirmationOf = (page: string) => page.replace("/thank-you?", "/order-confirmation?");
  const page = await shopper.newPage();

  // Pending: what they pay with and the change, never 'the exact amount'.
  await page.goto(pendingPage);
  await expect(page.getByText("Payment due at delivery")).toBeVisible();
  await expect(page.getByText(CHANGE)).toHaveCount(2);
  await expect(page.getByText(/exact amount/)).toHaveCount(0);
  await page.goto(confirmationOf(pendingPage));
  await expect(page.getByRole("heading", { name: "Order Confirmed!" })).toBeVisible();
  await expect(page.getByText(CHANGE)).toBeVisible();
  await shoot(page, "confirmation-pending");

  // Cancelled by the customer: nothing is due, on both pages.
  await page.goto(`${cancelPage}&cancel=ask`);
  await page.getByRole("button", { name: "Yes, cancel my order" }).click();
  await expect(page.getByRole("heading", { name: "Your order is cancelled" })).toBeVisible();
  await expect(page.getByText("Nothing is due", { exact: true })).toBeVisible();
  await expect(page.getByText("Payment due at delivery")).toHaveCount(0);
  await expect(page.getByText(CHANGE)).toHaveCount(0);
  await page.goto(confirmationOf(cancelPage));
  await expect(page.getByRole("heading", { name: "Order Cancelled" })).toBeVisible();
  await expect(page.getByText("This order is cancelled: you pay nothing.")).toBeVisible();
  await expect(page.getByText("Payment due at delivery")).toHaveCount(0);
  await shoot(page, "confirmation-cancelled");

  // Delivered by staff: paid.
  const admin = await browser.newContext({ baseURL });
  const adminPage = await admin.newPage();
  await signIn(adminPage);
  // Newest first: on a server shared with other stories the grouped list may hold over 100 orders.
  await adminPage.goto("/admin/orders?view=newest");
  const card = adminPage.getByRole("listitem").filter({ hasText: names[2] as string });
  await card.getByRole("button", { name: "Confirm" }).click();
  await expect(card.getByText("Confirmed", { exact: true })).toBeVisible();
  await page.goto(deliverPage);
  await expect(page.getByRole("heading", { name: "Your order is confirmed" })).toBeVisible();
  await expect(page.getByText(CHANGE)).toBeVisible();
  await card.getByRole("button", { name: "Mark Delivered" }).click();
  await adminPage.getByRole("dialog").getByRole("button", { name: "Mark Delivered" }).click();
  await expect(adminPage.getByRole("listitem").filter({ hasText: names[2] as string })).toHaveCount(0);
  await page.goto(confirmationOf(deliverPage));
  await expect(page.getByRole("heading", { name: "Order Delivered" })).toBeVisible();
  await expect(page.getByText("Paid at delivery: $90.00")).toBeVisible();
  await expect(page.getByText("Payment due at delivery")).toHaveCount(0);
  await shoot(page, "confirmation-delivered");
  await page.goto(deliverPage);
  await expect(page.getByText("Paid at delivery: $90.00")).toBeVisible();
  await expect(page.getByText(CHANGE)).toHaveCount(0);
  await admin.close();
  await shopper.close();
});
