import { expect, type Page, test } from "@playwright/test";
import { createProducts, passAgeGate, uniqueName } from "./support/storefront.ts";

test.beforeAll(async ({ browser }) => {
  await createProducts(browser, process.env.E2E_BASE_URL as string, [
    {
      name: uniqueName("E2E Carousel Haze"),
      category: "Flower",
      strain: "Sativa",
      isFeatured: true,
      sizes: [{ size: "3.5g", price: "40.00" }],
    },
    {
      name: uniqueName("E2E Carousel Kush"),
      category: "Flower",
      strain: "Indica",
      isFeatured: true,
      sizes: [{ size: "3.5g", price: "42.00" }],
    },
  ]);
});

test.beforeEach(async ({ context }) => passAgeGate(context));

function firstShownSlide(page: Page) {
  return page
    .getByRole("region", { name: "Featured flower", exact: true })
    .locator('li[aria-roledescription="slide"]:not([aria-hidden])')
    .first();
}

test("the Flower carousel advances every 3 s, then stops for good once the shopper uses the arrows", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  // Playwright's clock: the page's timers run on a clock the test moves, so no test sleeps.
  await page.clock.install();
  await page.goto("/");
  const carousel = page.getByRole("region", { name: "Featured flower", exact: true });
  await expect(carousel).toBeVisible();
  await expect(firstShownSlide(page)).toHaveAttribute("aria-label", /^1 of \d+$/);
  // Autoplay moves it on by itself after 3 s.
  await page.clock.runFor(3_100);
  await expect(firstShownSlide(page)).toHaveAttribute("aria-label", /^2 of \d+$/);
  await carousel.getByRole("button", { name: "Previous slide" }).click();
  await expect(firstShownSlide(page)).toHaveAttribute("aria-label", /^1 of \d+$/);
  // Stopped: it stays put well past the 3 s interval.
  await page.clock.runFor(10_000);
  await expect(firstShownSlide(page)).toHaveAttribute("aria-label", /^1 of \d+$/);
  // Off-screen slides are out of the tab order.
  await expect(carousel.locator('li[aria-hidden="true"]').first()).toHaveAttribute("inert", "");
});

test("carousels do not move by themselves for shoppers who prefer reduced motion", async ({ browser }) => {
  const context = await browser.newContext({
    baseURL: process.env.E2E_BASE_URL,
    reducedMotion: "reduce",
    viewport: { width: 390, height: 844 },
  });
  await passAgeGate(context);
  const page = await context.newPage();
  await page.clock.install();
  await page.goto("/");
  await expect(firstShownSlide(page)).toHaveAttribute("aria-label", /^1 of \d+$/);
  await page.clock.runFor(10_000);
  await expect(firstShownSlide(page)).toHaveAttribute("aria-label", /^1 of \d+$/);
  await page
    .getByRole("region", { name: "Featured flower", exact: true })
    .getByRole("button", { name: "Next slide" })
    .click();
  await expect(firstShownSlide(page)).toHaveAttribute("aria-label", /^2 of \d+$/);
  await context.close();
});
