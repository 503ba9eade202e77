/**
 * Sensitive changes ask again (record 037), in a browser: an owner whose session proved its
 * password and code more than 10 minutes ago sees 'Confirm it's you' on their account and on the
 * two-factor page instead of the controls; a wrong code is refused; the password and a current
 * code open the controls (new recovery codes); and the owner signs out their other browser from
 * the account page, which finds itself at the sign-in page at its next request.
 *
 * The 10 minutes are made to pass by moving the sessions' last check back in the database: this
 * story starts a server of its own on a throwaway PostgreSQL database.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { sql } from "drizzle-orm";
import { type DatabaseHandle, openDatabase } from "#app/db/client.server.ts";
import { LOAD_TEST_BUDGETS, type RunningApp, startApp } from "../support/app-server.ts";
import { createThrowawayDatabase } from "../support/throwaway-database.ts";
import { knownTotpSecret, signInAs, totpCode } from "./support/admin-sign-in.ts";

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
const OWNER = { email: "sudo-owner@capitalgrown.test", password: "Sudo-Owner-Lantern-64" };
const SCREENSHOTS = process.env.SUDO_SCREENSHOTS;
const PERIOD_MS = 30_000;

async function screenshots(page: Page, name: string) {
  if (!SCREENSHOTS) return;
  mkdirSync(SCREENSHOTS, { recursive: true });
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test.describe("sudo mode", () => {
  test.skip(!TEST_DATABASE_URL, "needs TEST_DATABASE_URL (PostgreSQL)");

  test("an owner confirms password and code before new recovery codes, and signs out another browser", async ({
    browser,
  }) => {
    test.setTimeout(240_000);
    const database = await createThrowawayDatabase(TEST_DATABASE_URL as string, "cg_sudo");
    let app: RunningApp | undefined;
    let helper: DatabaseHandle | undefined;
    try {
      app = await startApp({
        buildDir: process.env.E2E_BUILD_DIR as string,
        env: {
          DATABASE_URL: database.url,
          SEED_DEMO_COUNT: "4",
          ADMIN_EMAIL: OWNER.email,
          ADMIN_PASSWORD: OWNER.password,
          ...LOAD_TEST_BUDGETS,
        },
      });
      helper = await openDatabase({ kind: "postgres", url: database.url, applicationName: "cg-test-helper" });

      // Two browsers signed in as the owner (the first sign-in sets up the second factor).
      const desk = await (await browser.newContext({ baseURL: app.url })).newPage();
      await signInAs(desk, OWNER);
      const laptopContext = await browser.newContext({
        baseURL: app.url,
        userAgent:
          "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15",
      });
      const laptop = await laptopContext.newPage();
      await signInAs(laptop, OWNER);
      const secret = knownTotpSecret(app.url, OWNER.email) as string;

      // Just signed in: the sign-in was the check, the controls are there.
      await desk.goto("/admin/account");
      await expect(
        desk.getByText(/^Confirmed: you can change your password and two-factor sign-in until/),
      ).toBeVisible();
      await expect(desk.getByRole("button", { name: "New recovery codes" })).toBeVisible();
      await screenshots(desk, "account-confirmed");

      // Eleven minutes later (moved in the database), the same pages ask first.
      await helper.db.execute(
        sql`UPDATE admin_sessions SET reauthenticated_at = now() - interval '11 minutes'`,
      );
      await desk.goto("/admin/account/two-factor");
      await expect(desk.getByRole("heading", { name: "Confirm it's you" })).toBeVisible();
      await expect(desk.getByTestId("totp-secret")).toHaveCount(0);
      await screenshots(desk, "two-factor-confirm");
      await desk.goto("/admin/account");
      await expect(desk.getByRole("heading", { name: "Confirm it's you" })).toBeVisible();
      await expect(desk.getByRole("button", { name: "New recovery codes" })).toHaveCount(0);
      await expect(desk.getByLabel("Current password")).toHaveCount(0);
      await screenshots(desk, "account-confirm");

      await desk.getByLabel("Your password").fill(OWNER.password);
      await desk.getByLabel("Code from your app, or a recovery code").fill("000000");
      await desk.getByRole("button", { name: "Confirm", exact: true }).click();
      await expect(desk.getByText("The password or the code is not right.")).toBeVisible();
      await screenshots(desk, "account-confirm-refused");

      // A step no sign-in used: the next one, once the current step has turned.
      await desk.waitForTimeout(PERIOD_MS - (Date.now() % PERIOD_MS) + 200);
      await desk.getByLabel("Your password").fill(OWNER.password);
      await desk
        .getByLabel("Code from your app, or a recovery code")
        .fill(totpCode(secret, Date.now() + PERIOD_MS));
      await desk.getByRole("button", { name: "Confirm", exact: true }).click();
      await expect(desk.getByText(/^Confirmed: you can change/)).toBeVisible();
      await desk.getByRole("button", { name: "New recovery codes" }).click();
      await expect(desk.getByTestId("recovery-codes").getByRole("listitem")).toHaveCount(10);

      // The other browser, signed out from here: its next request is the sign-in page.
      const sessions = desk.getByTestId("account-session");
      await expect(sessions).toHaveCount(2);
      await sessions
        .filter({ hasText: "Safari on macOS" })
        .getByRole("button", { name: /^Sign out/ })
        .click();
      await expect(desk.getByText("Signed out that session.")).toBeVisible();
      await expect(sessions).toHaveCount(1);
      await screenshots(desk, "account-session-ended");
      await laptop.goto("/admin/orders");
      await expect(laptop).toHaveURL(/\/admin\/login/);
      await desk.goto("/admin/orders");
      await expect(desk).toHaveURL(/\/admin\/orders$/);
    } finally {
      await helper?.close().catch(() => {});
      await app?.stop();
      await database.drop();
    }
  });
});
