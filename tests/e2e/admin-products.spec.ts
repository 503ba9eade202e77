/** Staff story: a product is created with two sizes and an uploaded photo, edited and deleted. */
import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { pngBytes, signIn } from "./admin-support.ts";
import { uniqueName } from "./support/storefront.ts";

test("create a product with two sizes and an uploaded image, see it in the shop, edit it, delete it", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const name = uniqueName("E2E Admin Kush");
  await signIn(page, { fresh: true });
  await expect(page.getByText("Login Successful")).toBeVisible();
  await page.getByRole("link", { name: "Add Product" }).first().click();
  await expect(page.getByRole("heading", { name: "Add New Product" })).toBeVisible();

  // The shared schema's messages appear before anything is sent.
  await page.getByRole("button", { name: "Create Product" }).click();
  await expect(page.getByText("Product name is required")).toBeVisible();
  await expect(page.getByText("Description is required")).toBeVisible();
  await expect(page.getByText("Size is required")).toBeVisible();
  await expect(page.getByText("Image is required")).toBeVisible();
  await expect(page.getByText("Flower equivalent is required")).toBeVisible();

  await page.getByLabel("Product Name").fill(name);
  await page.getByLabel("Category").selectOption("Flower");
  await page.getByLabel("Strain (optional)").selectOption("Indica");
  await page.getByLabel("THC Percentage (optional)").fill("24.5");
  await page.getByLabel("Description").fill("Dense, calming buds made by the admin story.");
  await page.getByLabel("Size", { exact: true }).fill("3.5g");
  await page.getByLabel("Price ($)", { exact: true }).fill("-1");
  await page.getByRole("button", { name: "Create Product" }).click();
  await expect(page.getByText("Price must be positive")).toBeVisible();
  await page.getByLabel("Price ($)", { exact: true }).fill("45");
  await page.getByLabel("Inventory").fill("12");
  await page.getByLabel("Flower eq. (g)").fill("3.5");
  await page.getByRole("button", { name: "Add Size" }).click();
  await page.getByLabel("Size", { exact: true }).nth(1).fill("7g");
  await page.getByLabel("Price ($)", { exact: true }).nth(1).fill("80");
  await page.getByLabel("Sale Price ($)").nth(1).fill("72.50");
  await page.getByLabel("Inventory").nth(1).fill("3");
  await page.getByLabel("Flower eq. (g)").nth(1).fill("7");

  // A file that is not an image is refused in the browser with the first shop's words.
  await page.getByLabel("Upload product image").setInputFiles({
    name: "notes.txt",
    mimeType: "text/plain",
    buffer: Buffer.from("not an image"),
  });
  await expect(page.getByText("Invalid file type")).toBeVisible();
  await page.getByLabel("Upload product image").setInputFiles({
    name: "bud.png",
    mimeType: "image/png",
    buffer: await pngBytes(900, 700),
  });
  await expect(page.getByText("Image uploaded successfully")).toBeVisible({ timeout: 20_000 });
  const preview = page.getByRole("img", { name: "Product preview" });
  await expect(preview).toHaveAttribute("src", /^\/media\/.+\.webp$/);
  await page.getByRole("switch", { name: "Featured Product" }).click();

  const axe = await new AxeBuilder({ page }).include("main").analyze();
  expect(axe.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);

  await page.getByRole("button", { name: "Create Product" }).click();
  await expect(page).toHaveURL(/\/admin\/products$/);
  await expect(page.getByText("Product created successfully")).toBeVisible();
  await page.getByPlaceholder("Search products...").fill(name.toUpperCase());
  const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name }) });
  await expect(card).toHaveCount(1);
  await expect(card.getByText("Multiple sizes available")).toBeVisible();
  await expect(card.getByText("Featured")).toBeVisible();
  await expect(card.getByText("Low: 3")).toBeVisible();

  // The storefront shows it at once, with the uploaded WebP image.
  const shop = await page.context().newPage();
  await shop.addInitScript(() => window.localStorage.setItem("capital-grown-age-verified", "yes"));
  await shop.goto(`/shop?q=${encodeURIComponent(name)}`);
  await expect(shop.getByText(name).first()).toBeVisible();
  await expect(shop.locator(`img[src*="/media/"]`).first()).toBeVisible();

  // Edit: a new name and price, one size removed.
  await card.getByRole("link", { name: `Edit ${name}` }).click();
  await expect(page.getByRole("heading", { name: "Edit Product" })).toBeVisible();
  await expect(page.getByLabel("Product Name")).toHaveValue(name);
  await expect(page.getByLabel("Flower eq. (g)").first()).toHaveValue("3.5");
  const renamed = `${name} Reserve`;
  await page.getByLabel("Product Name").fill(renamed);
  await page.getByLabel("Price ($)", { exact: true }).first().fill("47.00");
  await page.getByRole("button", { name: "Remove size 7g" }).click();
  await page.getByRole("button", { name: "Update Product" }).click();
  await expect(page).toHaveURL(/\/admin\/products$/);
  await expect(page.getByText("Product updated successfully")).toBeVisible();
  await shop.goto(`/shop?q=${encodeURIComponent(renamed)}`);
  await expect(shop.getByText(renamed).first()).toBeVisible();
  await expect(shop.getByText("$47.00").first()).toBeVisible();

  // Delete asks first (P-15), then the product is gone from the list and the shop.
  await page.getByPlaceholder("Search products...").fill(renamed);
  await page.getByRole("button", { name: `Delete ${renamed}` }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByText("Are you sure you want to delete this product?")).toBeVisible();
  await dialog.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByText("Product deleted successfully")).toBeVisible();
  await expect(page.getByText("No products found.")).toBeVisible();
  await shop.goto(`/shop?q=${encodeURIComponent(renamed)}`);
  await expect(shop.getByRole("link", { name: renamed })).toHaveCount(0);
});

test("the admin screens fit a phone and a desktop without sideways scrolling", async ({ page }) => {
  await signIn(page);
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    for (const url of [
      "/admin/dashboard",
      "/admin/products",
      "/admin/products/new",
      "/admin/orders",
      "/admin/outbox",
      "/admin/customers",
      "/admin/settings/limits",
    ]) {
      await page.goto(url);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${url} at ${width}px`).toBeLessThanOrEqual(0);
    }
  }
});
