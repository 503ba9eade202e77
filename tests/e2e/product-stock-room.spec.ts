/**
 * The product list for a stock room (record 048): a Flower product made with only the spec's fields
 * and a `3.5g` size takes its flower equivalent from the size; the form's errors clear as each field
 * is fixed; the table view shows name, SKU, size, stock, threshold, price and status, changes stock
 * in place as a movement with its note (seen in the size's stock history), filters low stock, and
 * archives instead of deleting.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { pngBytes, signIn } from "./admin-support.ts";
import { uniqueName } from "./support/storefront.ts";

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

test("a flower weight from its size, a table of stock changed in place through the ledger, low stock, archive", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  const name = uniqueName("Stock Room Kush");
  const sku = `SR-${Date.now().toString(36).toUpperCase()}`;
  await signIn(page);
  await page.goto("/admin/products/new");
  await expect(page.getByRole("heading", { name: "Add New Product" })).toBeVisible();

  // Errors shown on a refused save go as soon as their field is right.
  await page.getByRole("button", { name: "Create Product" }).click();
  await expect(page.getByText("Product name is required")).toBeVisible();
  await expect(page.getByText("Size is required")).toBeVisible();
  await page.getByLabel("Product Name").fill(name);
  await expect(page.getByText("Product name is required")).toBeHidden();
  await expect(page.getByText("Size is required")).toBeVisible();

  // Only the spec's fields: the flower equivalent is never typed.
  await page.getByLabel("Category").selectOption("Flower");
  await page.getByLabel("Description").fill("Counted in the stock room.");
  await page.getByLabel("Size", { exact: true }).fill("3.5g");
  await expect(page.getByText("Size is required")).toBeHidden();
  await expect(page.getByText("Flower equivalent is required")).toBeHidden();
  await expect(page.getByText("3.5 g from the size")).toBeVisible();
  await expect(page.getByLabel("Flower eq. (g)")).toHaveAttribute("placeholder", "3.5");
  await page.getByLabel("SKU").fill(sku);
  await page.getByLabel("Price ($)", { exact: true }).fill("45");
  await page.getByLabel("Inventory").fill("4");
  await page.getByLabel("Upload product image").setInputFiles({
    name: "bud.png",
    mimeType: "image/png",
    buffer: await pngBytes(800, 600, "#6f8f5a"),
  });
  await expect(page.getByText("Image uploaded successfully")).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText("Image is required")).toBeHidden();
  await shots(page, "product-form-from-size");
  await page.getByRole("button", { name: "Create Product" }).click();
  await expect(page).toHaveURL(/\/admin\/products$/);
  await expect(page.getByText("Product created successfully")).toBeVisible();

  // The table view: one row per size, found by its SKU.
  await page.getByRole("button", { name: "Table" }).click();
  await expect(page).toHaveURL(/view=table/);
  await page.getByPlaceholder("Search products...").fill(sku.toLowerCase());
  const table = page.getByRole("table", { name: "Products and their sizes, with stock" });
  const row = table.getByRole("row").filter({ has: page.getByRole("rowheader", { name: name }) });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(sku);
  await expect(row).toContainText("3.5g");
  await expect(row).toContainText("$45.00");
  await expect(row).toContainText("Low stock");
  await expect(row.getByRole("cell").nth(3)).toHaveText("5");

  // Low stock only keeps it (4 at or below 5).
  await page.getByRole("switch", { name: /Low stock only/ }).click();
  await expect(page).toHaveURL(/stock=low/);
  await expect(row).toHaveCount(1);

  // Stock changed in place: a movement with its note.
  await row.getByRole("button", { name: `Change stock of ${name} (3.5g): 4 on hand` }).click();
  const change = page.getByRole("form", { name: `Change stock of ${name} (3.5g)` });
  await change.getByLabel("Units").fill("6");
  await change.getByRole("button", { name: "Save stock" }).click();
  // A note is asked for every change (the browser's required field, then the server's word).
  await expect(change).toBeVisible();
  await change.getByLabel("Note").fill("Grower delivery, box 12");
  // On a phone the table scrolls sideways inside its own box; the page does not.
  await page.setViewportSize({ width: 390, height: 900 });
  const overflow = await page.evaluate(() => ({
    width: document.documentElement.scrollWidth - window.innerWidth,
    wide: [...document.querySelectorAll("body *")]
      .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 1)
      .slice(0, 5)
      .map((element) => `${element.tagName}.${element.className}`),
  }));
  expect(overflow.width, overflow.wide.join(" | ")).toBeLessThanOrEqual(0);
  await shots(page, "product-table-stock-edit");
  await change.getByRole("button", { name: "Save stock" }).click();
  await expect(page.getByText(`${name} (3.5g): 10 on hand`)).toBeVisible();
  await expect(change).toBeHidden();
  // Now above its threshold: the low-stock filter lets it go.
  await expect(row).toHaveCount(0);
  await page.getByRole("switch", { name: /Low stock only/ }).click();
  await expect(row.getByRole("button", { name: `Change stock of ${name} (3.5g): 10 on hand` })).toBeVisible();
  await expect(row).toContainText("In stock");
  await shots(page, "product-table");

  // The ledger has the movement (the size's stock history on the product form), and the form
  // shows the flower equivalent the size gave, the SKU, and a link to the shop's page.
  await row.getByRole("link", { name: `Edit ${name}` }).click();
  await expect(page.getByRole("heading", { name: "Edit Product" })).toBeVisible();
  await expect(page.getByLabel("Flower eq. (g)")).toHaveValue("3.5");
  await expect(page.getByLabel("SKU")).toHaveValue(sku);
  const history = page.getByRole("region", { name: "Stock history" });
  await expect(history.getByText("Grower delivery, box 12")).toBeVisible();
  await expect(history.getByText("+6")).toBeVisible();
  const shopLink = page.getByRole("link", { name: "View in shop" });
  await expect(shopLink).toHaveAttribute("href", /^\/product\/stock-room-kush/);
  await shots(page, "product-edit");

  // Archive instead of delete: gone from the list, kept under Archived, restored from there.
  await page.goto("/admin/products?view=table");
  await page.getByPlaceholder("Search products...").fill(sku);
  await page.getByRole("button", { name: `Archive ${name}` }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Archive" }).click();
  await expect(page.getByText(`${name} is hidden from the shop.`)).toBeVisible();
  await expect(row).toHaveCount(0);
  await page.getByRole("link", { name: "Archived products" }).click();
  await expect(page.getByRole("heading", { name: "Archived products" })).toBeVisible();
  await page.getByPlaceholder("Search products...").fill(sku);
  await expect(row).toContainText("Archived");
  await page.getByRole("button", { name: `Restore ${name}` }).click();
  await expect(page.getByText(`${name} is back in the shop.`)).toBeVisible();
  await expect(row).toHaveCount(0);

  // Back among the products on sale, in the cards view too, with Archive beside Edit.
  await page.getByRole("link", { name: "Back to products in the shop" }).click();
  await page.getByRole("button", { name: "Cards" }).click();
  await page.getByPlaceholder("Search products...").fill(sku);
  const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name }) });
  await expect(card.getByRole("button", { name: `Archive ${name}` })).toBeVisible();
  await expect(card.getByText("10 in stock")).toBeVisible();
  await shots(page, "product-cards");
});
