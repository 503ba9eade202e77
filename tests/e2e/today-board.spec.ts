/**
 * Staff stories of the day's work: the today board groups a date's
 * orders by slot and shows a new order by itself; the pick list and driver slips print (Chromium's
 * own PDF, read back as text); 'Enable sound' then a new order puts the count in the tab title and
 * plays the chime; the dashboard shows today's figures.
 *
 * The e2e server is shared: every story uses products and customers of its own, and the 2 PM and
 * 4 PM slots of tomorrow (the other stories book 12:00 PM-2:00 PM).
 */
import { type APIRequestContext, type Browser, expect, type Page, test } from "@playwright/test";
import { extractText, getDocumentProxy } from "unpdf";
import { pngBytes, signIn, tomorrowInStore } from "./admin-support.ts";
import { createProducts, uniqueName } from "./support/storefront.ts";

const TWO_PM = "2:00 PM-4:00 PM";
const FOUR_PM = "4:00 PM-6:00 PM";

/** Size ids of a product with several sizes, read from its page's size picker. */
async function sizeIds(request: APIRequestContext, productId: string) {
  const html = await (await request.get(`/product/${productId}`)).text();
  return [...html.matchAll(/<option value="([0-9a-f-]{36})"[^>]*>([^<]+?) - \$/g)].map((match) => ({
    id: match[1] as string,
    size: match[2] as string,
  }));
}

/** A test product with two sizes; returns its id and the id of each size by label. */
async function testProduct(browser: Browser, baseURL: string, prefix: string) {
  const name = uniqueName(prefix);
  const [productId] = await createProducts(browser, baseURL, [
    {
      name,
      category: "Edibles",
      sizes: [
        { size: "10 pack", price: "45.00", inventoryCount: 100 },
        { size: "20 pack", price: "80.00", inventoryCount: 100 },
      ],
    },
  ]);
  const context = await browser.newContext({ baseURL });
  const sizes = await sizeIds(context.request, productId as string);
  await context.close();
  const sizeId = (label: string) => sizes.find((size) => size.size === label)?.id as string;
  expect(sizeId("10 pack")).toMatch(/^[0-9a-f-]{36}$/);
  return { name, productId: productId as string, sizeId };
}

let orderCount = 0;

/** Places an order for tomorrow through the real checkout post, from a shopper context of its own. */
async function placeOrder(
  browser: Browser,
  baseURL: string,
  order: {
    name: string;
    slot: string;
    lines: { productId: string; sizeId: string; quantity: number }[];
    notes?: string;
  },
) {
  orderCount += 1;
  const shopper = await browser.newContext({ baseURL });
  const response = await shopper.request.post("/checkout", {
    maxRedirects: 0,
    multipart: {
      name: order.name,
      email: `today-board-${orderCount}-${Date.now()}@example.com`,
      phone: "(202) 555-0177",
      address: `${40 + orderCount} Board Story St NW`,
      city: "Washington",
      state: "DC",
      zipCode: "20001",
      notes: order.notes ?? "",
      deliveryDate: tomorrowInStore(),
      timeSlot: order.slot,
      ageConfirmed: "on",
      idempotencyKey: `today-board-${Date.now()}-${Math.random().toString(36).slice(2, 10)}`,
      items: JSON.stringify(order.lines),
      idFront: { name: "id.png", mimeType: "image/png", buffer: await pngBytes(600, 380, "#aed1bb") },
    },
  });
  expect(response.status(), await response.text().catch(() => "")).toBe(302);
  await shopper.close();
}

async function pdfPages(page: Page) {
  const pdf = await getDocumentProxy(new Uint8Array(await page.pdf({ format: "Letter" })));
  return (await extractText(pdf, { mergePages: false })).text;
}

