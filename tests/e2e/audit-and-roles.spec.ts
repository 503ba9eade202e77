/**
 * P-27: the owner finds their own sensitive actions in /admin/audit — a price
 * change with the old and new price, and the view of a customer's ID photo on the orders screen —
 * and the order's own history on its card. (Stories with manager and driver accounts need the staff
 * invitations; the roles are covered in-process by tests/staff/admin-roles.test.ts.)
 */
import { expect, test } from "@playwright/test";
import { placeOrderByPost, signIn } from "./admin-support.ts";
import { E2E_ADMIN } from "./support/global-setup.ts";
import { createProducts, uniqueName } from "./support/storefront.ts";

test("the owner finds a price change (old and new price) and an ID photo view in the audit log", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const productName = uniqueName("E2E Audit Haze");
  const [productId] = await createProducts(browser, baseURL as string, [
    {
      name: productName,
      category: "Edibles",
      sizes: [{ size: "10 pack", price: "40.00", inventoryCount: 9 }],
    },
  ]);

  const owner = await browser.newContext({ baseURL });
  const page = await owner.newPage();
  await signIn(page);
  await expect(
    page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Audit" }),
  ).toBeVisible();

  // The price change.
  await page.goto(`/admin/products/edit/${productId}`);
  const sizeId = await page.locator('input[name="sizes.0.id"]').inputValue();
  await page.locator('input[name="sizes.0.price"]').fill("44.50");
  await page.getByRole("button", { name: "Update Product" }).click();
  await expect(page.getByText("Product updated successfully").first()).toBeVisible();

  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Audit" }).click();
  await expect(page.getByRole("heading", { name: "Audit log" })).toBeVisible();
  await page.getByLabel("Action").selectOption({ label: "Changed prices" });
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/action=product.price_changed/);
  const priceEvent = page.getByRole("listitem").filter({ hasText: productName });
  await expect(priceEvent).toContainText(`${productName}: 10 pack $40.00 → $44.50`);
  await expect(priceEvent).toContainText(E2E_ADMIN.email);

  // An order with an ID photo; the owner sees its card (and so the photo) on the orders screen.
  const customer = uniqueName("E2E Audit Customer");
  const shopper = await browser.newContext({ baseURL });
  await placeOrderByPost(shopper.request, {
    name: customer,
    productId: productId as string,
    sizeId,
    quantity: 2,
  });
  await shopper.close();
  await page.goto("/admin/orders");
  const card = page.getByRole("listitem").filter({ hasText: customer });
  await expect(card.getByRole("img", { name: `ID of ${customer}` })).toBeVisible();
  const shortId = ((await card.getByRole("heading", { name: /^Order #/ }).textContent()) ?? "")
    .replace(/^Order #/, "")
    .trim();

  // The view is in the audit log, naming the order (never the photo).
  await page.goto("/admin/audit");
  await page.getByLabel("Action").selectOption({ label: "Viewed the ID photo" });
  await page.getByRole("button", { name: "Filter" }).click();
  const viewEvent = page
    .getByRole("listitem")
    .filter({ hasText: `order #${shortId}` })
    .first();
  await expect(viewEvent).toContainText("Viewed the ID photo");
  await expect(viewEvent).toContainText(E2E_ADMIN.email);

  // And in the order's own history, on its card.
  await page.goto("/admin/orders");
  const history = page.getByRole("listitem").filter({ hasText: customer }).locator("details");
  await history.locator("summary").click();
  await expect(history).toContainText("Viewed the ID photo");

  // The export of the filter is itself recorded.
  const download = await page.request.get("/admin/audit/export?action=id_photo.viewed");
  expect(download.status()).toBe(200);
  expect(await download.text()).toContain("id_photo.viewed");
  await page.goto("/admin/audit?action=audit.exported");
  await expect(
    page.getByRole("listitem").filter({ hasText: "Exported the audit log (CSV)" }).first(),
  ).toBeVisible();
  await owner.close();
});
