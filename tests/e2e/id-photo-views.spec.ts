/**
 * ID photo views written once, not per page load (record 048): the incoming list reloaded again and
 * again records the card's thumbnail once; opening the photo is recorded each time; the order's
 * history reads the run as one line. Delivered, the completed list says by whom and when.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { placeOrderByPost, signIn } from "./admin-support.ts";
import { E2E_ADMIN } from "./support/global-setup.ts";
import { createProducts, sizeIdFromCart, uniqueName } from "./support/storefront.ts";

const SHOTS = process.env.ADMIN_SHOTS_DIR;

async function shots(page: Page, name: string) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test("reloading the orders records the ID photo once; openings fold into one history line; who delivered it", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(150_000);
  const customer = uniqueName("Photo Viewed");
  const [productId] = await createProducts(browser, baseURL as string, [
    {
      name: uniqueName("E2E Photo Haze"),
      category: "Edibles",
      sizes: [{ size: "10 pack", price: "45.00", inventoryCount: 9 }],
    },
  ]);
  const shopper = await browser.newContext({ baseURL });
  const sizeId = await sizeIdFromCart(shopper, productId as string);
  await placeOrderByPost(shopper.request, {
    name: customer,
    productId: productId as string,
    sizeId,
    quantity: 2,
  });
  await shopper.close();

  const admin = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 } });
  const page = await admin.newPage();
  await signIn(page);
  await page.goto("/admin/orders");
  const card = page.getByRole("listitem").filter({ hasText: customer });
  const photo = card.getByRole("img", { name: `ID of ${customer}` });
  // Five loads of the list, each showing the photo.
  for (let load = 0; load < 5; load++) {
    await expect(photo).toBeVisible();
    // The card may sit below the fold among other stories' orders, where its photo loads lazily.
    await photo.scrollIntoViewIfNeeded();
    await expect
      .poll(() => photo.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0))
      .toBe(true);
    await page.reload();
  }
  const history = card.locator("details").filter({ hasText: "History" });
  await history.locator("summary").click();
  const views = history.getByRole("listitem").filter({ hasText: "Viewed the ID photo" });
  await expect(views).toHaveCount(1);
  await expect(views).not.toContainText("times");

  // Opening the photo is a view each time; one person's run reads as one line.
  for (let open = 0; open < 2; open++) {
    const [tab] = await Promise.all([page.waitForEvent("popup"), photo.click()]);
    await tab.waitForLoadState();
    await tab.close();
  }
  await page.reload();
  await history.locator("summary").click();
  await expect(views).toHaveCount(1);
  await expect(views).toContainText(E2E_ADMIN.email);
  await expect(views).toContainText(/3 times, \d{1,2}:\d{2}/);
  await shots(page, "order-history-folded");

  // Delivered: the completed list says by whom and when.
  await card.getByRole("button", { name: "Confirm" }).click();
  await expect(card.getByText("Confirmed", { exact: true })).toBeVisible();
  await card.getByRole("button", { name: "Mark Delivered" }).click();
  await page
    .getByRole("dialog", { name: "Mark this order delivered?" })
    .getByRole("button", { name: "Mark Delivered" })
    .click();
  await expect(card).toHaveCount(0);
  await page.goto(`/admin/completed-orders?q=${encodeURIComponent(customer)}`);
  const done = page.getByRole("listitem").filter({ hasText: customer });
  await expect(done.getByText("Delivered", { exact: true })).toBeVisible();
  await expect(
    done.getByText(
      new RegExp(`^Delivered by ${E2E_ADMIN.email.replace(/[.]/g, "\\.")} \\w{3} \\d{1,2}, \\d{4}`),
    ),
  ).toBeVisible();
  await shots(page, "completed-delivered-by");
  await admin.close();
});
