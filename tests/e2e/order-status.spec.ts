/**
 * The order status flow (P-23, record 030) as stories: an order goes pending → confirmed → out for delivery →
 * delivered with an e-mail for each and the customer's page showing the timeline; a customer cancels
 * a pending order (no JavaScript) and its stock comes back; staff find an order by phone and export
 * exactly the filtered orders as CSV.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { parse } from "csv-parse/sync";
import { placeOrderByPost, signIn } from "./admin-support.ts";
import { createProducts, passAgeGate, sizeIdFromCart, uniqueName } from "./support/storefront.ts";

const SHOTS = path.resolve(import.meta.dirname, "../../test-results/order-status-screens");

async function placeOrders(
  browser: Browser,
  baseURL: string,
  productName: string,
  stock: number,
  orders: { name: string; phone?: string; email?: string; quantity?: number }[],
) {
  const [productId] = await createProducts(browser, baseURL, [
    {
      name: productName,
      category: "Edibles",
      sizes: [{ size: "10 pack", price: "45.00", inventoryCount: stock }],
    },
  ]);
  const shopper = await browser.newContext({ baseURL });
  const sizeId = await sizeIdFromCart(shopper, productId as string);
  const pages: string[] = [];
  for (const order of orders) {
    pages.push(
      await placeOrderByPost(shopper.request, {
        name: order.name,
        phone: order.phone,
        email: order.email,
        productId: productId as string,
        sizeId,
        quantity: order.quantity ?? 2,
      }),
    );
  }
  await shopper.close();
  return pages;
}

async function shoot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

test("an order moves pending → confirmed → out for delivery → delivered, e-mailing the customer each time", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(150_000);
  const customer = uniqueName("E2E Flow Customer");
  const email = `flow-${Date.now()}@example.com`;
  const [orderPage] = await placeOrders(browser, baseURL as string, uniqueName("E2E Flow Haze"), 20, [
    { name: customer, email },
  ]);

  // The customer's first view keeps the thank-you words, with the timeline and 'Cancel order'.
  const visitor = await browser.newContext({ baseURL });
  await passAgeGate(visitor);
  const mine = await visitor.newPage();
  await mine.goto(orderPage as string);
  await expect(mine.getByRole("heading", { name: `Thank you, ${customer.split(" ")[0]}!` })).toBeVisible();
  await expect(mine.getByRole("link", { name: "Cancel order" })).toBeVisible();
  await shoot(mine, "customer-order-pending");

  const admin = await browser.newContext({ baseURL });
  const page = await admin.newPage();
  await signIn(page);
  await page.goto("/admin/orders");
  const card = page.getByRole("listitem").filter({ hasText: customer });
  const shortId = ((await card.getByRole("heading", { name: /^Order #/ }).textContent()) ?? "")
    .replace(/^Order #/, "")
    .trim();
  await expect(card.getByText("Tomorrow", { exact: true })).toBeVisible();

  await card.getByRole("button", { name: "Confirm" }).click();
  await expect(card.getByText("Confirmed", { exact: true })).toBeVisible();
  await card.getByRole("button", { name: "Out for Delivery" }).click();
  await expect(card.getByText("Out for delivery", { exact: true })).toBeVisible();
  await expect(card.getByRole("button", { name: "Confirm" })).toBeDisabled();
  await shoot(page, "admin-incoming");
  await card.getByRole("button", { name: "Mark Delivered" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Mark Delivered" }).click();
  await expect(page.getByRole("listitem").filter({ hasText: customer })).toHaveCount(0);

  // One e-mail per change in the outbox, to the customer, with its subject.
  await page.goto("/admin/outbox");
  for (const subject of [
    /Your order is confirmed for \w{3}, \w{3} \d+, 12:00 PM-2:00 PM/,
    new RegExp(`Your order is on its way \\(#${shortId}\\)`),
    new RegExp(`Delivered: your receipt for order #${shortId}`),
  ]) {
    const item = page.getByRole("listitem").filter({ hasText: subject }).filter({ hasText: email });
    await expect(item).toHaveCount(1);
    await expect(item.getByText(`To ${email} · `, { exact: false })).toBeVisible();
  }

  // The customer's page shows every step with its time.
  await mine.reload();
  await expect(mine.getByRole("heading", { name: "Your order has been delivered" })).toBeVisible();
  const steps = mine.getByRole("list", { name: "Order status" }).getByRole("listitem");
  await expect(steps).toHaveCount(4);
  for (const [index, label] of ["Order placed", "Confirmed", "Out for delivery", "Delivered"].entries()) {
    await expect(steps.nth(index)).toContainText(label);
    await expect(steps.nth(index).locator("time")).toHaveText(/\w{3}, \w{3} \d+, \d+:\d{2} [AP]M/);
  }
  await expect(mine.getByRole("link", { name: "Cancel order" })).toHaveCount(0);
  await shoot(mine, "customer-order-delivered");

  await page.goto("/admin/completed-orders");
  await shoot(page, "admin-completed");
  await visitor.close();
  await admin.close();
});

test("a customer cancels a pending order on its page without JavaScript, and the stock comes back", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const productName = uniqueName("E2E Self Cancel");
  const customer = uniqueName("E2E Self Canceller");
  const [orderPage] = await placeOrders(browser, baseURL as string, productName, 30, [
    { name: customer, quantity: 3 },
  ]);
  const admin = await browser.newContext({ baseURL });
  const adminPage = await admin.newPage();
  await signIn(adminPage);
  const stock = async () => {
    await adminPage.goto("/admin/products");
    return adminPage.getByRole("list", { name: `Sizes and stock of ${productName}` });
  };
  await expect((await stock()).getByText("27 in stock")).toBeVisible();

  const noScript = await browser.newContext({ baseURL, javaScriptEnabled: false });
  const page = await noScript.newPage();
  await page.goto(orderPage as string);
  await page.getByRole("link", { name: "Cancel order" }).click();
  await expect(page.getByRole("heading", { name: "Cancel this order?" })).toBeVisible();
  await shoot(page, "customer-order-cancel-ask");
  await page.getByRole("button", { name: "Yes, cancel my order" }).click();
  await expect(page.getByRole("heading", { name: "Your order is cancelled" })).toBeVisible();
  await expect(page.getByText("is cancelled because you asked us to cancel it.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Cancel order" })).toHaveCount(0);
  await expect((await stock()).getByText("30 in stock")).toBeVisible();

  // The shop is told, and the order is in the completed list with its reason.
  await adminPage.goto("/admin/outbox");
  await expect(
    adminPage.getByRole("listitem").filter({ hasText: "cancelled by the customer" }).first(),
  ).toBeVisible();
  await adminPage.goto(`/admin/completed-orders?q=${encodeURIComponent(customer)}`);
  await expect(
    adminPage.getByRole("listitem").filter({ hasText: customer }).getByText("(Customer request)"),
  ).toBeVisible();
  await noScript.close();
  await admin.close();
});

test("staff find an order by phone and export exactly the filtered orders as CSV", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const tag = uniqueName("E2E Finder");
  const phone = `(703) 555-${String(Date.now() % 10_000).padStart(4, "0")}`;
  await placeOrders(browser, baseURL as string, uniqueName("E2E Find Kush"), 40, [
    { name: `${tag} One`, phone },
    { name: `${tag} Two` },
    { name: `${tag} Three` },
  ]);
  const admin = await browser.newContext({ baseURL });
  const page = await admin.newPage();
  await signIn(page);
  await page.goto("/admin/orders");
  await page.getByLabel("Search orders").fill(phone.replace(/\D/g, ""));
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/\?q=703555/);
  const cards = page.getByRole("main").getByRole("heading", { name: /^Order #/ });
  await expect(cards).toHaveCount(1);
  await expect(page.getByRole("main").getByText(`${tag} One`)).toBeVisible();

  // A bookmarked search: the tag, pending only.
  await page.goto(`/admin/orders?q=${encodeURIComponent(tag)}&status=pending`);
  await expect(cards).toHaveCount(3);
  await shoot(page, "admin-search");
  const href = (await page.getByRole("link", { name: "Export CSV" }).getAttribute("href")) as string;
  const response = await page.request.get(href);
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toContain("text/csv");
  const rows = parse((await response.text()).replace(/^\uFEFF/, ""), { columns: true }) as Record<
    string,
    string
  >[];
  expect(rows.map((row) => row.Customer).sort()).toEqual([`${tag} One`, `${tag} Three`, `${tag} Two`].sort());
  expect(
    rows.every((row) => row.Status === "pending" && row.Quantity === "2" && row["Line total"] === "90.00"),
  ).toBe(true);
  await admin.close();
});
