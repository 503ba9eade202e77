/**
 * `cn()` joins class names without tailwind-merge (it would add ≈ 9 KB to every page's first-load
 * JavaScript), so a component and its caller must never both set the same property, or which one
 * wins depends on the order of rules in the style sheet. This walks every kind of page, signed out
 * and signed in, with the dialogs open, and asks tailwind-merge (here, in the test only) whether
 * any rendered class list holds two utilities for the same thing.
 */
import { expect, type Page, test } from "@playwright/test";
import { twMerge } from "tailwind-merge";
import { signIn } from "./admin-support.ts";
import { passAgeGate } from "./support/storefront.ts";

async function classLists(page: Page) {
  return page.evaluate(() => {
    const lists = new Set<string>();
    for (const element of document.querySelectorAll("[class]")) {
      const value = element.getAttribute("class");
      if (value) lists.add(value);
    }
    return [...lists];
  });
}

function conflicts(lists: string[]) {
  const found: string[] = [];
  for (const list of lists) {
    const classes = list.split(/\s+/).filter(Boolean);
    const kept = new Set(twMerge(classes.join(" ")).split(" "));
    const dropped = classes.filter((name) => !kept.has(name));
    if (dropped.length > 0) found.push(`${dropped.join(", ")} overridden in "${list}"`);
  }
  return found;
}

async function expectNoConflicts(page: Page, label: string) {
  expect.soft(conflicts(await classLists(page)), label).toEqual([]);
}

test("storefront pages, the cart panel and the age gate have no conflicting utilities", async ({
  page,
  context,
}) => {
  await page.goto("/");
  await expect(page.getByRole("dialog")).toBeVisible();
  await expectNoConflicts(page, "age gate");

  await passAgeGate(context);
  await page.goto("/shop");
  const productHref = await page.locator('a[href^="/product/"]').first().getAttribute("href");
  for (const path of [
    "/",
    "/shop",
    "/flower",
    "/relaxed",
    productHref ?? "/shop",
    "/washington-dc-weed-delivery",
    "/privacy",
    "/no-such-page",
    "/checkout",
    "/thank-you",
  ]) {
    await page.goto(path);
    await expectNoConflicts(page, path);
  }

  await page.goto("/shop");
  await page
    .getByRole("button", { name: /^Add .* to cart$/ })
    .first()
    .click();
  await page
    .getByRole("button", { name: /^Open cart/ })
    .first()
    .click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await expectNoConflicts(page, "cart panel");
  await page.goto("/checkout");
  await expect(page.getByRole("button", { name: /Place Order/ })).toBeVisible();
  await expectNoConflicts(page, "checkout with a cart");
});

test("admin pages have no conflicting utilities", async ({ page }) => {
  await page.goto("/admin/login");
  await expectNoConflicts(page, "/admin/login");
  await signIn(page);
  for (const path of [
    "/admin/dashboard",
    "/admin/products",
    "/admin/products/new",
    "/admin/orders",
    "/admin/outbox",
    "/admin/customers",
  ]) {
    await page.goto(path);
    await expectNoConflicts(page, path);
  }
  await page.goto("/admin/products");
  await page.getByRole("link", { name: /^Edit/ }).first().click();
  await expect(page).toHaveURL(/\/admin\/products\/edit\//);
  await expectNoConflicts(page, "product edit");
});
