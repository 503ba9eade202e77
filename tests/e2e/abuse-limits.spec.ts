/**
 * The per-address budgets and the sign-in throttle (P-29 and P-30) against a server of its
 * own, started with the default limits and no TRUST_PROXY (the shared e2e server raises them).
 */
import http from "node:http";
import { expect, type Page, test } from "@playwright/test";
import { type RunningApp, startApp } from "../support/app-server.ts";
import { pngBytes, tomorrowInStore } from "./admin-support.ts";

const OWNER = { email: "owner@abuse-limits.test", password: "owner-password-1" };

let app: RunningApp;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  app = await startApp({
    buildDir: process.env.E2E_BUILD_DIR as string,
    env: { ADMIN_EMAIL: OWNER.email, ADMIN_PASSWORD: OWNER.password, SEED_DEMO: "true" },
  });
});

test.afterAll(async () => {
  await app?.stop();
});

/** A request from a browser on the shop's own pages, claiming to come from `forwardedFor`. */
function sameOriginHeaders(forwardedFor: string) {
  return { Origin: app.url, "Sec-Fetch-Site": "same-origin", "X-Forwarded-For": forwardedFor };
}

test("the 21st ID photo upload in an hour gets 429 with Retry-After, however X-Forwarded-For rotates", async () => {
  const png = await pngBytes(64, 40);
  const statuses: number[] = [];
  let refusal: Response | undefined;
  for (let i = 0; i < 21; i++) {
    const form = new FormData();
    form.set("idFront", new File([new Uint8Array(png)], "id.png", { type: "image/png" }));
    const response = await fetch(`${app.url}/api/id-photo`, {
      method: "POST",
      body: form,
      headers: sameOriginHeaders(`203.0.113.${i}, 198.51.100.${i}`),
    });
    statuses.push(response.status);
    if (response.status === 429) refusal = response;
    else await response.arrayBuffer();
  }
  expect(statuses.slice(0, 20)).toEqual(Array(20).fill(200));
  expect(statuses[20]).toBe(429);
  const retryAfter = Number(refusal?.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThan(3000);
  expect(retryAfter).toBeLessThanOrEqual(3600);
  expect(await refusal?.json()).toEqual({
    error: expect.stringMatching(
      /^Too many photo uploads from this connection\. Please try again in \d+ minutes\.$/,
    ),
  });
});

test("cart price checks beyond 120 a minute get 429 JSON with Retry-After, however X-Forwarded-For rotates", async () => {
  const statuses: number[] = [];
  let refusal: Response | undefined;
  for (let i = 0; i < 121; i++) {
    const response = await fetch(`${app.url}/api/cart-prices?size=${crypto.randomUUID()}`, {
      headers: { "X-Forwarded-For": `203.0.113.${i}` },
    });
    statuses.push(response.status);
    if (response.status === 429) refusal = response;
    else await response.arrayBuffer();
  }
  expect(statuses.slice(0, 120).every((status) => status === 200)).toBe(true);
  expect(statuses[120]).toBe(429);
  expect(Number(refusal?.headers.get("retry-after"))).toBeGreaterThan(0);
  expect(await refusal?.json()).toEqual({ error: "Too many requests. Please try again shortly." });
});

type Line = { productId: string; sizeId: string; quantity: number };

/** Demo products in stock with enough of each in the cart for the $80 minimum, one at a time. */
async function* cartsWorthOrdering(page: Page): AsyncGenerator<Line> {
  await page.goto(`${app.url}/`);
  await page.evaluate(() => window.localStorage.setItem("capital-grown-age-verified", "yes"));
  await page.goto(`${app.url}/shop`);
  const hrefs = await page
    .locator('main a[href^="/product/"]')
    .evaluateAll((links) => [...new Set(links.map((link) => link.getAttribute("href") ?? ""))]);
  for (const href of hrefs) {
    await page.evaluate(() => window.localStorage.removeItem("capital-grown-cart"));
    await page.goto(`${app.url}${href}`);
    const addButton = page.getByRole("button", { name: "Add to Cart" });
    if (!(await addButton.isVisible()) || (await addButton.isDisabled())) continue;
    await addButton.click();
    await expect(page.getByText("Added to cart").first()).toBeVisible();
    // Enough of it for the $80 minimum, written back to the stored cart.
    const line = await page.evaluate(() => {
      const [first] = JSON.parse(window.localStorage.getItem("capital-grown-cart") ?? "[]");
      if (!first) return null;
      const unit =
        first.salePriceCents !== null && first.salePriceCents < first.priceCents
          ? first.salePriceCents
          : first.priceCents;
      first.quantity = Math.ceil(8000 / unit);
      window.localStorage.setItem("capital-grown-cart", JSON.stringify([first]));
      return first as Line;
    });
    if (line && line.quantity <= 4) yield line;
  }
  throw new Error("no demo product in stock");
}

/** An order as a browser without JavaScript posts it; returns the response status. */
async function postOrder(line: Line, email: string, photo: Buffer) {
  const form = new FormData();
  const fields = {
    name: "Hoarding Harry",
    email,
    phone: "(202) 555-0177",
    address: "1 Hoard St NW",
    city: "Washington",
    state: "DC",
    zipCode: "20001",
    notes: "",
    deliveryDate: tomorrowInStore(),
    timeSlot: "12:00 PM-2:00 PM",
    ageConfirmed: "on",
    idempotencyKey: crypto.randomUUID(),
    items: JSON.stringify([line]),
  };
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  form.set("idFront", new File([new Uint8Array(photo)], "id.png", { type: "image/png" }));
  // From another loopback address: the first story spent 127.0.0.1's hourly ID photo budget, and
  // every photo decoded at checkout counts against it too.
  const encoded = new Request(`${app.url}/checkout`, { method: "POST", body: form });
  const body = Buffer.from(await encoded.arrayBuffer());
  const { hostname, port } = new URL(app.url);
  return new Promise<number>((resolve, reject) => {
    const request = http.request(
      {
        hostname,
        port,
        localAddress: "127.0.0.2",
        path: "/checkout",
        method: "POST",
        headers: {
          "Content-Type": encoded.headers.get("Content-Type") as string,
          "Content-Length": body.byteLength,
          Origin: app.url,
          "Sec-Fetch-Site": "same-origin",
        },
      },
      (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode ?? 0));
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

test("a 3rd open order for one phone number is refused on the checkout page, the form kept", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const id = await pngBytes(640, 400, "#7eb394");
  // Two orders already placed with this number (demo stock is small: sold-out products are skipped).
  let placed = 0;
  for await (const line of cartsWorthOrdering(page)) {
    while (placed < 2) {
      const status = await postOrder(line, `order${placed}@abuse-limits.test`, id);
      if (status !== 302) break;
      placed += 1;
    }
    if (placed === 2) break;
  }
  expect(placed).toBe(2);

  await page.goto(`${app.url}/checkout`);
  await page.getByText("In-person delivery").first().click();
  await page.getByLabel("Full name").fill("Hoarding Harry");
  await page.getByLabel("Email").fill("third@abuse-limits.test");
  await page.getByLabel("Phone").fill("202.555.0177");
  await page.getByLabel("Street address").fill("1 Hoard St NW");
  await page.getByLabel("City").fill("Washington");
  await page.getByLabel("ZIP code").fill("20001");
  await page
    .getByLabel(/Upload front of ID/)
    .setInputFiles({ name: "id.png", mimeType: "image/png", buffer: id });
  await page.getByRole("checkbox", { name: /21 years of age or older/ }).check();
  await page.getByRole("button", { name: /Place Order/ }).click();

  const message =
    "You already have 2 open orders with this phone number. We can take a new one once one of them is delivered — or call us at (202) 555-0142.";
  await expect(page.getByText("Too many open orders")).toBeVisible();
  await expect(page.getByLabel("Phone")).toHaveAccessibleDescription(message);
  await expect(page).toHaveURL(/\/checkout$/);
  await expect(page.getByLabel("Full name")).toHaveValue("Hoarding Harry");
});

test("a search beyond the per-minute budget is a plain 429 page that keeps Retry-After", async ({ page }) => {
  for (let i = 0; i < 60; i++) {
    const response = await fetch(`${app.url}/shop?q=kush`, {
      headers: { "X-Forwarded-For": `203.0.113.${i}` },
    });
    expect(response.status).toBe(200);
    // A search is never answered from the page cache: the budget sees every one.
    expect(response.headers.get("x-cache")).toBeNull();
    await response.arrayBuffer();
  }
  const refused = await fetch(`${app.url}/flower?q=haze`, { headers: { "X-Forwarded-For": "192.0.2.200" } });
  expect(refused.status).toBe(429);
  expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
  expect(await refused.text()).toContain("Too many searches from this connection.");
  // The catalogue without a search still works, from the cache.
  expect((await fetch(`${app.url}/shop`)).status).toBe(200);

  const response = await page.goto(`${app.url}/shop?q=kush`);
  expect(response?.status()).toBe(429);
  expect(response?.headers()["retry-after"]).toMatch(/^\d+$/);
  await expect(page.getByRole("heading", { name: "Too many requests" })).toBeVisible();
  await expect(
    page.getByText(/Too many searches from this connection\. Please try again in \d+ seconds\./),
  ).toBeVisible();
  await expect(page.getByRole("link", { name: "Return to Home" })).toBeVisible();
});

test("sign-in: the 6th attempt from one address is refused with 429 and Retry-After on the page", async ({
  page,
}) => {
  const post = (password: string, forwardedFor: string) =>
    fetch(`${app.url}/admin/login`, {
      method: "POST",
      redirect: "manual",
      headers: { ...sameOriginHeaders(forwardedFor), "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: OWNER.email, password, redirectTo: "" }),
    });
  for (let i = 0; i < 5; i++) {
    const wrong = await post(`wrong-password-${i}`, `203.0.113.${i}`);
    expect(wrong.status).toBe(401);
    await wrong.arrayBuffer();
  }
  // A form post without JavaScript gets the page back: status 429, Retry-After, the message.
  const refused = await post(OWNER.password, "198.51.100.77");
  expect(refused.status).toBe(429);
  expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(14 * 60);
  expect(await refused.text()).toContain("Too many sign-in attempts. Please wait 15 minutes and try again.");

  // With JavaScript the page says the same.
  await page.goto(`${app.url}/admin/login`);
  await page.getByLabel("Email").fill(OWNER.email);
  await page.getByLabel("Password").fill(OWNER.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Too many sign-in attempts" })).toBeVisible();
});

test("behind a trusted proxy (TRUST_PROXY), each forwarded client address has its own budget", async () => {
  const proxied = await startApp({
    buildDir: process.env.E2E_BUILD_DIR as string,
    env: { SEED_DEMO: "false", TRUST_PROXY: "loopback", CART_PRICES_PER_MINUTE: "2" },
  });
  try {
    const check = async (client: string) => {
      const response = await fetch(`${proxied.url}/api/cart-prices`, {
        headers: { "X-Forwarded-For": client },
      });
      await response.arrayBuffer();
      return response.status;
    };
    expect([await check("203.0.113.1"), await check("203.0.113.1"), await check("203.0.113.1")]).toEqual([
      200, 200, 429,
    ]);
    expect(await check("203.0.113.2")).toBe(200);
  } finally {
    await proxied.stop();
  }
});
