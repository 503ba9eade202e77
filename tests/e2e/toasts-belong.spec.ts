/**
 * A toast belongs to the page that raised it: a failed sign-in's 'Login Failed' does not follow the
 * owner to the code page after the right password; the dashboard's welcome does not
 * greet a driver on the board (the invitation story in staff-accounts.spec.ts signs one in); the
 * order's 'Order Placed Successfully!' leaves when the customer goes on to cancel (checkout-kept-work.spec.ts).
 */
import { expect, test } from "@playwright/test";
import { rememberE2eAdminSecret } from "./admin-support.ts";
import { enterSignInCode } from "./support/admin-sign-in.ts";
import { E2E_ADMIN } from "./support/global-setup.ts";

test("'Login Failed' stays on the sign-in page: the code page after the right password starts clean", async ({
  browser,
}) => {
  const baseURL = process.env.E2E_BASE_URL as string;
  rememberE2eAdminSecret();
  const context = await browser.newContext({ baseURL, viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto("/admin/login");
  await page.getByLabel("Email").fill(E2E_ADMIN.email);
  await page.getByLabel("Password").fill("not-the-password-1");
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page.getByText("Login Failed")).toBeVisible();

  await page.getByLabel("Password").fill(E2E_ADMIN.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/admin\/login\/code$/);
  // At once: the failed try's toast would otherwise stay its full four seconds over the new page.
  await expect(page.getByText("Login Failed")).toHaveCount(0, { timeout: 1_000 });

  await enterSignInCode(page, process.env.E2E_ADMIN_TOTP_SECRET as string);
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  // The owner's sign-in opens the dashboard: the spec's welcome, there.
  await expect(page.getByText("Login Successful")).toBeVisible();
  await expect(page.getByText("Welcome to the admin dashboard!")).toBeVisible();
  // On a phone the toast sits over the header, not over the page's own buttons.
  const box = await page.getByText("Login Successful").boundingBox();
  expect(box?.y ?? 1000).toBeLessThan(200);
  await context.close();
});
