/**
 * Customer accounts (record 053) as stories: sign in with the code from the outbox (a wrong code
 * refused first), a guest order that joins the account once the e-mail is verified, 'Order again',
 * deleting the account leaving the order anonymised, no way into anything of staff, and a passkey
 * added and used through Chromium's virtual authenticator. Protections stay on: the code's tries
 * and the per-address budgets are the defaults (the shared server raises only the order budgets).
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { type RunningApp, startApp } from "../support/app-server.ts";
import { placeOrderByPost } from "./admin-support.ts";
import { codeFromOutbox, signInWithCode } from "./support/customer-sign-in.ts";
import { createProducts, passAgeGate, sizeIdFromCart, uniqueName } from "./support/storefront.ts";

const SHOTS = path.resolve(import.meta.dirname, "../../test-results/customer-accounts-screens");

async function shoot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

const dataDir = () => process.env.E2E_DATA_DIR as string;

test("a guest order joins the account after the code, 'Order again' fills the cart, and deleting the account anonymises the order", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(150_000);
  const email = `returning-${Date.now()}@example.com`;
  const productName = uniqueName("E2E Again Kush");
  const [productId] = await createProducts(browser, baseURL as string, [
    {
      name: productName,
      category: "Edibles",
      sizes: [{ size: "10 pack", price: "45.00", inventoryCount: 30 }],
    },
  ]);
  const context = await browser.newContext({ baseURL });
  await passAgeGate(context);
  const sizeId = await sizeIdFromCart(context, productId as string);
  // A guest order with the address, placed before any account exists.
  const orderPage = await placeOrderByPost(context.request, {
    name: "Rita Returning",
    email,
    productId: productId as string,
    sizeId,
    quantity: 2,
  });

  const page = await context.newPage();
  // The header's 'Sign in' is the same link for everyone; /account sends a signed-out visitor to sign in.
  await page.goto("/");
  await page.getByRole("link", { name: "Sign in" }).first().click();
  await expect(page).toHaveURL(/\/account\/sign-in$/);
  await shoot(page, "sign-in");

  // A wrong code is refused with the tries left; the right one signs in.
  const asked = Date.now() - 1000;
  await page.getByLabel("E-mail address").fill(email);
  await page.getByRole("button", { name: "E-mail me a code" }).click();
  await expect(page.getByText(`We sent a code to ${email}`)).toBeVisible();
  const code = await codeFromOutbox(dataDir(), email, asked);
  await page.getByLabel("6-digit code").fill(code === "123456" ? "654321" : "123456");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByText("That code is not right. 4 tries left.")).toBeVisible();
  await shoot(page, "sign-in-wrong-code");
  await page.getByLabel("6-digit code").fill(code);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Your account" })).toBeVisible();
  await expect(
    page.getByText("1 earlier order placed with this e-mail is now in your account."),
  ).toBeVisible();

  // The guest order is there, with its status and timeline.
  const card = page
    .getByRole("listitem")
    .filter({ has: page.getByRole("button", { name: "Order again" }) })
    .filter({ hasText: `2 × ${productName} (10 pack)` });
  await expect(card).toBeVisible();
  await expect(card.getByText("Pending", { exact: true })).toBeVisible();
  await expect(card.getByRole("list", { name: "Timeline" })).toContainText("Placed");

  // The session cookie goes to the account and checkout only, never to a cached catalogue page.
  const cookies = await context.cookies();
  const session = cookies.filter((cookie) => cookie.name === "cg_customer_session");
  expect(session.map((cookie) => cookie.path).sort()).toEqual([
    "/account",
    "/account.data",
    "/checkout",
    "/checkout.data",
  ]);
  expect(session.every((cookie) => cookie.httpOnly && cookie.sameSite === "Lax")).toBe(true);
  // …and it opens nothing of staff.
  for (const url of ["/admin/dashboard", "/admin/orders", "/driver"]) {
    const response = await context.request.get(url, {
      maxRedirects: 0,
      headers: { Cookie: `cg_customer_session=${session[0]?.value}` },
    });
    // Refused as signed out: to the sign-in page (a document) or 401 (anything else).
    if (response.status() === 302) expect(response.headers().location).toMatch(/^\/admin\/login/);
    else expect(response.status(), url).toBe(401);
  }

  // 'Order again': the cart gets the size at today's price.
  const cartButton = page.getByRole("button", { name: /^Open cart/ }).first();
  const before = Number(/(\d+) item/.exec((await cartButton.getAttribute("aria-label")) ?? "")?.[1] ?? 0);
  await card.getByRole("button", { name: "Order again" }).click();
  await expect(card.getByText("In your cart at today's prices.")).toBeVisible();
  await expect(cartButton).toHaveAttribute("aria-label", `Open cart, ${before + 2} items`);
  await shoot(page, "account");

  // The signed-in checkout is prefilled with the account's e-mail.
  await page.goto("/checkout");
  await expect(page.getByLabel("Email", { exact: false }).first()).toHaveValue(email);

  // An open order keeps the account; cancelled, the account can go and the order stays anonymised.
  await page.goto("/account");
  await page.getByLabel("I want to delete my account").check();
  await page.getByRole("button", { name: "Delete my account" }).click();
  await expect(page.getByText("An order of yours is still open.")).toBeVisible();
  await page.goto(orderPage);
  await page.getByRole("link", { name: "Cancel order" }).click();
  await page.getByRole("button", { name: "Yes, cancel my order" }).click();
  await expect(page.getByRole("heading", { name: "Your order is cancelled" })).toBeVisible();
  await page.goto("/account");
  await page.getByLabel("I want to delete my account").check();
  await page.getByRole("button", { name: "Delete my account" }).click();
  await expect(page.getByText("Your account is deleted")).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  // The order's page still answers, without the customer's name.
  await page.goto(orderPage);
  await expect(page.getByText("Rita")).toHaveCount(0);
  // And the account is gone: /account asks to sign in again.
  await page.goto("/account");
  await expect(page).toHaveURL(/\/account\/sign-in$/);
  await context.close();
});

test.describe("passkeys", () => {
  let app: RunningApp;
  let origin: string;
  test.beforeAll(async () => {
    test.setTimeout(240_000);
    // A passkey's relying party is a domain: this server's PUBLIC_URL is http://localhost:<port>.
    app = await startApp({ buildDir: process.env.E2E_BUILD_DIR as string, publicHost: "localhost" });
    origin = app.url.replace("127.0.0.1", "localhost");
  });
  test.afterAll(async () => {
    await app?.stop();
  });

  test("a customer adds a passkey after the first sign-in and signs in with it", async ({ browser }) => {
    test.setTimeout(120_000);
    const context = await browser.newContext({ baseURL: origin });
    await passAgeGate(context);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("WebAuthn.enable");
    await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: {
        protocol: "ctap2",
        transport: "internal",
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    const email = `passkey-${Date.now()}@example.com`;
    await signInWithCode(page, app.dataDir, email);
    await page.getByRole("button", { name: "Add a passkey" }).click();
    await expect(page.getByText("Passkey added", { exact: true })).toBeVisible();
    await expect(page.getByText(/^Passkey added \w/)).toBeVisible();

    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page.getByText("You are signed out")).toBeVisible();
    await page.goto("/account/sign-in");
    await shoot(page, "sign-in-with-passkey");
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    await expect(page.getByRole("heading", { name: "Your account" })).toBeVisible();
    await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
    await expect(page.getByText(/last used/)).toBeVisible();
    await context.close();
  });
});
