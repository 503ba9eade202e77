/**
 * Product pages at /product/{slug} (record 028). Old UUID links and a renamed
 * product's earlier slugs answer 301 to the current address; the slug page is cached like any
 * catalogue page; a cart stored before slugs keeps working and links to the page.
 */
import { expect, type Page, test } from "@playwright/test";
import { signIn } from "./admin-support.ts";
import { CART_STORAGE_KEY, createProducts, passAgeGate, uniqueName } from "./support/storefront.ts";

const name = uniqueName("E2E Slug Haze");
const slug = name.toLowerCase().replaceAll(" ", "-");
let productId: string;

test.beforeAll(async ({ browser }) => {
  [productId] = (await createProducts(browser, process.env.E2E_BASE_URL as string, [
    { name, category: "Flower", thcPercentage: 19, sizes: [{ size: "3.5g", price: "40.00" }] },
  ])) as [string];
});

async function rename(page: Page, id: string, newName: string) {
  await signIn(page);
  await page.goto(`/admin/products/edit/${id}`);
  await page.getByLabel("Product Name").fill(newName);
  await page.getByRole("button", { name: "Update Product" }).click();
  await expect(page.getByText("Product updated successfully")).toBeVisible();
}

test("the UUID URL answers 301 to the slug URL, which is the page, its canonical and its JSON-LD URL", async ({
  request,
}) => {
  const moved = await request.get(`/product/${productId}?ref=mail`, { maxRedirects: 0 });
  expect(moved.status()).toBe(301);
  // A product page reads no query parameter: the cached page, and its redirect, are the same for
  // every tracking or made-up one (record 004), so the 301 leads to the bare slug URL.
  expect(moved.headers().location).toBe(`/product/${slug}`);

  const page = await request.get(`/product/${slug}`);
  expect(page.status()).toBe(200);
  const html = await page.text();
  expect(html).toContain(name);
  expect(html).toMatch(new RegExp(`<link rel="canonical" href="https?://[^"]+/product/${slug}"`));
  expect(html).toMatch(new RegExp(`"url":"https?://[^"]+/product/${slug}"`));
  // Cached as the id pages were (record 004): the second request is a hit.
  await request.get(`/product/${slug}`);
  expect((await request.get(`/product/${slug}`)).headers()["x-cache"]).toBe("HIT");

  expect((await request.get("/product/no-such-product-anywhere")).status()).toBe(404);
});

test("a renamed product's old slug and its UUID answer 301 to the new slug", async ({ browser, request }) => {
  const original = uniqueName("E2E Rename Widow");
  const [id] = (await createProducts(browser, process.env.E2E_BASE_URL as string, [
    { name: original, category: "Flower", sizes: [{ size: "1g", price: "15.00" }] },
  ])) as [string];
  const oldSlug = original.toLowerCase().replaceAll(" ", "-");
  expect((await request.get(`/product/${oldSlug}`)).status()).toBe(200);

  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  try {
    await rename(await context.newPage(), id, `${original} Reserve`);
  } finally {
    await context.close();
  }
  const newSlug = `${oldSlug}-reserve`;
  for (const path of [`/product/${oldSlug}`, `/product/${id}`]) {
    const moved = await request.get(path, { maxRedirects: 0 });
    expect(moved.status(), path).toBe(301);
    expect(moved.headers().location, path).toBe(`/product/${newSlug}`);
  }
  const landed = await request.get(`/product/${oldSlug}`);
  expect(landed.url()).toMatch(new RegExp(`/product/${newSlug}$`));
  expect(await landed.text()).toContain(`${original} Reserve`);
});

test("cards link to the slug; a cart stored before slugs (keyed by size id) still works and links to the page", async ({
  page,
  context,
}) => {
  await passAgeGate(context);
  await page.goto(`/shop?q=${encodeURIComponent(name)}`);
  await page.getByRole("link", { name }).first().click();
  await expect(page).toHaveURL(new RegExp(`/product/${slug}$`));
  await page.getByRole("button", { name: "Add to Cart" }).click();
  await expect(page.getByText(`1x ${name} added to your cart`)).toBeVisible();

  // The cart as an older version stored it: no slug on the line.
  const stored = await page.evaluate((key) => window.localStorage.getItem(key), CART_STORAGE_KEY);
  const lines = JSON.parse(stored ?? "[]") as Array<Record<string, unknown>>;
  expect(lines[0]?.productSlug).toBe(slug);
  const old = lines.map(({ productSlug: _slug, ...line }) => line);
  await page.evaluate(([key, value]) => window.localStorage.setItem(key, value), [
    CART_STORAGE_KEY,
    JSON.stringify(old),
  ] as const);

  await page.goto("/shop");
  await page
    .getByRole("button", { name: /^Open cart/ })
    .first()
    .click();
  const panel = page.getByRole("dialog");
  await expect(panel.getByRole("heading", { name: "Your Cart (1 item)" })).toBeVisible();
  await panel.getByRole("link", { name }).click();
  await expect(page).toHaveURL(new RegExp(`/product/${slug}$`));
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
});
