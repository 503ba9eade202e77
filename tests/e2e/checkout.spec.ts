import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import sharp from "sharp";
import { earlyAnswerStatus } from "../support/raw-http.ts";
import { signIn } from "./admin-support.ts";
import { openAffordableProduct } from "./checkout-form.ts";
import { createProducts, uniqueName } from "./support/storefront.ts";

/** A real photo-sized PNG, as a phone camera upload would be. */
async function idPng() {
  return sharp({ create: { width: 640, height: 400, channels: 3, background: "#7eb394" } })
    .png()
    .toBuffer();
}

async function confirmAge(page: Page) {
  await page.goto("/");
  await page.evaluate(() => window.localStorage.setItem("capital-grown-age-verified", "yes"));
}

test("a shopper orders from a product page to the thank-you page, with an ID photo", async ({
  page,
  browser,
  request,
}) => {
  // A long story on a shared 2-core machine: give it room.
  test.setTimeout(120_000);
  const shopper = `E2E Shopper ${Date.now().toString(36)}`;
  await confirmAge(page);
  const product = await openAffordableProduct(page, "");
  const quantity = Math.ceil(8000 / product.cents);
  await page.getByRole("spinbutton", { name: "Quantity" }).fill(String(quantity));
  await page.getByRole("button", { name: "Add to Cart" }).click();
  await expect(page.getByText("Added to cart").first()).toBeVisible();

  await page.goto("/checkout");
  await expect(page.getByRole("heading", { name: "Order Summary" })).toBeVisible();
  await expect(page.getByText(product.name).first()).toBeVisible();
  await expect(page.getByText("You can schedule delivery for today or tomorrow only.")).toBeVisible();
  await expect(page.getByText("Cash Only")).toBeVisible();
  await expect(page.getByText("PNG, JPG, GIF up to 10MB")).toBeVisible();

  // Place Order stays disabled until each required part is given (K-4).
  const placeOrder = page.getByRole("button", { name: /Place Order/ });
  const steps: [string, () => Promise<void>][] = [
    ["time slot", () => page.getByText("In-person delivery").first().click()],
    ["name", () => page.getByLabel("Full name").fill(shopper)],
    ["email", () => page.getByLabel("Email").fill("e2e-shopper@example.com")],
    ["phone", () => page.getByLabel("Phone").fill("(202) 555-0199")],
    ["address", () => page.getByLabel("Street address").fill("1600 Test Ave NW")],
    ["city", () => page.getByLabel("City").fill("Washington")],
    ["zip", () => page.getByLabel("ZIP code").fill("20001")],
    [
      "ID",
      async () => {
        // With JavaScript the photo is sent as soon as it is picked (P-8).
        const sentAhead = page.waitForResponse(
          (response) => response.url().endsWith("/api/id-photo") && response.status() === 200,
        );
        await page
          .getByLabel(/Upload front of ID/)
          .setInputFiles({ name: "my-id.png", mimeType: "image/png", buffer: await idPng() });
        await sentAhead;
      },
    ],
    ["age", () => page.getByRole("checkbox", { name: /21 years of age or older/ }).check()],
  ];
  for (const [index, [label, step]] of steps.entries()) {
    await expect(placeOrder, `disabled before ${label}`).toBeDisabled();
    await step();
    if (index < steps.length - 1) await expect(placeOrder, `still disabled after ${label}`).toBeDisabled();
  }
  await expect(page.getByLabel("State")).toHaveValue("DC");
  await expect(placeOrder).toBeEnabled();

  const axe = await new AxeBuilder({ page }).include("main").analyze();
  expect(axe.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);

  const idempotencyKey = await page.locator('input[name="idempotencyKey"]').inputValue();
  const cartLines = await page.evaluate(() => window.localStorage.getItem("capital-grown-cart"));
  const deliveryDate = await page.locator('input[name="deliveryDate"]:checked').inputValue();
  const timeSlot = await page.locator('input[name="timeSlot"]:checked').inputValue();
  // Every request the page makes from the click to the thank-you page (record 023).
  const afterClick: { method: string; path: string; contentType: string; body: string }[] = [];
  const record = (request: import("@playwright/test").Request) => {
    const url = new URL(request.url());
    if (url.pathname.endsWith(".data") || url.pathname === "/checkout") {
      afterClick.push({
        method: request.method(),
        path: `${url.pathname}${url.search}`,
        contentType: request.headers()["content-type"] ?? "",
        body: request.postData() ?? "",
      });
    }
  };
  page.on("request", record);
  await placeOrder.click();
  await expect(page).toHaveURL(/\/thank-you\?order=[\w-]{32}$/, { timeout: 20_000 });
  await expect(page.getByText("Order Placed Successfully!")).toBeVisible();
  page.off("request", record);
  // The photo went ahead: the post is text only, urlencoded, naming the photo by its token; then
  // the thank-you page's data, with no rerun of the checkout page's loaders in between.
  expect(afterClick.map((request) => `${request.method} ${request.path.split("?")[0]}`)).toEqual([
    "POST /checkout.data",
    "GET /thank-you.data",
  ]);
  expect(afterClick[0]?.contentType).toContain("application/x-www-form-urlencoded");
  expect(new URLSearchParams(afterClick[0]?.body).get("idPhotoToken")).toMatch(/^[0-9a-f-]{36}$/);
  const thankYou = async () => {
    await expect(page.getByRole("heading", { name: /Thank you/ })).toBeVisible();
    await expect(page.getByText("Cash on Delivery")).toBeVisible();
    await expect(page.getByText("Payment due at delivery")).toBeVisible();
    await expect(page.getByRole("heading", { name: "What's Next?" })).toBeVisible();
    await expect(page.getByText("1600 Test Ave NW, Washington, DC 20001")).toBeVisible();
    await expect(page.getByText("(202) 555-0199").first()).toBeVisible();
  };
  await thankYou();
  const token = new URL(page.url()).searchParams.get("order") as string;

  // Reloading keeps the order on screen; the page is private.
  const reloaded = await page.reload();
  expect(reloaded?.headers()["cache-control"]).toBe("private, no-store");
  await thankYou();

  // The same submit again as a plain form post (a reload of the post, no JavaScript): the first order.
  const lines = JSON.parse(cartLines ?? "[]") as { productId: string; sizeId: string; quantity: number }[];
  const resubmit = await request.post("/checkout", {
    maxRedirects: 0,
    multipart: {
      name: shopper,
      email: "e2e-shopper@example.com",
      phone: "(202) 555-0199",
      address: "1600 Test Ave NW",
      city: "Washington",
      state: "DC",
      zipCode: "20001",
      deliveryDate,
      timeSlot,
      ageConfirmed: "on",
      idempotencyKey,
      items: JSON.stringify(
        lines.map(({ productId, sizeId, quantity }) => ({ productId, sizeId, quantity })),
      ),
      idFront: { name: "my-id.png", mimeType: "image/png", buffer: await idPng() },
    },
  });
  expect(resubmit.status()).toBe(302);
  expect(resubmit.headers().location).toBe(`/thank-you?order=${token}`);

  // The cart was cleared.
  await page.goto("/checkout");
  await expect(page.getByRole("heading", { name: "Your cart is empty" })).toBeVisible();
  await expect(page.getByText("Add some items to your cart before checkout.")).toBeVisible();

  await page.goto(`/order-confirmation?order=${token}`);
  await expect(page.getByRole("heading", { name: "Order Confirmed!" })).toBeVisible();
  await expect(page.getByText("e2e-shopper@example.com")).toBeVisible();
  await expect(page.getByText("Pending")).toBeVisible();

  // The ID photo is served to a signed-in admin only.
  const admin = await browser.newPage();
  await signIn(admin);
  await admin.goto("/admin/orders");
  const photo = admin.getByRole("img", { name: `ID of ${shopper}` });
  await expect(photo).toBeVisible();
  const src = (await photo.getAttribute("src")) as string;
  expect(src).toMatch(/^\/admin\/id-photos\/[0-9a-f-]{36}\?view=thumbnail$/);
  const asAdmin = await admin.request.get(src);
  expect(asAdmin.status()).toBe(200);
  expect(asAdmin.headers()["content-type"]).toBe("image/jpeg");
  const anonymous = await request.get(src, { maxRedirects: 0 });
  expect([302, 303, 401, 403, 404]).toContain(anonymous.status());
  expect(anonymous.headers()["content-type"] ?? "").not.toContain("image/");
  await admin.close();
});

