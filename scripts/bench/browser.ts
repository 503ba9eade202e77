/**
 * Bench figures that need a real browser (Debian Chromium through playwright-core): first-load
 * JS/CSS of a page, and how long a price change saved in the admin takes to show on /shop.
 */
import { type Browser, chromium } from "playwright-core";
import { enrolOverHttp } from "../../tests/e2e/support/admin-sign-in.ts";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "../../tests/support/chromium.ts";
import { type FirstLoad, firstLoad } from "../../tests/support/first-load.ts";
import { ADMIN, sleep } from "./lib.ts";

export { CHROMIUM_FLAGS, type FirstLoad, firstLoad };

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_FLAGS,
  });
}

/**
 * Signs in to the admin and returns a page ready to edit products. The bench's admin is an owner,
 * who must set up two-factor sign-in first (record 033): each data set's admin is signed
 * in once, so it is enrolled over HTTP here, and its session goes into the browser.
 */
async function adminPage(browser: Browser, baseUrl: string) {
  const { cookie } = await enrolOverHttp(baseUrl, ADMIN);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addCookies(
    cookie.split("; ").map((pair) => {
      const [name, ...value] = pair.split("=");
      return { name: name as string, value: value.join("="), url: baseUrl };
    }),
  );
  const page = await context.newPage();
  await page.goto(`${baseUrl}/admin/products`);
  if (new URL(page.url()).pathname !== "/admin/products") {
    throw new Error(`The bench's admin session was not accepted (${page.url()})`);
  }
  return { page, close: () => context.close() };
}

/** Signs in to the admin in a browser and returns the session cookie as a Cookie header value. */
export async function adminCookie(browser: Browser, baseUrl: string): Promise<string> {
  const admin = await adminPage(browser, baseUrl);
  try {
    const cookies = await admin.page.context().cookies();
    return cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join("; ");
  } finally {
    await admin.close();
  }
}

export type Freshness = { samplesMs: number[]; medianMs: number; maxMs: number };

/**
 * Saves a new price for the first size of a product in the admin of `adminBase`, and measures the
 * time from the save's response (the change is committed) until /shop on every `observeBases`
 * shows it. The observed pages are warm in the page cache before each change.
 */
export async function priceChangeVisibility(
  browser: Browser,
  adminBase: string,
  observeBases: string[],
  rounds = 3,
): Promise<Freshness> {
  const admin = await adminPage(browser, adminBase);
  const samples: number[] = [];
  try {
    for (let round = 0; round < rounds; round++) {
      const dollars = (1.23 + round * 0.01 + Math.floor(Math.random() * 50) / 100).toFixed(2);
      const shown = `$${dollars}`;
      for (const base of observeBases) {
        for (let i = 0; i < 3; i++) await fetch(`${base}/shop`).then((r) => r.text());
        const before = await (await fetch(`${base}/shop`)).text();
        if (before.includes(shown)) throw new Error(`${shown} is already on /shop`);
      }
      const page = admin.page;
      // The newest product: first in the admin list and on /shop alike (both newest first).
      await page.goto(`${adminBase}/admin/products`);
      const edit = await page.locator('a[href^="/admin/products/edit/"]').first().getAttribute("href");
      await page.goto(`${adminBase}${edit}`);
      await page.locator('[id="field-sizes.0.price"]').fill(dollars);
      await page.locator('[id="field-sizes.0.salePrice"]').fill("");
      const saved = page.waitForResponse((response) => response.request().method() === "POST", {
        timeout: 30_000,
      });
      await page.getByRole("button", { name: "Update Product" }).click();
      const response = await saved;
      if (response.status() >= 400) throw new Error(`Saving the product answered ${response.status()}`);
      const committed = performance.now();
      let worst = 0;
      await Promise.all(
        observeBases.map(async (base) => {
          for (;;) {
            const html = await (await fetch(`${base}/shop`)).text();
            if (html.includes(shown)) break;
            if (performance.now() - committed > 10_000)
              throw new Error(`${shown} never showed on ${base}/shop`);
            await sleep(5);
          }
          worst = Math.max(worst, performance.now() - committed);
        }),
      );
      samples.push(worst);
      await page.waitForURL((url) => url.pathname === "/admin/products", { timeout: 30_000 }).catch(() => {});
    }
  } finally {
    await admin.close();
  }
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    samplesMs: samples,
    medianMs: sorted[Math.floor(sorted.length / 2)] ?? Number.NaN,
    maxMs: sorted.at(-1) ?? 0,
  };
}
