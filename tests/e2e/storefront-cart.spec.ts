import { expect, type Page, test } from "@playwright/test";
import { CART_STORAGE_KEY, createProducts, passAgeGate, uniqueName } from "./support/storefront.ts";

let cheap: { id: string; name: string };
let boundary: { id: string; name: string };
let soldOut: { id: string; name: string };

test.beforeAll(async ({ browser }) => {
  const baseURL = process.env.E2E_BASE_URL as string;
  const names = [
    uniqueName("E2E Cart Gummies"),
    uniqueName("E2E Boundary Bar"),
    uniqueName("E2E Rare Resin"),
  ];
  const ids = await createProducts(browser, baseURL, [
    { name: names[0] as string, category: "Edibles", sizes: [{ size: "10 pack", price: "25.00" }] },
    {
      name: names[1] as string,
      category: "Edibles",
      sizes: [
        { size: "Almost", price: "79.99" },
        { size: "Exactly", price: "90.00", salePrice: "80.00" },
      ],
    },
    {
      name: names[2] as string,
      category: "Concentrates",
      sizes: [
        { size: "1g", price: "40.00", inventoryCount: 0 },
        { size: "2g", price: "70.00", inventoryCount: 0 },
      ],
    },
  ]);
  cheap = { id: ids[0] as string, name: names[0] as string };
  boundary = { id: ids[1] as string, name: names[1] as string };
  soldOut = { id: ids[2] as string, name: names[2] as string };
});

test.beforeEach(async ({ context }) => {
  await passAgeGate(context);
});

async function openCart(page: Page) {
  await page
    .getByRole("button", { name: /^Open cart/ })
    .first()
    .click();
  return page.getByRole("dialog");
}

test("the product page adds the chosen quantity and the panel shows lines, count and total", async ({
  page,
}) => {
  await page.goto(`/product/${cheap.id}`);
  await expect(page.getByRole("heading", { level: 1, name: cheap.name })).toBeVisible();
  const quantity = page.getByRole("spinbutton", { name: "Quantity" });
  await expect(quantity).toHaveValue("1");
  await page.getByRole("button", { name: "Decrease quantity" }).click({ force: true });
  await expect(quantity).toHaveValue("1");
  await page.getByRole("button", { name: "Increase quantity" }).click();
  await page.getByRole("button", { name: "Increase quantity" }).click();
  await expect(quantity).toHaveValue("3");
  await page.getByRole("button", { name: "Add to Cart" }).click();
  await expect(page.getByText(`3x ${cheap.name} added to your cart`)).toBeVisible();

  const panel = await openCart(page);
  await expect(panel.getByRole("heading", { name: "Your Cart (3 items)" })).toBeVisible();
  await expect(panel.getByText(cheap.name)).toBeVisible();
  await expect(panel.getByTestId("cart-total")).toHaveText("$75.00");
  await panel.getByRole("button", { name: `Decrease quantity of ${cheap.name} (10 pack)` }).click();
  await expect(panel.getByRole("heading", { name: "Your Cart (2 items)" })).toBeVisible();
  await expect(panel.getByTestId("cart-total")).toHaveText("$50.00");
  await panel.getByRole("button", { name: `Remove ${cheap.name} (10 pack) from cart` }).click();
  await expect(panel.getByText("Your cart is empty")).toBeVisible();
});

test("the cart panel asks for the minimum at $79.99 and offers Checkout at exactly $80.00", async ({
  page,
}) => {
  await page.goto(`/product/${boundary.id}`);
  await page.getByLabel("Size").selectOption({ label: "Almost - $79.99" });
  await page.getByRole("button", { name: "Add to Cart" }).click();
  let panel = await openCart(page);
  await expect(panel.getByTestId("cart-total")).toHaveText("$79.99");
  await expect(panel.getByText("Minimum order required: $80.00")).toBeVisible();
  await expect(panel.getByText("Add $0.01 more to reach minimum order")).toBeVisible();
  await expect(panel.getByRole("button", { name: "Minimum $80.00 Required" })).toBeDisabled();
  await expect(panel.getByRole("link", { name: "Checkout" })).toHaveCount(0);
  await panel.getByRole("button", { name: `Remove ${boundary.name} (Almost) from cart` }).click();
  await page.keyboard.press("Escape");

  // The sale price ($80.00, below the $90.00 price) is what counts.
  await page.getByLabel("Size").selectOption({ label: "Exactly - $80.00" });
  await page.getByRole("button", { name: "Add to Cart" }).click();
  panel = await openCart(page);
  await expect(panel.getByTestId("cart-total")).toHaveText("$80.00");
  await expect(panel.getByText("Minimum order required: $80.00")).toHaveCount(0);
  await expect(panel.getByRole("button", { name: "Minimum $80.00 Required" })).toHaveCount(0);
  await panel.getByRole("link", { name: "Checkout" }).click();
  await expect(page).toHaveURL(/\/checkout$/);
});