test("thank-you and confirmation pages say so when there is no order to show", async ({ page }) => {
  await confirmAge(page);
  for (const url of ["/thank-you", "/thank-you?order=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"]) {
    await page.goto(url);
    await expect(page.getByRole("heading", { name: "Order Not Found" })).toBeVisible();
    await expect(page.getByText("We couldn't find your order details.")).toBeVisible();
    await expect(page.getByRole("link", { name: "Continue Shopping" })).toHaveAttribute("href", "/shop");
  }
  await page.goto("/order-confirmation?order=nope");
  await expect(page.getByRole("heading", { name: "Order not found" })).toBeVisible();
  await page.goto("/checkout");
  await expect(page.getByRole("heading", { name: "Your cart is empty" })).toBeVisible();
});

test("a crafted post with a 50 MB file is refused early with 413, not a server error", async ({
  baseURL,
}) => {
  const boundary = "----capital-grown-test";
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nCrafted\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="idFront"; filename="huge.png"\r\nContent-Type: image/png\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const body = Buffer.concat([head, Buffer.alloc(50 * 1024 * 1024, 0x41), tail]);
  const status = await earlyAnswerStatus(
    baseURL as string,
    "/checkout",
    { "Content-Type": `multipart/form-data; boundary=${boundary}` },
    body,
  );
  expect(status).toBe(413);
});

test("checkout fits a phone without sideways scrolling, even with a long product name in the summary", async ({
  page,
  browser,
  baseURL,
}) => {
  const name = uniqueName("Extra Long Name Midnight Berry Sleep Gummies Family Pack");
  const [id] = await createProducts(browser, baseURL as string, [
    { name, sizes: [{ size: "10 pack", price: "90.00" }] },
  ]);
  await page.setViewportSize({ width: 390, height: 900 });
  await confirmAge(page);
  await page.goto(`/product/${id}`);
  await page.getByRole("button", { name: "Add to Cart" }).click();
  await page.goto("/checkout");
  await expect(page.getByRole("button", { name: /Place Order/ })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});
