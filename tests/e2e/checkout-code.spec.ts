/**
 * P-36 and P-37 in the browser (record 054): with 'every order' on, the checkout texts a code to the
 * order's phone (Twilio's Messages API, here a loopback stand-in the server is pointed at), refuses a
 * wrong code and places the order with the right one; the shopper who ticked 'Text me updates' gets
 * the order-received text once. Its own server: the setting would change every other story's checkout.
 */
import { expect, test } from "@playwright/test";
import { eq } from "drizzle-orm";
import { openDatabase } from "#app/db/client.server.ts";
import { storeSettings } from "#app/db/schema.ts";
import { type RunningApp, startApp } from "../support/app-server.ts";
import { type LoopbackTwilio, startLoopbackTwilio } from "../support/loopback-twilio.ts";
import { createThrowawayDatabase } from "../support/throwaway-database.ts";
import { fillCheckout as fillForm } from "./checkout-form.ts";
import { passAgeGate } from "./support/storefront.ts";

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
const ACCOUNT_SID = `AC${"fedcba9876543210".repeat(2)}`;
const AUTH_TOKEN = "e2e-loopback-auth-token-0123456789";
const PHONE = "+12025550177";

test.describe("the code before an order", () => {
  test.skip(
    !TEST_DATABASE_URL,
    "needs TEST_DATABASE_URL (PostgreSQL: the test sets the Limits setting beside the server)",
  );
  let app: RunningApp | undefined;
  let twilio: LoopbackTwilio | undefined;

  test.afterAll(async () => {
    await app?.stop();
    await twilio?.close();
  });

  test("a wrong code is refused, the right one places the order, and the opted-in shopper gets one text", async ({
    page,
  }) => {
    test.setTimeout(150_000);
    const database = await createThrowawayDatabase(TEST_DATABASE_URL as string, "cg_code");
    twilio = await startLoopbackTwilio(ACCOUNT_SID, AUTH_TOKEN);
    app = await startApp({
      buildDir: process.env.E2E_BUILD_DIR as string,
      env: {
        DATABASE_URL: database.url,
        TWILIO_ACCOUNT_SID: ACCOUNT_SID,
        TWILIO_AUTH_TOKEN: AUTH_TOKEN,
        TWILIO_FROM: "+12025550100",
        TWILIO_API_URL: twilio.url,
      },
    });
    // 'Every order', as the owner's one click at Limits saves it.
    const helper = await openDatabase({
      kind: "postgres",
      url: database.url,
      applicationName: "cg-test-helper",
    });
    try {
      await helper.db
        .insert(storeSettings)
        .values({ key: "contact-verification", value: "every-order" })
        .onConflictDoUpdate({ target: storeSettings.key, set: { value: "every-order" } });
      const [saved] = await helper.db
        .select()
        .from(storeSettings)
        .where(eq(storeSettings.key, "contact-verification"));
      expect(saved?.value).toBe("every-order");
    } finally {
      await helper.close();
    }

    const base = app.url;
    await passAgeGate(page.context());
    // Each order another product: the first may have too few left for a second $80 order.
    const ordered: string[] = [];
    const shopper = {
      name: "Code Shopper",
      email: "code-shopper@example.com",
      phone: "(202) 555-0177",
      textMe: true,
    };
    const fillCheckout = async () => {
      ordered.push(await fillForm(page, base, shopper, ordered));
    };
    await fillCheckout();
    await page.getByRole("button", { name: /Place Order/ }).click();

    // The code step, in the same form: a text to the order's phone.
    await expect(page.getByRole("heading", { name: "Enter your code" })).toBeVisible();
    await expect(page.getByText("We texted a 6-digit code to (202) 555-0177.").first()).toBeVisible();
    await expect.poll(() => twilio?.received.filter((text) => text.to === PHONE).length).toBe(1);
    const code = /your code is (\d{6})/.exec(
      twilio.received.find((text) => text.to === PHONE)?.body ?? "",
    )?.[1];
    expect(code).toMatch(/^\d{6}$/);

    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, "0");
    await page.getByLabel("6-digit code").fill(wrong);
    await page.getByRole("button", { name: /Place Order/ }).click();
    await expect(page.getByText("That code is not right. 4 tries left.").first()).toBeVisible();
    await expect(page).toHaveURL(/\/checkout$/);

    await page.getByLabel("6-digit code").fill(code as string);
    await page.getByRole("button", { name: /Place Order/ }).click();
    await expect(page).toHaveURL(/\/thank-you\?order=[\w-]{32}$/, { timeout: 20_000 });

    // The order-received text, once (the code was the first text).
    await expect
      .poll(
        () =>
          twilio?.received.filter((text) => text.to === PHONE && text.body.includes("we got order")).length,
        {
          timeout: 15_000,
        },
      )
      .toBe(1);
    await page.waitForTimeout(1_500);
    expect(twilio.received.filter((text) => text.to === PHONE)).toHaveLength(2);

    // This device entered the right code: its next order with that phone needs none (30 days).
    await fillCheckout();
    await page.getByRole("button", { name: /Place Order/ }).click();
    await expect(page).toHaveURL(/\/thank-you\?order=[\w-]{32}$/, { timeout: 20_000 });
    expect(
      twilio.received.filter((text) => text.to === PHONE && text.body.includes("your code is")),
    ).toHaveLength(1);
  });
});
