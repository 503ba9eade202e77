/**
 * Helpers for the storefront stories: the age gate answered ahead of time, and test products created
 * through the real admin (sign-in, CSRF token, the product action), so each test owns its data.
 */
import { randomUUID } from "node:crypto";
import {
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  expect,
  type Page,
} from "@playwright/test";
import { signIn } from "../admin-support.ts";

export const CART_STORAGE_KEY = "capital-grown-cart";
export const AGE_GATE_STORAGE_KEY = "capital-grown-age-verified";

/** P-19's gate is answered before any page script runs (tests about the gate skip this). */
export async function passAgeGate(context: BrowserContext) {
  await context.addInitScript((key) => {
    try {
      window.localStorage.setItem(key, "yes");
    } catch {}
  }, AGE_GATE_STORAGE_KEY);
}

export type TestSize = {
  size: string;
  price: string;
  salePrice?: string;
  inventoryCount?: number;
  /** Grams of flower equivalent per unit (P-28); default 1. */
  flowerEquivalent?: string;
};
export type TestProduct = {
  name: string;
  category?: string;
  strain?: "Sativa" | "Indica" | "Hybrid" | null;
  description?: string;
  thcPercentage?: number | null;
  thcMg?: number | null;
  isFeatured?: boolean;
  isDeal?: boolean;
  sizes: TestSize[];
};

/** A name no other test (or the demo catalogue) uses. */
export function uniqueName(prefix: string) {
  return `${prefix} ${randomUUID().slice(0, 8)}`;
}

/** Signs in as the e2e admin in a context of its own and creates products; returns their ids. */
export async function createProducts(browser: Browser, baseURL: string, products: TestProduct[]) {
  const context = await browser.newContext({ baseURL });
  try {
    const page = await context.newPage();
    await signIn(page);
    await page.goto("/admin/products/new");
    const csrf = await page.locator('input[name="csrf"]').first().inputValue();
    const ids: string[] = [];
    for (const product of products) {
      const payload = {
        name: product.name,
        description: product.description ?? `${product.name}: a product made by the end-to-end tests.`,
        category: product.category ?? "Edibles",
        strain: product.strain ?? null,
        thcPercentage: product.thcPercentage ?? null,
        thcMg: product.thcMg ?? (product.category === "Flower" ? null : 10),
        imageUrl: `${baseURL}/apple-touch-icon.png`,
        imageKey: null,
        isFeatured: product.isFeatured ?? false,
        isDeal: product.isDeal ?? false,
        sizes: product.sizes.map((size) => ({
          size: size.size,
          price: size.price,
          salePrice: size.salePrice ?? "",
          inventoryCount: size.inventoryCount ?? 50,
          flowerEquivalent: size.flowerEquivalent ?? "1",
        })),
      };
      const response = await page.request.post("/admin/products/new", {
        form: { csrf, payload: JSON.stringify(payload) },
        maxRedirects: 0,
      });
      expect(response.status(), `creating ${product.name}`).toBeLessThan(400);
      ids.push(await findProductId(page, product.name));
    }
    return ids;
  } finally {
    await context.close();
  }
}

/**
 * The id of a product found by exact name: the storefront search must list it (by its slug link,
 * record 028), and the admin list (this page is signed in) gives its id.
 */
async function findProductId(page: Page, name: string) {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const shop = await (await page.request.get(`/shop?q=${encodeURIComponent(name)}`)).text();
  if (!new RegExp(`href="/product/[a-z0-9-]+"[^>]*>${escaped}<`).test(shop)) {
    throw new Error(`Product ${name} not found in the shop after creating it`);
  }
  const admin = await (await page.request.get("/admin/products")).text();
  for (const [tag] of admin.matchAll(/<a\b[^>]*>/g)) {
    if (!tag.includes(`aria-label="Edit ${name}"`)) continue;
    const id = /href="\/admin\/products\/edit\/([0-9a-f-]{36})"/.exec(tag)?.[1];
    if (id) return id;
  }
  throw new Error(`Product ${name} not found in the admin list after creating it`);
}

/** The slug of a product's page (record 028): where its old `/product/{id}` URL redirects. */
export async function productSlugOf(request: APIRequestContext, id: string) {
  const response = await request.get(`/product/${id}`, { maxRedirects: 0 });
  const slug = /^\/product\/([a-z0-9-]+)$/.exec(response.headers().location ?? "")?.[1];
  if (response.status() !== 301 || !slug) throw new Error(`/product/${id} answered ${response.status()}`);
  return slug;
}

/** A shopper's cart tells which size to order: the size id the product page put in the cart. */
export async function sizeIdFromCart(shopper: BrowserContext, productId: string) {
  await passAgeGate(shopper);
  const shopPage = await shopper.newPage();
  await shopPage.goto(`/product/${productId}`);
  // A click before hydration does nothing: click until the cart says it took the item.
  await expect(async () => {
    await shopPage.getByRole("button", { name: "Add to Cart" }).click();
    await expect(shopPage.getByText("Added to cart").first()).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  const cart = await shopPage.evaluate(() => window.localStorage.getItem("capital-grown-cart"));
  const sizeId = (JSON.parse(cart ?? "[]") as { selectedSize?: { id: string }; sizeId?: string }[])
    .map((line) => line.selectedSize?.id ?? line.sizeId)
    .find(Boolean) as string;
  expect(sizeId).toMatch(/^[0-9a-f-]{36}$/);
  return sizeId;
}
