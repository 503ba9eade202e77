import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { createProducts, passAgeGate, productSlugOf, uniqueName } from "./support/storefront.ts";

let productId: string;
let productSlug: string;
const productName = uniqueName("E2E Page Pre Roll");

test.beforeAll(async ({ browser }) => {
  [productId] = (await createProducts(browser, process.env.E2E_BASE_URL as string, [
    {
      name: productName,
      category: "Pre Rolls",
      strain: "Indica",
      thcMg: 350,
      isFeatured: true,
      sizes: [
        { size: "1 joint", price: "12.00" },
        { size: "5 pack", price: "50.00", salePrice: "45.00" },
      ],
    },
  ])) as [string];
});

const PAGES = [
  { path: "/", text: "Capital Grown. Capital Delivered.", title: /Capital Grown/ },
  { path: "/shop", text: "Filter by Effect", title: /^Shop All Products \| / },
  { path: "/flower", text: "products available", title: /^Flower Delivery \| / },
  { path: "/deals", text: "products available", title: /^Cannabis Deals \| / },
  { path: "/relaxed", text: "Calming Indica and Hybrid strains for relaxation", title: /^Relaxed/ },
  { path: "/washington-dc-weed-delivery", text: "Union Market", title: /^Washington DC Weed Delivery/ },
  { path: "/privacy", text: "What we collect", title: /^Privacy Policy/ },
  { path: "/terms", text: "The minimum order is $80.00", title: /^Terms of Service/ },
  { path: "/age-verification", text: "21 years of age or older", title: /^Age Verification/ },
];

test("every public page is rendered on the server with its content, title, description, canonical and OG tags", async ({
  request,
}) => {
  for (const page of [
    ...PAGES,
    { path: `/product/${productId}`, text: productName, title: new RegExp(`^${productName}`) },
  ]) {
    const response = await request.get(page.path);
    expect(response.status(), page.path).toBe(200);
    const html = await response.text();
    expect(html, page.path).toContain(page.text.replace("&", "&amp;"));
    const title = /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? "";
    expect(title, page.path).toMatch(page.title);
    expect(html, page.path).toMatch(/<meta name="description" content="[^"]{40,}"/);
    expect(html, page.path).toMatch(/<link rel="canonical" href="https?:\/\/[^"]+"/);
    expect(html, page.path).toContain('property="og:title"');
    expect(html, page.path).not.toContain("Loading...");
  }
});

test("structured data: Store on home and the landing page, Product with Offers on product pages", async ({
  request,
}) => {
  const ldJson = async (path: string) => {
    const html = await (await request.get(path)).text();
    return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].flatMap(
      (match) => {
        const value = JSON.parse(match[1] as string);
        return Array.isArray(value) ? value : [value];
      },
    );
  };
  expect((await ldJson("/")).map((item) => item["@type"])).toContain("Store");
  expect((await ldJson("/washington-dc-weed-delivery")).map((item) => item["@type"])).toContain("Store");
  const [product] = (await ldJson(`/product/${productId}`)).filter((item) => item["@type"] === "Product");
  expect(product).toMatchObject({ name: productName, category: "Pre Rolls" });
  expect(product.offers).toEqual([
    expect.objectContaining({ "@type": "Offer", price: "12.00", priceCurrency: "USD" }),
    expect.objectContaining({ "@type": "Offer", price: "45.00", availability: "https://schema.org/InStock" }),
  ]);
});

test("sitemap.xml lists every public page and product; robots.txt keeps private pages out", async ({
  request,
}) => {
  const sitemap = await (await request.get("/sitemap.xml")).text();
  for (const path of [
    "/shop",
    "/flower",
    "/mushrooms",
    "/deals",
    "/uplifted",
    "/balanced",
    "/washington-dc-weed-delivery",
    "/privacy",
    "/terms",
    "/age-verification",
    "/calm",
  ]) {
    expect(sitemap).toMatch(new RegExp(`<loc>https?://[^<]+${path}</loc>`));
  }
  productSlug ??= await productSlugOf(request, productId);
  expect(sitemap).toContain(`/product/${productSlug}</loc>`);
  expect(sitemap).not.toContain(`/product/${productId}</loc>`);
  expect(sitemap).not.toContain("/admin");
  expect(sitemap).not.toContain("/checkout");
  const robots = await (await request.get("/robots.txt")).text();
  for (const path of ["/admin", "/checkout", "/thank-you", "/order-confirmation"]) {
    expect(robots).toContain(`Disallow: ${path}`);
  }
  expect(robots).toMatch(/Sitemap: https?:\/\/\S+\/sitemap\.xml/);
});

test("the age gate asks once, refuses politely and remembers a yes", async ({ page }) => {
  await page.goto("/shop");
  const gate = page.getByRole("dialog", { name: "Are you 21 or older?" });
  await expect(gate).toBeVisible();
  await gate.getByRole("button", { name: "No, I am not" }).click();
  await expect(page.getByRole("dialog", { name: "Sorry, we can't serve you" })).toBeVisible();
  await page.getByRole("button", { name: "I answered by mistake" }).click();
  await page.getByRole("button", { name: "Yes, I am 21 or older" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: "Shop" })).toBeVisible();
  await expect(page.getByRole("dialog")).toHaveCount(0);
});

