/**
 * Staff accounts (P-27): the owner invites a manager, who accepts, sets a
 * password, sets up two-factor sign-in (the test computes the codes from the secret the page
 * shows) and signs in again with password and code; five wrong codes end a sign-in attempt; a
 * recovery code works once; deactivating someone ends their open session at their next request.
 *
 * The invitation goes out over SMTP (its link is never stored, record 036): this story runs a
 * server of its own that sends to a loopback SMTP server.
 */
import { type Browser, expect, type Page, test } from "@playwright/test";
import { startApp } from "../support/app-server.ts";
import { startLoopbackSmtp } from "../support/loopback-smtp.ts";
import { signIn } from "./admin-support.ts";
import { enterSignInCode, knownTotpSecret, signInAs } from "./support/admin-sign-in.ts";
import { invitationPath } from "./support/invitation-mail.ts";
import { uniqueName } from "./support/storefront.ts";

async function signOut(page: Page) {
  await page.getByRole("banner").getByRole("button", { name: "Sign Out" }).click();
  await expect(page).toHaveURL(/\/admin\/login$/);
}

async function passwordStep(page: Page, account: { email: string; password: string }) {
  await page.goto("/admin/login");
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/admin\/login\/code$/);
}

const OWNER = { email: "accounts-owner@capitalgrown.test", password: "Accounts-Owner-Kettle-64" };

test("an invited manager sets a password and two-factor sign-in; codes, recovery codes and deactivation", async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const smtp = await startLoopbackSmtp();
  const app = await startApp({
    buildDir: process.env.E2E_BUILD_DIR as string,
    env: {
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      SEED_DEMO: "false",
      ADMIN_EMAIL: OWNER.email,
      ADMIN_PASSWORD: OWNER.password,
    },
  });
  try {
    await story(browser, app.url, smtp);
  } finally {
    await app.stop();
    await smtp.close();
  }
});

