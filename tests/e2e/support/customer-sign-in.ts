/**
 * A customer's sign-in in the stories (record 053): the code is read from the mail the server wrote
 * to its outbox folder (no SMTP_URL), the newest to that address.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { expect, type Page } from "@playwright/test";

/** The 6-digit code of the newest sign-in mail to `email` in `dataDir`'s outbox folder. */
export async function codeFromOutbox(dataDir: string, email: string, after = 0) {
  const folder = path.join(dataDir, "outbox");
  let code: string | undefined;
  await expect(async () => {
    const mails = readdirSync(folder)
      .filter((name) => name.endsWith(".eml"))
      .map((name) => path.join(folder, name))
      .filter((file) => statSync(file).mtimeMs >= after)
      .map((file) => ({ file, text: readFileSync(file, "utf8"), at: statSync(file).mtimeMs }))
      .filter((mail) => new RegExp(`^To:.*${email.replace(/[.+]/g, "\\$&")}`, "im").test(mail.text))
      .filter((mail) => /^Subject:.*sign-in code/im.test(mail.text))
      .sort((a, b) => a.at - b.at);
    code = /^Subject:\s*(\d{6}) is your/im.exec(mails.at(-1)?.text ?? "")?.[1];
    expect(code).toBeTruthy();
  }).toPass({ timeout: 20_000 });
  return code as string;
}

/** Signs in on `page` with a code e-mailed to `email`; ends on /account. */
export async function signInWithCode(page: Page, dataDir: string, email: string) {
  const asked = Date.now() - 1000;
  await page.goto("/account/sign-in");
  await page.getByLabel("E-mail address").fill(email);
  await page.getByRole("button", { name: "E-mail me a code" }).click();
  await expect(page.getByText(`We sent a code to ${email}`)).toBeVisible();
  await page.getByLabel("6-digit code").fill(await codeFromOutbox(dataDir, email, asked));
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Your account" })).toBeVisible();
}