test("the today board groups tomorrow's orders by slot and shows a new order by itself", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(150_000);
  const product = await testProduct(browser, baseURL as string, "E2E Board Mints");
  const line = (quantity: number) => [
    { productId: product.productId, sizeId: product.sizeId("10 pack"), quantity },
  ];
  const early = uniqueName("E2E Early Board");
  const late = uniqueName("E2E Late Board");
  await placeOrder(browser, baseURL as string, {
    name: early,
    slot: TWO_PM,
    lines: line(2),
    notes: "Gate code 4411",
  });
  await placeOrder(browser, baseURL as string, { name: late, slot: FOUR_PM, lines: line(3) });

  const admin = await browser.newContext({ baseURL, viewport: { width: 390, height: 844 } });
  const page = await admin.newPage();
  await signIn(page);
  // First in the navigation (the Menu panel on a phone), and linked from the dashboard.
  await page.getByRole("banner").getByRole("button", { name: "Menu" }).click();
  await expect(page.getByRole("navigation", { name: "Admin" }).getByRole("link").first()).toHaveText("Today");
  await page.keyboard.press("Escape");
  await expect(page.getByRole("link", { name: "Open today's board" })).toBeVisible();
  await page.goto(`/admin/today?date=${tomorrowInStore()}`);

  const two = page.getByRole("region", { name: TWO_PM });
  const four = page.getByRole("region", { name: FOUR_PM });
  const earlyCard = two.getByRole("listitem").filter({ hasText: early });
  await expect(earlyCard).toBeVisible();
  await expect(four.getByRole("listitem").filter({ hasText: early })).toHaveCount(0);
  await expect(four.getByRole("listitem").filter({ hasText: late })).toBeVisible();
  // What the driver needs, tap to call and tap for the map.
  await expect(earlyCard.getByRole("link", { name: "(202) 555-0177" })).toHaveAttribute(
    "href",
    "tel:+12025550177",
  );
  const map = earlyCard.getByRole("link", { name: /Board Story St NW, Washington, DC 20001/ });
  expect(await map.getAttribute("href")).toMatch(
    /^https:\/\/www\.google\.com\/maps\/search\/\?api=1&query=.*Board%20Story%20St%20NW/,
  );
  await expect(earlyCard.getByText("Gate code 4411")).toBeVisible();
  await expect(earlyCard.getByText(`2 × ${product.name}`)).toBeVisible();
  await expect(earlyCard.getByText("Collect $90.00 cash")).toBeVisible();
  await expect(earlyCard.getByText("Pending", { exact: true })).toBeVisible();

  // The incoming list's status buttons work here, and the board stays.
  await earlyCard.getByRole("button", { name: "Confirm" }).click();
  await expect(page.getByText("Order status updated").first()).toBeVisible();
  await expect(earlyCard.getByText("Confirmed", { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/today\?date=/);

  // A shopper in another browser context orders for 2 PM: the board shows it without a reload.
  // 'N orders', or 'N / capacity orders' when the slot has a capacity (P-22).
  const countText = two.getByText(/^\d+( \/ \d+)? orders?$/);
  const before = Number.parseInt((await countText.textContent()) ?? "0", 10);
  const newcomer = uniqueName("E2E Newcomer");
  await placeOrder(browser, baseURL as string, { name: newcomer, slot: TWO_PM, lines: line(2) });
  await expect(two.getByRole("listitem").filter({ hasText: newcomer })).toBeVisible({ timeout: 40_000 });
  await expect(countText).toHaveText(new RegExp(`^${before + 1}( / \\d+)? orders$`));
  await page.screenshot({ path: test.info().outputPath("today-board-390.png"), fullPage: true });
  await admin.close();
});

test("the pick list sums each product and size over the slot's orders, and the driver slips print", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(150_000);
  const product = await testProduct(browser, baseURL as string, "E2E Pick Drops");
  const ten = product.sizeId("10 pack");
  const twenty = product.sizeId("20 pack");
  const first = uniqueName("E2E Picker One");
  await placeOrder(browser, baseURL as string, {
    name: first,
    slot: FOUR_PM,
    lines: [
      { productId: product.productId, sizeId: ten, quantity: 2 },
      { productId: product.productId, sizeId: twenty, quantity: 1 },
    ],
    notes: "Back door, ring twice",
  });
  await placeOrder(browser, baseURL as string, {
    name: uniqueName("E2E Picker Two"),
    slot: FOUR_PM,
    lines: [{ productId: product.productId, sizeId: ten, quantity: 3 }],
  });

  const admin = await browser.newContext({ baseURL });
  const page = await admin.newPage();
  await signIn(page);
  await page.goto(`/admin/today?date=${tomorrowInStore()}`);
  await page.getByRole("region", { name: FOUR_PM }).getByRole("link", { name: "Pick list" }).click();
  await expect(page.getByRole("heading", { name: "Pick list", exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Print pick list" })).toBeVisible();
  // Both orders are still pending: nothing of theirs is packed until staff include pending orders.
  await expect(page.getByText(product.name)).toHaveCount(0);
  await page.getByRole("switch", { name: "Include pending orders" }).click();
  await expect(page.getByText("Including pending orders")).toBeVisible();

  const pick = (await pdfPages(page)).join("\n");
  expect(pick).toContain(`Pick list · `);
  expect(pick).toContain(FOUR_PM);
  // Two orders with the 10 pack (2 + 3) on one line; the 20 pack of one order on another.
  expect(pick).toContain(`${product.name} 10 pack 5 2`);
  expect(pick).toContain(`${product.name} 20 pack 1 1`);
  // The admin's header and buttons are not printed.
  expect(pick).not.toContain("Sign Out");
  expect(pick).not.toContain("Print pick list");
  expect(pick).toMatch(/\d+ of them pending: not confirmed yet/);

  await page.getByRole("link", { name: "Back to the board" }).click();
  await page.getByRole("region", { name: FOUR_PM }).getByRole("link", { name: "Driver slips" }).click();
  await expect(page.getByRole("heading", { name: "Driver slips" })).toBeVisible();
  await page.getByRole("switch", { name: "Include pending orders" }).click();
  await expect(page.getByText("Including pending orders")).toBeVisible();
  const slips = (await pdfPages(page)).join("\n");
  const start = slips.indexOf(first);
  expect(start).toBeGreaterThanOrEqual(0);
  const slip = slips.slice(start, slips.indexOf("Signature", start) + "Signature".length);
  expect(slip).toMatch(/Pending: not confirmed yet/i);
  expect(slip).toContain("Phone (202) 555-0177");
  expect(slip).toMatch(/Address \d+ Board Story St NW, Washington, DC 20001/);
  expect(slip).toContain("Notes Back door, ring twice");
  expect(slip).toContain(`${product.name} (10 pack) 2 $90.00`);
  expect(slip).toContain(`${product.name} (20 pack) 1 $80.00`);
  expect(slip).toContain("Total to collect: $170.00 (cash)");
  expect(slip).toContain("Check ID: name and 21+");
  expect(slip).toContain("Signature");
  expect(slips).not.toContain("Sign Out");
  await admin.close();
});

test("after 'Enable sound', a new order plays the chime and puts the count in the tab title", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(150_000);
  const product = await testProduct(browser, baseURL as string, "E2E Chime Chews");
  const admin = await browser.newContext({ baseURL });
  // Counts the tones the page makes, through the browser's own WebAudio.
  await admin.addInitScript(() => {
    const counted = window as unknown as { tones: number };
    counted.tones = 0;
    const original = AudioContext.prototype.createOscillator;
    AudioContext.prototype.createOscillator = function createOscillator(this: AudioContext) {
      counted.tones += 1;
      return original.call(this);
    };
  });
  const page = await admin.newPage();
  await signIn(page);
  await page.goto("/admin/orders");
  await expect(page).toHaveTitle("Incoming Orders | Admin");
  const tones = () => page.evaluate(() => (window as unknown as { tones: number }).tones);
  await page.getByRole("button", { name: "Enable sound" }).click();
  await expect(page.getByRole("button", { name: "Sound on" })).toHaveAttribute("aria-pressed", "true");
  // A first chime when sound is turned on, so staff hear what it sounds like.
  await expect.poll(tones).toBe(2);
  expect(await page.evaluate(() => window.localStorage.getItem("capital-grown-admin-sound"))).toBe("on");

  await placeOrder(browser, baseURL as string, {
    name: uniqueName("E2E Chime Customer"),
    slot: TWO_PM,
    lines: [{ productId: product.productId, sizeId: product.sizeId("20 pack"), quantity: 1 }],
  });
  await expect(page).toHaveTitle(/^\(\d+\) New orders · Incoming Orders \| Admin$/, { timeout: 40_000 });
  expect(await tones()).toBeGreaterThanOrEqual(4);
  await expect(page.getByRole("status").filter({ hasText: /new orders?/ })).toHaveCount(1);
  // Back at the page: the count is cleared; the choice is remembered after a reload.
  await page.mouse.click(5, 300);
  await expect(page).toHaveTitle("Incoming Orders | Admin");
  await page.reload();
  await expect(page.getByRole("button", { name: "Sound on" })).toBeVisible();
  await admin.close();
});

test("the dashboard shows today's orders, revenue and deliveries next to the all-time figures", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const product = await testProduct(browser, baseURL as string, "E2E Glance Bites");
  const admin = await browser.newContext({ baseURL });
  const page = await admin.newPage();
  await signIn(page);
  const today = page.getByRole("region", { name: "Today" });
  const figure = (label: string) =>
    today.getByText(label, { exact: true }).locator("xpath=following-sibling::p[1]");
  const placedBefore = Number((await figure("Orders today").textContent())?.replace(/,/g, ""));
  await expect(figure("Revenue today")).toHaveText(/^\$[\d,]+\.\d\d$/);
  await expect(today.getByText(/^Delivered today · \$[\d,]+\.\d\d expected/)).toBeVisible();
  await expect(today.getByText("Today's deliveries")).toBeVisible();
  await expect(page.getByText("All time", { exact: true })).toBeVisible();
  await expect(page.getByText("Total Revenue")).toBeVisible();

  await placeOrder(browser, baseURL as string, {
    name: uniqueName("E2E Glance Customer"),
    slot: FOUR_PM,
    lines: [{ productId: product.productId, sizeId: product.sizeId("20 pack"), quantity: 1 }],
  });
  await page.reload();
  // Placed today (for tomorrow): counted in today's orders, not in today's deliveries.
  const placedAfter = Number((await figure("Orders today").textContent())?.replace(/,/g, ""));
  expect(placedAfter).toBeGreaterThanOrEqual(placedBefore + 1);
  await admin.close();
});