test("the cart survives a reload and is stored under capital-grown-cart", async ({ page }) => {
  await page.goto(`/product/${cheap.id}`);
  await page.getByRole("button", { name: "Add to Cart" }).click();
  await expect(page.getByTestId("cart-count").first()).toHaveText("1");
  const stored = await page.evaluate((key) => window.localStorage.getItem(key), CART_STORAGE_KEY);
  expect(JSON.parse(stored ?? "[]")).toMatchObject([{ productId: cheap.id, quantity: 1, priceCents: 2500 }]);

  await page.reload();
  await expect(page.getByTestId("cart-count").first()).toHaveText("1");
  const panel = await openCart(page);
  await expect(panel.getByText(cheap.name)).toBeVisible();
  await expect(panel.getByTestId("cart-total")).toHaveText("$25.00");
});

test("a corrupt stored cart is ignored with a logged error", async ({ page, context }) => {
  await context.addInitScript((key) => {
    if (!sessionStorage.getItem("seeded")) {
      sessionStorage.setItem("seeded", "1");
      window.localStorage.setItem(key, "{this is not a cart");
    }
  }, CART_STORAGE_KEY);
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  await page.goto("/shop");
  const panel = await openCart(page);
  await expect(panel.getByText("Your cart is empty")).toBeVisible();
  expect(errors.some((text) => text.includes("Ignoring a stored cart that cannot be parsed"))).toBe(true);
});

test("a stale stored cart is reconciled with the catalogue: prices refreshed, gone items dropped", async ({
  page,
}) => {
  await page.goto(`/product/${cheap.id}`);
  await page.getByRole("button", { name: "Add to Cart" }).click();
  await expect(page.getByTestId("cart-count").first()).toHaveText("1");
  // Make the stored cart stale: an old name and price, and a product that no longer exists.
  await page.evaluate((key) => {
    const [line] = JSON.parse(window.localStorage.getItem(key) ?? "[]");
    const stale = [
      { ...line, productName: "Old name", priceCents: 1, quantity: 2 },
      {
        ...line,
        productId: "00000000-0000-4000-8000-000000000000",
        productName: "Discontinued Gummies",
        sizeId: "00000000-0000-4000-8000-000000000001",
        sizeLabel: "5 pack",
        priceCents: 1000,
        quantity: 1,
      },
    ];
    window.localStorage.setItem(key, JSON.stringify(stale));
  }, CART_STORAGE_KEY);
  await page.goto("/");
  await expect(page.getByText("Discontinued Gummies (5 pack) is no longer available.")).toBeVisible();
  const panel = await openCart(page);
  await expect(panel.getByRole("heading", { name: "Your Cart (2 items)" })).toBeVisible();
  await expect(panel.getByText(cheap.name)).toBeVisible();
  await expect(panel.getByText("Old name")).toHaveCount(0);
  await expect(panel.getByText("Discontinued Gummies")).toHaveCount(0);
  await expect(panel.getByTestId("cart-total")).toHaveText("$50.00");
});

test("sold-out sizes show 'Sold out' and cannot be added", async ({ page }) => {
  await page.goto(`/product/${soldOut.id}`);
  await expect(page.getByRole("button", { name: "Sold out" })).toBeDisabled();
  await expect(page.getByLabel("Size").locator("option", { hasText: "1g - Sold out" })).toBeDisabled();

  await page.goto(`/concentrates?q=${encodeURIComponent(soldOut.name)}`);
  const card = page.getByRole("article").filter({ hasText: soldOut.name });
  await expect(card.getByText("Sold out", { exact: true })).toBeVisible();
  await expect(card.getByRole("button", { name: `${soldOut.name} is sold out` })).toBeDisabled();
});

test("the product card adds the selected size with the first shop's toast", async ({ page }) => {
  await page.goto(`/shop?q=${encodeURIComponent(boundary.name)}`);
  const card = page.getByRole("main").getByRole("article").filter({ hasText: boundary.name }).first();
  await card.getByLabel(`Select size for ${boundary.name}`).selectOption({ label: "Exactly" });
  await card.getByRole("button", { name: `Add ${boundary.name} to cart` }).click();
  await expect(page.getByText(`${boundary.name} (Exactly) has been added to your cart.`)).toBeVisible();
  await expect(page.getByTestId("cart-count").first()).toHaveText("1");
});

test("a missing product shows 'Product not found' and then goes to the shop", async ({ page }) => {
  const response = await page.goto("/product/00000000-0000-4000-8000-00000000dead");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Product not found" })).toBeVisible();
  await expect(page).toHaveURL(/\/shop$/, { timeout: 10_000 });
});
