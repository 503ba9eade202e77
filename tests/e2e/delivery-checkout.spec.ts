/**
 * Delivery area, slot capacity and closures, the same-day cut-off and 'I'll pay with'
 * (P-13, P-21, P-22, P-24), against a server of its own: the shared e2e server raises every
 * slot's capacity for the other stories (DELIVERY_SLOT_CAPACITY), this one keeps the default and
 * sets capacities, closures and cut-offs the way staff do, at /admin/settings/delivery.
 */
import { type BrowserContext, expect, type Page, test } from "@playwright/test";
import { type RunningApp, startApp } from "../support/app-server.ts";
import { pngBytes, tomorrowInStore } from "./admin-support.ts";
import { signInAs } from "./support/admin-sign-in.ts";
import { E2E_ADMIN } from "./support/global-setup.ts";
import { createProducts, passAgeGate, uniqueName } from "./support/storefront.ts";

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const NOON = "12:00 PM-2:00 PM";
const AFTERNOON = "2:00 PM-4:00 PM";
const OUT_OF_AREA = "We don't deliver to 23220 yet. We deliver in Washington DC and Northern Virginia.";
const FILLED_UP = "This delivery time just filled up. Please choose another.";

let app: RunningApp;
let line: { productId: string; sizeId: string; quantity: number };
let shopper = 0;

test.describe.configure({ mode: "serial" });

function weekdayOf(date: string) {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  return WEEKDAYS[new Date(Date.UTC(year, month - 1, day)).getUTCDay()] as string;
}

async function signIn(page: Page) {
  await signInAs(page, E2E_ADMIN, { loginUrl: `${app.url}/admin/login` });
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
}

/** An order as a browser without JavaScript posts it: the status and the page it answers. */
async function postOrder(fields: Record<string, string> = {}) {
  shopper += 1;
  const form = new FormData();
  const values: Record<string, string> = {
    name: "Delivery Dana",
    email: `dana${shopper}@delivery.test`,
    phone: `(202) 555-${String(1000 + shopper)}`,
    address: "1 Slot St NW",
    city: "Washington",
    state: "DC",
    zipCode: "20001",
    notes: "",
    deliveryDate: tomorrowInStore(),
    timeSlot: NOON,
    ageConfirmed: "on",
    idempotencyKey: crypto.randomUUID(),
    items: JSON.stringify([line]),
    ...fields,
  };
  for (const [key, value] of Object.entries(values)) form.set(key, value);
  form.set("idFront", new File([new Uint8Array(await pngBytes(64, 40))], "id.png", { type: "image/png" }));
  const response = await fetch(`${app.url}/checkout`, {
    method: "POST",
    body: form,
    redirect: "manual",
    headers: { Origin: app.url, "Sec-Fetch-Site": "same-origin" },
  });
  return { status: response.status, body: await response.text() };
}

