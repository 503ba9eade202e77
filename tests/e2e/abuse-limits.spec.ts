/**
 * The per-address budgets and the sign-in throttle (decisions 29 and 30) against a server of its
 * own, started with the default limits and no TRUST_PROXY (the shared e2e server raises them).
 */
import { expect, test } from "@playwright/test";
import { type RunningApp, startApp } from "../support/app-server.ts";
import { pngBytes } from "./admin-support.ts";

const OWNER = { email: "owner@abuse-limits.test", password: "owner-password-1" };

let app: RunningApp;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  app = await startApp({
    buildDir: process.env.E2E_BUILD_DIR as string,
    env: { ADMIN_EMAIL: OWNER.email, ADMIN_PASSWORD: OWNER.password, SEED_DEMO: "false" },
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
