/**
 * Signing in to the back office as the stories do it, through the real forms (P-27):
 * password, then the code of the second factor computed with `otpauth` from the secret the
 * enrolment page showed; an account that has not set up its second factor yet is enrolled on the
 * way. A code's 30-second step is accepted once, so a second sign-in within the same step gives
 * the next step's code (accepted within the one-step window) or waits for the next step.
 */
import { createHash } from "node:crypto";
import { mkdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, type Page } from "@playwright/test";
import * as OTPAuth from "otpauth";

export type StaffAccount = { email: string; password: string };

const PERIOD_MS = 30_000;
/** Secrets this worker learnt (or global setup exported), by server origin and e-mail. */
const secrets = new Map<string, string>();
const secretKey = (origin: string, email: string) => `${origin}|${email.toLowerCase()}`;

export function rememberTotpSecret(origin: string, email: string, secret: string) {
  secrets.set(secretKey(origin, email), secret.replace(/\s/g, ""));
}

export function knownTotpSecret(origin: string, email: string) {
  return secrets.get(secretKey(origin, email));
}

export function totpCode(secret: string, timestamp = Date.now()) {
  return OTPAuth.TOTP.generate({ secret: OTPAuth.Secret.fromBase32(secret.replace(/\s/g, "")), timestamp });
}

const onPath = (path: string) => (url: URL) => url.pathname === path;

/**
 * Types the code on the second step. The first try is the current step's code; if another sign-in
 * used that step, the next step's; if that was used too, it waits for the next step (3 tries, fewer
 * than the 5 wrong codes that end an attempt). Sign-ins of one account take turns across workers,
 * so the third try always has a step nobody used.
 */
export async function enterSignInCode(page: Page, secret: string) {
  // The workers share the accounts: one sign-in of an account at a time, or two of them can use up
  // each other's steps (three refusals in a row were seen with two workers under load).
  const release = await lockAccount(secret);
  try {
    await enterCodeWhileLocked(page, secret);
  } finally {
    release();
  }
}

/** A lock across the test processes, per account (by its secret): a folder made atomically. */
async function lockAccount(secret: string) {
  const name = createHash("sha256").update(secret).digest("hex").slice(0, 16);
  const lock = path.join(tmpdir(), `cg-e2e-sign-in-${name}`);
  const deadline = Date.now() + 4 * PERIOD_MS;
  for (;;) {
    try {
      mkdirSync(lock);
      return () => rmSync(lock, { recursive: true, force: true });
    } catch {
      // Left by a process that died mid sign-in (one sign-in takes at most about a minute).
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 3 * PERIOD_MS || Date.now() > deadline) rmSync(lock, { recursive: true, force: true });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

async function enterCodeWhileLocked(page: Page, secret: string) {
  const tries = [0, PERIOD_MS, PERIOD_MS];
  const errorText = async () => (await page.locator("#code-error").allTextContents()).join("");
  for (const [index, ahead] of tries.entries()) {
    if (index === 2) await page.waitForTimeout(PERIOD_MS - (Date.now() % PERIOD_MS) + 200);
    // A refused code changes the message ('… 4 tries left.', then 3, …), an accepted one the page.
    const before = await errorText();
    await page.getByLabel("Code").fill(totpCode(secret, Date.now() + ahead));
    await page.getByRole("button", { name: "Verify" }).click();
    let outcome = "waiting";
    await expect
      .poll(
        async () => {
          if (new URL(page.url()).pathname !== "/admin/login/code") outcome = "in";
          else {
            const now = await errorText();
            if (now && now !== before) outcome = "refused";
          }
          return outcome;
        },
        { timeout: 20_000 },
      )
      .not.toBe("waiting");
    if (outcome === "in") return;
  }
  throw new Error("The second step refused three codes in a row");
}

/** On the enrolment page: reads the secret, confirms a code, returns the recovery codes shown once. */
export async function enrolSecondFactor(page: Page, email: string) {
  const secret = ((await page.getByTestId("totp-secret").textContent()) ?? "").replace(/\s/g, "");
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await page.getByLabel("Code from the app").fill(totpCode(secret));
  await page.getByRole("button", { name: "Turn on two-factor sign-in" }).click();
  const list = page.getByTestId("recovery-codes");
  await expect(list).toBeVisible();
  const recoveryCodes = await list.getByRole("listitem").allTextContents();
  rememberTotpSecret(new URL(page.url()).origin, email, secret);
  return { secret, recoveryCodes };
}

/**
 * Signs in at `loginUrl` (default: the page's base URL) and returns on the page the sign-in leads
 * to (the dashboard unless `redirectTo` said otherwise); enrols the second factor on the way when
 * the account has none yet.
 */
export async function signInAs(page: Page, account: StaffAccount, options: { loginUrl?: string } = {}) {
  await page.goto(options.loginUrl ?? "/admin/login");
  const origin = new URL(page.url()).origin;
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await page.waitForURL((url) => url.pathname !== "/admin/login");
  let enrolment: { secret: string; recoveryCodes: string[] } | undefined;
  if (onPath("/admin/login/code")(new URL(page.url()))) {
    const secret = knownTotpSecret(origin, account.email);
    if (!secret) throw new Error(`No known second factor for ${account.email} on ${origin}`);
    await enterSignInCode(page, secret);
  }
  if (onPath("/admin/account/two-factor")(new URL(page.url()))) {
    enrolment = await enrolSecondFactor(page, account.email);
    await page.getByRole("link", { name: "I have saved them, continue" }).click();
    await page.waitForURL((url) => url.pathname !== "/admin/account/two-factor");
  }
  return { enrolment };
}

// --- Over HTTP (global setup, scripts of the stories) -----------------------------------------

function cookiesOf(response: Response) {
  return response.headers.getSetCookie().map((value) => value.split(";")[0] as string);
}

function hiddenValue(html: string, name: string) {
  const match = new RegExp(`name="${name}"[^>]*value="([^"]*)"`).exec(html);
  if (!match?.[1]) throw new Error(`The page has no ${name} field`);
  return match[1].replaceAll("&amp;", "&");
}

/**
 * Signs `account` in over HTTP and sets up its second factor (it must have none yet); returns
 * the secret and the session's cookie (signed in, enrolled). What global setup does once for the
 * shared e2e admin.
 */
export async function enrolOverHttp(baseUrl: string, account: StaffAccount) {
  const login = await fetch(`${baseUrl}/admin/login`, {
    method: "POST",
    headers: { Origin: baseUrl },
    body: new URLSearchParams(account),
    redirect: "manual",
  });
  const cookie = cookiesOf(login)
    .filter((value) => value.startsWith("cg_admin_session="))
    .join("; ");
  if (!cookie) throw new Error(`Signing in ${account.email} gave no session (${login.status})`);
  const page = await fetch(`${baseUrl}/admin/account/two-factor`, {
    headers: { cookie, accept: "text/html" },
  });
  const html = await page.text();
  const secret = /data-testid="totp-secret"[^>]*>([^<]+)</.exec(html)?.[1]?.replace(/\s/g, "");
  if (!secret) throw new Error(`The enrolment page showed no secret (${page.status})`);
  const confirm = await fetch(`${baseUrl}/admin/account/two-factor`, {
    method: "POST",
    headers: { cookie, Origin: baseUrl },
    body: new URLSearchParams({
      csrf: hiddenValue(html, "csrf"),
      pending: hiddenValue(html, "pending"),
      code: totpCode(secret),
    }),
    redirect: "manual",
  });
  if (confirm.status !== 200) throw new Error(`Confirming the second factor answered ${confirm.status}`);
  return { secret, cookie };
}