test("the age gate is an accessible dialog that keeps focus", async ({ page }) => {
  await page.goto("/");
  const gate = page.getByRole("dialog", { name: "Are you 21 or older?" });
  await expect(gate).toBeVisible();
  await expect(gate.getByRole("button", { name: "Yes, I am 21 or older" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(gate).toBeVisible();
  for (let index = 0; index < 4; index++) await page.keyboard.press("Tab");
  expect(await gate.evaluate((element) => element.contains(document.activeElement))).toBe(true);
  const results = await new AxeBuilder({ page }).include("dialog").analyze();
  expect(
    results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id),
  ).toEqual([]);
});

test("the legal pages can be read without answering the age question", async ({ page }) => {
  await page.goto("/privacy");
  await expect(page.getByRole("heading", { level: 1, name: "Privacy Policy" })).toBeVisible();
  await page.waitForLoadState("networkidle");
  await expect(page.getByRole("dialog")).toHaveCount(0);
});

test.describe("navigation and footer", () => {
  test.beforeEach(async ({ context }) => passAgeGate(context));

  test("header, footer and mobile bar link to real pages", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/");
    await page.getByRole("link", { name: "SHOP NOW" }).click();
    await expect(page).toHaveURL(/\/shop$/);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Order Now" }).click();
    await expect(page).toHaveURL(/\/shop$/);
    await page.getByRole("button", { name: "Open menu" }).click();
    await expect(page.locator("#mobile-menu").getByRole("link", { name: "Shop" })).toBeVisible();
    await expect(
      page.locator("#mobile-menu").getByRole("link", { name: /\(\d{3}\) \d{3}-\d{4}/ }),
    ).toBeVisible();
    await page.getByRole("navigation", { name: "Quick links" }).getByRole("link", { name: "Home" }).click();
    await expect(page).toHaveURL(/\/$/);
    for (const [name, path] of [
      ["Privacy Policy", "/privacy"],
      ["Terms of Service", "/terms"],
      ["Age Verification", "/age-verification"],
    ] as const) {
      await page.getByRole("contentinfo").getByRole("link", { name }).click();
      await expect(page).toHaveURL(new RegExp(`${path}$`));
    }
    await expect(page.getByRole("contentinfo")).toContainText("You must be 21 or older");
    await expect(page.getByRole("contentinfo")).toContainText("Food and Drug Administration");
    await expect(page.getByRole("contentinfo")).toContainText("Website by");
  });

  test("home shows the first shop's sections and the cart panel opens as a dialog", async ({ page }) => {
    await page.goto("/");
    for (const text of [
      "Same-Day Delivery",
      "Premium Quality",
      "Discreet Service",
      "Shop by Effect",
      "How It Works",
    ]) {
      await expect(page.getByRole("main").getByText(text, { exact: true }).first()).toBeVisible();
    }
    for (const [name, path] of [
      ["Energizing", "/energetic"],
      ["Relaxing", "/relaxed"],
      ["Uplifting", "/uplifted"],
      ["Euphoric", "/balanced"],
    ] as const) {
      await expect(page.getByRole("link", { name: new RegExp(`^${name}`) })).toHaveAttribute("href", path);
    }
    await expect(page.getByRole("region", { name: "Shop by Category" }).getByRole("link")).toHaveCount(7);
    for (const stat of ["500+", "4.9", "30min"])
      await expect(page.getByText(stat, { exact: true })).toBeVisible();
    await expect(page.getByRole("link", { name: "Start Shopping" })).toHaveAttribute("href", "/shop");
    await expect(page.getByRole("link", { name: "All products" })).toHaveAttribute("href", "/shop");
    await page.getByRole("button", { name: "Open cart" }).first().click();
    const panel = page.getByRole("dialog", { name: /Your Cart \(0 items\)/ });
    await expect(panel.getByText("Your cart is empty")).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(panel).toHaveCount(0);
  });
});

test.describe("accessibility (axe)", () => {
  test.beforeEach(async ({ context }) => passAgeGate(context));
  const paths = ["/", "/shop", "/edibles", "/relaxed", "PRODUCT", "/washington-dc-weed-delivery"];
  for (const path of paths) {
    test(`no serious or critical violations on ${path === "PRODUCT" ? "a product page" : path}`, async ({
      page,
    }) => {
      await page.goto(path === "PRODUCT" ? `/product/${productId}` : path);
      await page.waitForLoadState("networkidle");
      const results = await new AxeBuilder({ page })
        .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
        .analyze();
      const blocking = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
      expect(
        blocking.map((v) => `${v.id}: ${v.nodes.map((node) => node.target.join(" ")).join(", ")}`),
      ).toEqual([]);
    });
  }
  test("the cart panel dialog has no serious or critical violations", async ({ page }) => {
    await page.goto(`/product/${productId}`);
    await page.getByRole("button", { name: "Add to Cart" }).click();
    await page
      .getByRole("button", { name: /^Open cart/ })
      .first()
      .click();
    await expect(page.getByRole("dialog")).toBeVisible();
    const results = await new AxeBuilder({ page }).include('[role="dialog"]').analyze();
    const blocking = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
    expect(blocking.map((v) => v.id)).toEqual([]);
  });
});