async function story(browser: Browser, baseURL: string, smtp: Awaited<ReturnType<typeof startLoopbackSmtp>>) {
  const slug = uniqueName("mgr").replace(/\W+/g, "-").toLowerCase();
  const manager = { email: `${slug}@capitalgrown.test`, password: "Window-Basil-Orbit-42" };

  // The owner invites a manager.
  const ownerContext = await browser.newContext({ baseURL });
  const page = await ownerContext.newPage();
  await signInAs(page, OWNER);
  await page.getByRole("link", { name: "Staff", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Staff", exact: true })).toBeVisible();
  await page.getByLabel("Email").fill(manager.email);
  await page.getByLabel("First name").fill("Mona");
  await page.getByLabel("Role").first().selectOption("manager");
  await page.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByText(`Invitation sent to ${manager.email}.`)).toBeVisible();
  await expect(page.getByRole("list", { name: "Pending invitations" })).toContainText(manager.email);
  // The form is empty again, ready for the next invitation.
  await expect(page.getByLabel("Email")).toHaveValue("");
  await expect(page.getByLabel("First name")).toHaveValue("");
  const link = await invitationPath(manager.email, smtp);

  // The manager opens the link in a browser of their own and chooses a password.
  const managerContext = await browser.newContext({ baseURL });
  const mgr = await managerContext.newPage();
  await mgr.goto(link);
  await expect(mgr.getByRole("heading", { name: /^Join / })).toBeVisible();
  await mgr.getByLabel("Password", { exact: true }).fill("short-one");
  await mgr.getByLabel("Password again").fill("short-one");
  await mgr.getByRole("button", { name: "Set password" }).click();
  await expect(mgr.getByText("Use at least 12 characters")).toBeVisible();
  await mgr.getByLabel("Password", { exact: true }).fill("Unbelievable");
  await mgr.getByLabel("Password again").fill("Unbelievable");
  await mgr.getByRole("button", { name: "Set password" }).click();
  await expect(mgr.getByText("This password is too common. Choose another one.")).toBeVisible();
  await mgr.getByLabel("Password", { exact: true }).fill(manager.password);
  await mgr.getByLabel("Password again").fill(manager.password);
  await mgr.getByRole("button", { name: "Set password" }).click();
  await expect(mgr).toHaveURL(/\/admin\/login\?notice=password-set$/);
  await expect(mgr.getByText("Your password is set. Sign in with it.")).toBeVisible();
  // The link worked once.
  await mgr.goto(link);
  await expect(mgr.getByRole("alert")).toHaveText(/already used/);

  // First sign-in: a manager must set up two-factor sign-in before anything else opens.
  await mgr.goto("/admin/login");
  await mgr.getByLabel("Email").fill(manager.email);
  await mgr.getByLabel("Password").fill(manager.password);
  await mgr.getByRole("button", { name: "Sign In" }).click();
  await expect(mgr).toHaveURL(/\/admin\/account\/two-factor$/);
  // The welcome toast waits for a sign-in that reaches the dashboard; it would cover this page's buttons.
  await expect(mgr.getByRole("heading", { name: "Two-factor sign-in" })).toBeVisible();
  await mgr.waitForLoadState("networkidle"); // a toast's lazy chunk would have loaded by now
  // Counted once, not retried: a toast that was there would be gone after its 4 s.
  expect(await mgr.getByText("Login Successful").count()).toBe(0);
  await mgr.goto("/admin/products");
  await expect(mgr).toHaveURL(/\/admin\/account\/two-factor$/);
  await expect(mgr.locator("svg").first()).toBeVisible();
  const { enrolSecondFactor } = await import("./support/admin-sign-in.ts");
  const { recoveryCodes } = await enrolSecondFactor(mgr, manager.email);
  expect(recoveryCodes).toHaveLength(10);
  await mgr.getByRole("link", { name: "I have saved them, continue" }).click();
  await expect(mgr).toHaveURL(/\/admin\/dashboard$/);

  // Out and in again: password, then the code.
  await signOut(mgr);
  await signInAs(mgr, manager);
  await expect(mgr).toHaveURL(/\/admin\/dashboard$/);
  await expect(mgr.getByText("Login Successful")).toBeVisible();

  // Five wrong codes end the attempt.
  await signOut(mgr);
  await passwordStep(mgr, manager);
  for (let i = 1; i <= 4; i++) {
    await mgr.getByLabel("Code").fill("000000");
    await mgr.getByRole("button", { name: "Verify" }).click();
    await expect(mgr.getByText(`${5 - i} ${i === 4 ? "try" : "tries"} left`)).toBeVisible();
  }
  await mgr.getByLabel("Code").fill("000000");
  await mgr.getByRole("button", { name: "Verify" }).click();
  await expect(mgr).toHaveURL(/\/admin\/login\?notice=locked$/);
  await expect(mgr.getByText("Too many wrong codes. Sign in again.")).toBeVisible();

  // A recovery code signs in once, and not twice.
  const recovery = recoveryCodes[0] as string;
  await passwordStep(mgr, manager);
  await mgr.getByLabel("Code").fill(recovery);
  await mgr.getByRole("button", { name: "Verify" }).click();
  await expect(mgr).toHaveURL(/\/admin\/dashboard$/);
  await mgr.goto("/admin/account");
  await expect(mgr.getByText("On. 9 of 10 recovery codes left.")).toBeVisible();
  await signOut(mgr);
  await passwordStep(mgr, manager);
  await mgr.getByLabel("Code").fill(recovery);
  await mgr.getByRole("button", { name: "Verify" }).click();
  await expect(mgr.getByText("That code is not right. 4 tries left.")).toBeVisible();
  await enterSignInCode(mgr, knownTotpSecret(new URL(baseURL).origin, manager.email) as string);
  await expect(mgr).toHaveURL(/\/admin\/dashboard$/);

  // The owner deactivates the manager: their open session ends at its next request.
  await page.goto("/admin/staff");
  const row = page.getByTestId("staff-member").filter({ hasText: manager.email });
  await expect(row).toContainText("Manager");
  await expect(row).toContainText("2FA on");
  await row.getByRole("button", { name: "Deactivate" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText(`Deactivate ${manager.email}?`);
  await dialog.getByRole("button", { name: "Deactivate" }).click();
  await expect(page.getByText(`${manager.email} was deactivated and signed out everywhere.`)).toBeVisible();
  await expect(row).toContainText("Deactivated");
  await mgr.goto("/admin/orders");
  await expect(mgr).toHaveURL(/\/admin\/login/);
  await managerContext.close();
  await ownerContext.close();
}

test("without a mail server the owner is shown the invitation link once, copies it, and the invitee joins with it", async ({
  browser,
}) => {
  // The shared e2e server has no SMTP_URL: mail goes to the outbox folder, never with the link.
  const slug = uniqueName("drv").replace(/\W+/g, "-").toLowerCase();
  const driverEmail = `${slug}@capitalgrown.test`;
  const baseURL = process.env.E2E_BASE_URL as string;
  const ownerContext = await browser.newContext({
    baseURL,
    permissions: ["clipboard-read", "clipboard-write"],
  });
  const page = await ownerContext.newPage();
  await signIn(page);
  await page.goto("/admin/staff");
  await page.getByLabel("Email").fill(driverEmail);
  await page.getByLabel("First name").fill("Dee");
  await page.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByText(/no mail server is set up/)).toBeVisible();
  const field = page.getByLabel("Invitation link");
  const link = await field.inputValue();
  expect(link).toMatch(/\/admin\/invitation\/[\w-]{43}$/);
  await page.getByRole("button", { name: "Copy link" }).click();
  await expect(page.getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: test.info().outputPath(`invitation-link-${width}.png`), fullPage: true });
    if (process.env.SHOTS_DIR) {
      await page.screenshot({
        path: `${process.env.SHOTS_DIR}/invitation-link-${width}.png`,
        fullPage: true,
      });
    }
  }
  // Shown once: the page loaded again has no link.
  await page.reload();
  await expect(page.getByLabel("Invitation link")).toHaveCount(0);

  const invitee = await (await browser.newContext({ baseURL })).newPage();
  await invitee.goto(new URL(link).pathname);
  await expect(invitee.getByRole("heading", { name: /^Join / })).toBeVisible();
  await invitee.getByLabel("Password", { exact: true }).fill("Copper-Lantern-Basil-77");
  await invitee.getByLabel("Password again").fill("Copper-Lantern-Basil-77");
  await invitee.getByRole("button", { name: "Set password" }).click();
  await expect(invitee).toHaveURL(/\/admin\/login\?notice=password-set$/);
  // The driver signs in with the password chosen there and opens the day's board: greeted there,
  // not with the dashboard's welcome (a toast belongs to the page it is for).
  await invitee.setViewportSize({ width: 390, height: 844 });
  await invitee.getByLabel("Email").fill(driverEmail);
  await invitee.getByLabel("Password").fill("Copper-Lantern-Basil-77");
  await invitee.getByRole("button", { name: "Sign In" }).click();
  await expect(invitee).toHaveURL(/\/admin\/today/);
  await expect(invitee.getByText("Login Successful")).toBeVisible();
  await expect(invitee.getByText("Welcome to the admin dashboard!")).toHaveCount(0);

  // The outbox does not call the invitation 'sent': no mail server took it, it went to the folder.
  await page.setViewportSize({ width: 1280, height: 900 });
  const invitationMail = page.getByRole("listitem").filter({ hasText: `To ${driverEmail}` });
  await expect(async () => {
    await page.goto("/admin/outbox");
    await expect(invitationMail.getByText("written to the outbox folder")).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await expect(invitationMail.getByText("sent", { exact: true })).toHaveCount(0);

  // An invitation sent by mistake is withdrawn: it leaves the pending list.
  const mistaken = `${slug}-x@capitalgrown.test`;
  await page.goto("/admin/staff");
  await page.getByLabel("Email").fill(mistaken);
  await page.getByLabel("First name").fill("Oops");
  await page.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByLabel("Invitation link")).toBeVisible();
  await page.getByRole("button", { name: `Withdraw the invitation to ${mistaken}` }).click();
  await expect(
    page.getByText(`The invitation to ${mistaken} is withdrawn: its link no longer works.`),
  ).toBeVisible();
  await expect(page.getByRole("list", { name: "Pending invitations" }).getByText(mistaken)).toHaveCount(0);
  await ownerContext.close();
});