/** A shopper's browser with the test product in the cart, on the checkout page. */
async function checkoutWithCart(context: BrowserContext) {
  await passAgeGate(context);
  const page = await context.newPage();
  await page.goto(`${app.url}/product/${line.productId}`);
  await expect(async () => {
    await page.getByRole("button", { name: "Add to Cart" }).click();
    await expect(page.getByText("Added to cart").first()).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await page.goto(`${app.url}/checkout`);
  await expect(page.getByRole("heading", { name: "Order Summary" })).toBeVisible();
  return page;
}

function slotOption(page: Page, label: string) {
  return page.locator("label").filter({ has: page.locator(`input[name="timeSlot"][value="${label}"]`) });
}

test.beforeAll(async ({ browser }) => {
  test.setTimeout(300_000);
  app = await startApp({
    buildDir: process.env.E2E_BUILD_DIR as string,
    startTimeoutMs: 240_000,
    env: {
      ADMIN_EMAIL: E2E_ADMIN.email,
      ADMIN_PASSWORD: E2E_ADMIN.password,
      SEED_DEMO: "true",
      SEED_DEMO_COUNT: "8",
      MAX_OPEN_ORDERS: "1000",
      ORDERS_PER_HOUR: "1000",
    },
  });
  const name = uniqueName("Slot Gummies");
  const [productId] = await createProducts(browser, app.url, [
    { name, sizes: [{ size: "10 pack", price: "90.00", inventoryCount: 500 }] },
  ]);
  const context = await browser.newContext();
  await passAgeGate(context);
  const page = await context.newPage();
  await page.goto(`${app.url}/product/${productId}`);
  await expect(async () => {
    await page.getByRole("button", { name: "Add to Cart" }).click();
    await expect(page.getByText("Added to cart").first()).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  const cart = await page.evaluate(() => window.localStorage.getItem("capital-grown-cart"));
  const [first] = JSON.parse(cart ?? "[]") as { sizeId: string }[];
  line = { productId: productId as string, sizeId: first?.sizeId as string, quantity: 1 };
  await context.close();
});

test.afterAll(async () => {
  await app?.stop();
});

test("an out-of-area ZIP is refused with its message: beside the field, after a post, and on the landing page", async ({
  browser,
}) => {
  const context = await browser.newContext();
  const page = await checkoutWithCart(context);
  await page.getByLabel("State").selectOption("VA");
  await page.getByLabel("ZIP code").fill("23220");
  await page.getByLabel("ZIP code").press("Tab");
  await expect(page.getByText(OUT_OF_AREA)).toBeVisible();
  // The other state's ZIP, named as such; a ZIP of the area clears the message.
  await page.getByLabel("ZIP code").fill("20001");
  await page.getByLabel("ZIP code").press("Tab");
  await expect(
    page.getByText("20001 is not a Virginia ZIP code. Check the state and the ZIP."),
  ).toBeVisible();
  await page.getByLabel("State").selectOption("DC");
  await expect(page.getByText("20001 is not a Virginia ZIP code")).toHaveCount(0);
  await context.close();

  // Without JavaScript: the post is refused, nothing placed, the message on the page.
  const refused = await postOrder({ state: "VA", zipCode: "23220" });
  expect(refused.status).toBe(400);
  expect(refused.body).toContain(OUT_OF_AREA.replace("'", "&#x27;"));

  // The DC landing page's check, a GET form, without JavaScript; answers are never cached.
  const noScript = await browser.newContext({ javaScriptEnabled: false });
  const landing = await noScript.newPage();
  await landing.goto(`${app.url}/washington-dc-weed-delivery`);
  for (const [zip, answer] of [
    ["23220", OUT_OF_AREA],
    ["22314", "Yes, we deliver to 22314 (City of Alexandria)."],
    ["23220", OUT_OF_AREA],
  ] as const) {
    await landing.getByLabel("Do we deliver to you?").fill(zip);
    await landing.getByRole("button", { name: "Check" }).click();
    await expect(landing).toHaveURL(new RegExp(`zip=${zip}`));
    await expect(landing.getByRole("status").filter({ hasText: answer })).toBeVisible();
  }
  await noScript.close();
});

test("without JavaScript a refused post answers its refusal, each field's message and the way back; going back keeps the form", async ({
  browser,
}, testInfo) => {
  // The checkout's own form needs the cart from the browser's storage: a page of the shop's origin
  // with the same named fields stands in for it, posted natively by a browser without JavaScript.
  const noScript = await browser.newContext({
    javaScriptEnabled: false,
    viewport: { width: 390, height: 844 },
  });
  const page = await noScript.newPage();
  const fields: Record<string, string> = {
    name: "Refused Rita",
    email: "rita@delivery.test",
    phone: "(202) 555-43211",
    address: "3 Slot St NW",
    city: "Washington",
    state: "DC",
    zipCode: "20001",
    deliveryDate: tomorrowInStore(),
    timeSlot: NOON,
    ageConfirmed: "on",
    idempotencyKey: crypto.randomUUID(),
    items: JSON.stringify([line]),
  };
  const inputs = Object.entries(fields)
    .map(([name, value]) => `<label>${name} <input name="${name}" value='${value}'></label>`)
    .join("\n");
  await page.route(`${app.url}/no-script-form`, (route) =>
    route.fulfill({
      contentType: "text/html",
      body: `<!doctype html><form method="post" action="/checkout" enctype="multipart/form-data">${inputs}<input type="file" name="idFront"><button>Place Order</button></form>`,
    }),
  );
  await page.goto(`${app.url}/no-script-form`);
  await page.locator('input[name="idFront"]').setInputFiles({
    name: "id.png",
    mimeType: "image/png",
    buffer: await pngBytes(64, 40),
  });
  await page.locator('input[name="city"]').fill("Washington DC");
  const answered = page.waitForResponse((response) => response.url() === `${app.url}/checkout`);
  await page.getByRole("button", { name: "Place Order" }).click();
  expect((await answered).status()).toBe(400);
  const alert = page.getByRole("alert");
  await expect(alert).toContainText("Please check your details");
  await expect(alert.getByRole("listitem")).toHaveText(["Enter a valid phone number, like (202) 555-0123"]);
  await expect(
    page.getByText(
      "Nothing was placed. Go back to your form to change it: your browser keeps what you typed.",
    ),
  ).toBeVisible();
  await expect(page.getByText("Your cart is empty")).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Continue Shopping" })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("refused-no-js-390.png"), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: testInfo.outputPath("refused-no-js-1280.png"), fullPage: true });

  // Back on the form: what was typed is still there; fixed and sent again, the refusal is the
  // order's own (this ZIP is outside the area), answered with its status.
  await page.goBack();
  await expect(page.locator('input[name="city"]')).toHaveValue("Washington DC");
  await page.locator('input[name="phone"]').fill("(202) 555-4321");
  await page.locator('input[name="state"]').fill("VA");
  await page.locator('input[name="zipCode"]').fill("23220");
  await page.locator('input[name="idFront"]').setInputFiles({
    name: "id.png",
    mimeType: "image/png",
    buffer: await pngBytes(64, 40),
  });
  const again = page.waitForResponse((response) => response.url() === `${app.url}/checkout`);
  await page.getByRole("button", { name: "Place Order" }).click();
  expect((await again).status()).toBe(400);
  await expect(page.getByRole("alert")).toContainText("Outside our delivery area");
  await expect(page.getByRole("alert")).toContainText(OUT_OF_AREA);
  await expect(page.getByRole("alert").getByRole("listitem")).toHaveCount(0);
  await noScript.close();
});

test("staff set a slot's capacity; a full slot shows 'Full' and the server refuses the next order with the form kept", async ({
  browser,
}, testInfo) => {
  test.setTimeout(120_000);
  const tomorrow = tomorrowInStore();
  const day = weekdayOf(tomorrow);
  const admin = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const adminPage = await admin.newPage();
  await signIn(adminPage);
  await adminPage.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Delivery" }).click();
  await expect(adminPage.getByRole("heading", { name: "Delivery", exact: true })).toBeVisible();
  await adminPage.getByLabel(`${day} ${NOON}: orders`).fill("2");
  await adminPage.getByRole("button", { name: "Save Delivery Times" }).click();
  await expect(adminPage.getByText("Delivery times saved").first()).toBeVisible();
  await expect(adminPage.getByLabel(`${day} ${NOON}: orders`)).toHaveValue("2");
  await adminPage.screenshot({ path: testInfo.outputPath("admin-delivery-1280.png"), fullPage: true });
  await adminPage.setViewportSize({ width: 390, height: 844 });
  await adminPage.screenshot({ path: testInfo.outputPath("admin-delivery-390.png"), fullPage: true });

  expect((await postOrder()).status).toBe(302);

  // A shopper opens the checkout with one place left and picks it.
  const shopperContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await checkoutWithCart(shopperContext);
  await page.getByText("Tomorrow", { exact: true }).click();
  await expect(slotOption(page, NOON)).toContainText("Only 1 left");
  await slotOption(page, NOON).click();
  await page.getByLabel("Full name").fill("Late Larry");
  await page.getByLabel("Email").fill("larry@delivery.test");
  await page.getByLabel("Phone").fill("(202) 555-0188");
  await page.getByLabel("Street address").fill("2 Slot St NW");
  await page.getByLabel("City").fill("Washington");
  await page.getByLabel("ZIP code").fill("20001");
  await page.getByLabel(/Upload front of ID/).setInputFiles({
    name: "id.png",
    mimeType: "image/png",
    buffer: await pngBytes(640, 400, "#7eb394"),
  });
  await page.getByLabel(/I confirm that I am 21/).check();
  await page.screenshot({ path: testInfo.outputPath("checkout-slots-390.png"), fullPage: true });

  // Someone else takes the last place first.
  expect((await postOrder()).status).toBe(302);
  await page.getByRole("button", { name: /Place Order/ }).click();
  await expect(page.getByText(FILLED_UP).first()).toBeVisible();
  await expect(page).toHaveURL(/\/checkout$/);
  await expect(page.getByLabel("Full name")).toHaveValue("Late Larry");
  await expect(slotOption(page, NOON)).toContainText("Full");
  await expect(page.locator(`input[name="timeSlot"][value="${NOON}"]`)).toBeDisabled();
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: testInfo.outputPath("checkout-slots-1280.png"), fullPage: true });

  // The no-JavaScript post for the full slot is refused the same way.
  const refused = await postOrder();
  expect(refused.status).toBe(409);
  expect(refused.body).toContain("This delivery time just filled up.");
  await shopperContext.close();
  await admin.close();
});

test("a closed slot shows 'Closed' with its reason and refuses orders", async ({ browser }) => {
  const tomorrow = tomorrowInStore();
  const admin = await browser.newContext();
  const adminPage = await admin.newPage();
  await signIn(adminPage);
  await adminPage.goto(`${app.url}/admin/settings/delivery`);
  await adminPage.getByLabel("Date", { exact: true }).fill(tomorrow);
  await adminPage.getByLabel("Delivery time", { exact: true }).selectOption(AFTERNOON);
  await adminPage.getByLabel("Reason shoppers see").fill("Staff training");
  await adminPage.getByRole("button", { name: "Close", exact: true }).click();
  await expect(adminPage.getByText("Closed for deliveries").first()).toBeVisible();
  await expect(adminPage.getByRole("listitem").filter({ hasText: "Staff training" })).toContainText(
    AFTERNOON,
  );
  await admin.close();

  const context = await browser.newContext();
  const page = await checkoutWithCart(context);
  await page.getByText("Tomorrow", { exact: true }).click();
  await expect(slotOption(page, AFTERNOON)).toContainText("Closed: Staff training");
  await expect(page.locator(`input[name="timeSlot"][value="${AFTERNOON}"]`)).toBeDisabled();
  await context.close();

  const refused = await postOrder({ timeSlot: AFTERNOON });
  expect(refused.status).toBe(400);
  expect(refused.body).toContain(
    "We&#x27;re not delivering at this time: Staff training. Please choose another.",
  );
});

test("'I'll pay with' below the total is refused; the shop is told the change to bring", async ({
  browser,
}) => {
  const context = await browser.newContext();
  const page = await checkoutWithCart(context);
  await page.getByLabel("I'll pay with (optional)").fill("50");
  await page.getByLabel("I'll pay with (optional)").press("Tab");
  await expect(page.getByText("Enter at least your total of $90.00, or leave this empty.")).toBeVisible();
  await page.getByLabel("I'll pay with (optional)").fill("$100");
  await page.getByLabel("I'll pay with (optional)").press("Tab");
  await expect(page.getByText("Your driver brings $10.00 change.")).toBeVisible();
  await context.close();

  const low = await postOrder({ payWith: "89.99", timeSlot: "4:00 PM-6:00 PM" });
  expect(low.status).toBe(400);
  expect(low.body).toContain("Enter at least your total of $90.00, or leave this empty.");
  expect(
    (await postOrder({ name: "Change Charlie", payWith: "103.50", timeSlot: "4:00 PM-6:00 PM" })).status,
  ).toBe(302);
  const admin = await browser.newContext();
  const adminPage = await admin.newPage();
  await signIn(adminPage);
  await adminPage.goto(`${app.url}/admin/orders`);
  // Charlie's is the only order of this server with an amount to pay with.
  await expect(adminPage.getByText("Change Charlie").first()).toBeVisible();
  await expect(adminPage.getByText("Bring $13.50 change")).toBeVisible();
  await expect(adminPage.getByText("(pays with $103.50)")).toBeVisible();
  await admin.close();
});

test("after the day's cut-off today shows 'Closed for today' and the server refuses today's slots", async ({
  browser,
}) => {
  // The server's clock is real: staff move today's cut-off to midnight, so 'now' is past it.
  const today = new Intl.DateTimeFormat("en-CA", {
    timeZone: "America/New_York",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(new Date());
  const admin = await browser.newContext();
  const adminPage = await admin.newPage();
  await signIn(adminPage);
  await adminPage.goto(`${app.url}/admin/settings/delivery`);
  await adminPage.getByLabel(`${weekdayOf(today)} same-day cut-off`).fill("00:00");
  await adminPage.getByRole("button", { name: "Save Delivery Times" }).click();
  await expect(adminPage.getByText("Delivery times saved").first()).toBeVisible();
  await admin.close();

  const context = await browser.newContext();
  const page = await checkoutWithCart(context);
  const todayOption = page.locator("label").filter({ has: page.locator(`input[value="${today}"]`) });
  await expect(todayOption).toContainText("Closed for today");
  await expect(page.locator(`input[name="deliveryDate"][value="${today}"]`)).toBeDisabled();
  await expect(page.locator(`input[name="deliveryDate"][value="${tomorrowInStore()}"]`)).toBeChecked();
  await context.close();

  const refused = await postOrder({ deliveryDate: today, timeSlot: NOON });
  expect(refused.status).toBe(400);
  expect(refused.body).toContain("That delivery time is no longer available today.");
});
