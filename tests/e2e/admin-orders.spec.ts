/** Staff story: a placed order goes through Confirm and Mark Delivered; signing out closes the back office. */
import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { placeOrderByPost, signIn } from "./admin-support.ts";
import { createProducts, sizeIdFromCart, uniqueName } from "./support/storefront.ts";

test("a placed order moves through Confirm and Mark Delivered into completed orders; sign out closes everything", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const productName = uniqueName("E2E Order Haze");
  const customer = uniqueName("E2E Customer");
  const [productId] = await createProducts(browser, baseURL as string, [
    {
      name: productName,
      category: "Edibles",
      sizes: [{ size: "10 pack", price: "45.00", inventoryCount: 9 }],
    },
  ]);

  // A shopper's cart tells which size to order; the order goes through the real checkout.
  const shopper = await browser.newContext({ baseURL });
  const sizeId = await sizeIdFromCart(shopper, productId as string);
  await placeOrderByPost(shopper.request, {
    name: customer,
    productId: productId as string,
    sizeId,
    quantity: 2,
    notes: "Leave with the concierge",
  });
  await shopper.close();

  const admin = await browser.newContext({ baseURL });
  const page = await admin.newPage();
  await signIn(page, { fresh: true });
  await expect(page.getByText("Welcome to the admin dashboard!")).toBeVisible();
  await expect(page.getByText("Total Orders")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Recent Orders" })).toBeVisible();
  await expect(page.getByText(customer)).toBeVisible();

  await page.getByRole("link", { name: "View Orders" }).click();
  await expect(page.getByRole("heading", { name: "Incoming Orders" })).toBeVisible();
  const card = page.getByRole("listitem").filter({ hasText: customer });
  const orderHeading = card.getByRole("heading", { name: /^Order #[0-9a-f]{8}$/ });
  await expect(orderHeading).toBeVisible();
  const shortId = ((await orderHeading.textContent()) ?? "").replace(/^Order #/, "").trim();
  await expect(card.getByText("Pending", { exact: true })).toBeVisible();
  await expect(card.getByText(`${productName}`)).toBeVisible();
  await expect(card.getByText("(10 pack) × 2 @ $45.00")).toBeVisible();
  await expect(card.getByText("$90.00").first()).toBeVisible();
  await expect(card.getByText("Leave with the concierge")).toBeVisible();
  await expect(card.getByText("12 Admin Story St NW, Washington, DC 20001")).toBeVisible();

  // The ID photo: shown to the admin from an admin-only URL, refused without the session.
  const photo = card.getByRole("img", { name: `ID of ${customer}` });
  await expect(photo).toBeVisible();
  const src = (await photo.getAttribute("src")) as string;
  expect((await page.request.get(src)).status()).toBe(200);
  const anonymous = await browser.newContext({ baseURL });
  const refused = await anonymous.request.get(src, { maxRedirects: 0 });
  expect(refused.status()).toBe(401);
  expect(refused.headers()["content-type"] ?? "").not.toContain("image");
  await anonymous.close();

  const axe = await new AxeBuilder({ page }).include("main").analyze();
  expect(axe.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);

  await card.getByRole("button", { name: "Confirm" }).click();
  await expect(page.getByText("Order status updated").first()).toBeVisible();
  await expect(card.getByText("Confirmed", { exact: true })).toBeVisible();
  await expect(card.getByRole("button", { name: "Confirm" })).toBeDisabled();
  await expect(card.getByRole("button", { name: "Mark Delivered" })).toBeEnabled();

  // Mark Delivered asks first (P-23).
  await card.getByRole("button", { name: "Mark Delivered" }).click();
  const dialog = page.getByRole("dialog", { name: "Mark this order delivered?" });
  await dialog.getByRole("button", { name: "Mark Delivered" }).click();
  await expect(page.getByRole("listitem").filter({ hasText: customer })).toHaveCount(0);

  await page.getByRole("link", { name: "View Completed Orders" }).click();
  await expect(page.getByRole("heading", { name: "Completed Orders" })).toBeVisible();
  const done = page.getByRole("listitem").filter({ hasText: customer });
  await expect(done.getByText("Delivered", { exact: true })).toBeVisible();
  await expect(done.getByRole("button", { name: "Confirm" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Back to Incoming Orders" })).toBeVisible();

  // The outbox shows the two e-mails this order queued: the shopper's receipt and the shop's
  // notification, each with its subject and recipient (the e2e server's default store settings).
  await page.goto("/admin/outbox");
  await expect(page.getByRole("heading", { name: "E-mail Outbox" })).toBeVisible();
  const receipt = page.getByRole("listitem").filter({ hasText: `order #${shortId} is received` });
  await expect(receipt).toHaveCount(1);
  await expect(receipt.getByText(`Your Capital Grown order #${shortId} is received`)).toBeVisible();
  await expect(receipt.getByText(/^To e2e-admin-story@example\.com · /)).toBeVisible();
  const notification = page.getByRole("listitem").filter({ hasText: `New order #${shortId}:` });
  await expect(notification).toHaveCount(1);
  await expect(notification.getByText(new RegExp(`^New order #${shortId}: \\$90\\.00 for `))).toBeVisible();
  await expect(notification.getByText(/^To orders@capitalgrown\.example · /)).toBeVisible();

  // Sign out: every admin page is closed again, also with the old cookie replayed.
  const cookies = await admin.cookies();
  await page.goto("/admin/dashboard");
  await page.getByRole("button", { name: "Sign Out" }).last().click();
  await expect(page).toHaveURL(/\/admin\/login$/);
  for (const url of [
    "/admin/dashboard",
    "/admin/products",
    "/admin/products/new",
    "/admin/orders",
    "/admin/completed-orders",
    "/admin/outbox",
  ]) {
    await page.goto(url);
    await expect(page, url).toHaveURL(/\/admin\/login/);
  }
  const replay = await browser.newContext({ baseURL });
  await replay.addCookies(cookies);
  const replayed = await replay.request.get("/admin/dashboard", {
    headers: { Accept: "text/html" },
    maxRedirects: 0,
  });
  expect(replayed.status()).toBe(302);
  expect((await replay.request.get(src, { maxRedirects: 0 })).status()).toBe(401);
  await replay.close();
  await admin.close();
});

test("cancelling an order puts its quantity back in stock", async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  const productName = uniqueName("E2E Cancel Kush");
  const customer = uniqueName("E2E Cancelling Customer");
  const [productId] = await createProducts(browser, baseURL as string, [
    {
      name: productName,
      category: "Edibles",
      sizes: [{ size: "10 pack", price: "45.00", inventoryCount: 50 }],
    },
  ]);

  const admin = await browser.newContext({ baseURL });
  const page = await admin.newPage();
  await signIn(page);
  const stockOf = async () => {
    await page.goto("/admin/products");
    return page.getByRole("list", { name: `Sizes and stock of ${productName}` });
  };
  const sizes = await stockOf();
  await expect(sizes.getByText("50 in stock")).toBeVisible();

  const shopper = await browser.newContext({ baseURL });
  const sizeId = await sizeIdFromCart(shopper, productId as string);
  await placeOrderByPost(shopper.request, {
    name: customer,
    productId: productId as string,
    sizeId,
    quantity: 2,
  });
  await shopper.close();
  await expect((await stockOf()).getByText("48 in stock")).toBeVisible();

  await page.goto("/admin/orders");
  const card = page.getByRole("listitem").filter({ hasText: customer });
  // Cancel asks for the reason first (P-23); the order then leaves the incoming list and is
  // in the completed list with its reason.
  await card.getByRole("button", { name: "Cancel" }).click();
  const dialog = page.getByRole("dialog", { name: "Cancel this order?" });
  await dialog.getByLabel("Reason").selectOption({ label: "Out of stock" });
  await dialog.getByRole("button", { name: "Cancel order" }).click();
  await expect(page.getByText("Order status updated").first()).toBeVisible();
  await expect(page.getByRole("listitem").filter({ hasText: customer })).toHaveCount(0);
  await page.goto("/admin/completed-orders");
  const done = page.getByRole("listitem").filter({ hasText: customer });
  await expect(done.getByText("Cancelled", { exact: true })).toBeVisible();
  await expect(done.getByText("(Out of stock)")).toBeVisible();
  await expect((await stockOf()).getByText("50 in stock")).toBeVisible();
  await admin.close();
});
