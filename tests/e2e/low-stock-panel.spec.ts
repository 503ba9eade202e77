/** Staff story: the dashboard's 'Low stock' panel. */
import { expect, test } from "@playwright/test";
import { signIn } from "./admin-support.ts";
import { createProducts, uniqueName } from "./support/storefront.ts";

test("the dashboard lists low sizes, sold-out first, each linking to its product's edit page", async ({
  page,
  browser,
}, testInfo) => {
  const soldOut = uniqueName("Aaa Low Sold");
  const low = uniqueName("Aaa Low Two");
  const [soldOutId] = await createProducts(browser, process.env.E2E_BASE_URL as string, [
    { name: soldOut, sizes: [{ size: "10 pack", price: "20.00", inventoryCount: 0 }] },
    {
      name: low,
      sizes: [
        { size: "2 pack", price: "8.00", inventoryCount: 2 },
        { size: "20 pack", price: "30.00", inventoryCount: 40 },
      ],
    },
  ]);
  await signIn(page);
  const panel = page.getByRole("region", { name: "Low stock" });
  await expect(panel).toBeVisible();
  const soldOutRow = panel.getByRole("link", { name: new RegExp(`^${soldOut}`) });
  const lowRow = panel.getByRole("link", { name: new RegExp(`^${low}`) });
  await expect(soldOutRow).toContainText("Sold out");
  await expect(lowRow).toContainText("2 pack");
  await expect(lowRow).toContainText("2 left");
  await expect(panel.getByRole("link", { name: new RegExp(`^${low}.*20 pack`) })).toHaveCount(0);
  // Sold-out sizes come before the ones with a few left.
  const names = await panel.getByRole("link").allInnerTexts();
  const at = (name: string) => names.findIndex((text) => text.startsWith(name));
  expect(at(soldOut)).toBeGreaterThanOrEqual(0);
  expect(at(soldOut)).toBeLessThan(at(low));

  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await panel.scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath(`low-stock-${width}.png`), fullPage: true });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `no sideways scrolling at ${width} px`).toBeLessThanOrEqual(0);
  }

  await soldOutRow.click();
  await expect(page).toHaveURL(new RegExp(`/admin/products/edit/${soldOutId}$`));
  await expect(page.getByLabel("Product Name")).toHaveValue(soldOut);
  await expect(page.getByLabel("Low stock at")).toHaveValue("5");
});
