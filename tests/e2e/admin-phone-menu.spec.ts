/**
 * The admin on a phone (record 048): at 390 px the sections no longer scroll sideways out of sight;
 * a 'Menu' button opens a panel with every section the role may open, each reachable, none of the
 * pages wider than the screen, and the one 'Sign Out'. Owner, manager and driver each sign in on a
 * server of this story's own (PostgreSQL), the manager and driver put straight into its database.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { type DatabaseHandle, openDatabase } from "#app/db/client.server.ts";
import { adminUsers, type StaffRole } from "#app/db/schema.ts";
import { navigationFor } from "#app/features/staff/admin-routes.ts";
import { hashPassword } from "#app/features/staff/passwords.server.ts";
import { type RunningApp, startApp } from "../support/app-server.ts";
import { createThrowawayDatabase } from "../support/throwaway-database.ts";
import { signInAs } from "./support/admin-sign-in.ts";

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
const SHOTS = process.env.ADMIN_SHOTS_DIR;
const ACCOUNTS: Record<StaffRole, { email: string; password: string }> = {
  owner: { email: "phone-owner@capitalgrown.test", password: "Phone-Owner-Lantern-73" },
  manager: { email: "phone-manager@capitalgrown.test", password: "Phone-Manager-Cedar-91" },
  driver: { email: "phone-driver@capitalgrown.test", password: "Phone-Driver-Maple-58" },
};

async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

/** The page is no wider than the screen: nothing to scroll sideways. */
async function expectNoSidewaysScroll(page: Page) {
  const widths = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    screen: window.innerWidth,
  }));
  expect(widths.page, `${page.url()} is wider than the screen`).toBeLessThanOrEqual(widths.screen);
}

test.describe("the admin on a phone", () => {
  test.skip(!TEST_DATABASE_URL, "needs TEST_DATABASE_URL (PostgreSQL)");

  test("every section of each role is in the phone's menu and opens without sideways scrolling; one Sign Out", async ({
    browser,
  }) => {
    test.setTimeout(300_000);
    const database = await createThrowawayDatabase(TEST_DATABASE_URL as string, "cg_phone");
    let app: RunningApp | undefined;
    let helper: DatabaseHandle | undefined;
    try {
      app = await startApp({
        buildDir: process.env.E2E_BUILD_DIR as string,
        env: {
          DATABASE_URL: database.url,
          SEED_DEMO_COUNT: "6",
          ADMIN_EMAIL: ACCOUNTS.owner.email,
          ADMIN_PASSWORD: ACCOUNTS.owner.password,
        },
      });
      helper = await openDatabase({ kind: "postgres", url: database.url, applicationName: "cg-test-helper" });
      for (const role of ["manager", "driver"] as const) {
        await helper.db.insert(adminUsers).values({
          email: ACCOUNTS[role].email,
          passwordHash: await hashPassword(ACCOUNTS[role].password),
          role,
          firstName: role === "driver" ? "Dee" : "Milo",
        });
      }

      for (const role of ["owner", "manager", "driver"] as const) {
        const context = await browser.newContext({ baseURL: app.url, viewport: { width: 390, height: 844 } });
        const page = await context.newPage();
        await signInAs(page, ACCOUNTS[role]);
        const sections = navigationFor(role);
        const banner = page.getByRole("banner");
        // The sections are not squeezed into the top bar: the menu holds them.
        await expect(banner.getByRole("navigation", { name: "Admin" })).toBeHidden();
        await expect(banner.getByRole("button", { name: "Sign Out" })).toBeHidden();

        for (const [index, section] of sections.entries()) {
          await banner.getByRole("button", { name: "Menu" }).click();
          const menu = page.getByRole("dialog", { name: "Admin menu" });
          await expect(menu).toBeVisible();
          if (index === 0) {
            // Exactly the role's sections, each a 44 px target, and the one Sign Out.
            const links = menu.getByRole("navigation", { name: "Admin" }).getByRole("link");
            await expect(links).toHaveText(sections.map((link) => link.label));
            for (const box of await links.evaluateAll((all) =>
              all.map((link) => link.getBoundingClientRect().height),
            ))
              expect(box).toBeGreaterThanOrEqual(44);
            await expect(page.getByRole("button", { name: "Sign Out" })).toHaveCount(1);
            await shot(page, `admin-menu-${role}-390`);
          }
          await menu.getByRole("link", { name: section.label, exact: true }).click();
          await expect(menu).toBeHidden();
          await page.waitForURL((url) => url.pathname === section.to);
          await expect(page.getByText("You don't have access to this page")).toHaveCount(0);
          await expect(page.locator("main")).toBeVisible();
          await expectNoSidewaysScroll(page);
          // The driver's run is a page of its own, without the admin header: back to the admin.
          if (!section.to.startsWith("/admin")) {
            await expect(page.getByRole("heading", { name: "Today's run" })).toBeVisible();
            await page.goto(sections.find((link) => link.to.startsWith("/admin"))?.to ?? "/admin/today");
          }
          if (section.to === "/admin/dashboard") {
            // One Sign Out on the dashboard too (it had its own beside the header's).
            await expect(page.getByRole("button", { name: "Sign Out" })).toHaveCount(0);
            await shot(page, "admin-dashboard-390");
          }
        }

        // Escape closes the menu and gives focus back to its button.
        await banner.getByRole("button", { name: "Menu" }).click();
        await page.keyboard.press("Escape");
        await expect(page.getByRole("dialog", { name: "Admin menu" })).toBeHidden();
        await expect(banner.getByRole("button", { name: "Menu" })).toBeFocused();

        // On a wide screen the sections sit in the top bar, with the one Sign Out.
        await page.setViewportSize({ width: 1280, height: 900 });
        await expect(banner.getByRole("button", { name: "Menu" })).toBeHidden();
        await expect(banner.getByRole("navigation", { name: "Admin" }).getByRole("link")).toHaveText(
          sections.map((link) => link.label),
        );
        await expect(page.getByRole("button", { name: "Sign Out" })).toHaveCount(1);
        if (role === "owner") {
          await page.goto("/admin/dashboard");
          await expect(page.getByRole("button", { name: "Sign Out" })).toHaveCount(1);
          await shot(page, "admin-dashboard-1280");
        }

        // Signing out from the phone's menu.
        await page.setViewportSize({ width: 390, height: 844 });
        await banner.getByRole("button", { name: "Menu" }).click();
        await page
          .getByRole("dialog", { name: "Admin menu" })
          .getByRole("button", { name: "Sign Out" })
          .click();
        await expect(page).toHaveURL(/\/admin\/login/);
        await context.close();
      }
    } finally {
      await helper?.close();
      await app?.stop();
      await database.drop();
    }
  });
});
