import { defineConfig } from "@playwright/test";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "./tests/support/chromium.ts";

export default defineConfig({
  testDir: "tests/e2e",
  testMatch: "**/*.spec.ts",
  globalSetup: "./tests/e2e/support/global-setup.ts",
  fullyParallel: false,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL: process.env.E2E_BASE_URL,
    browserName: "chromium",
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_FLAGS,
    },
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
  outputDir: "test-results",
  projects: [
    { name: "stories", testIgnore: /hostile-traffic\.spec\.ts/ },
    // The ID-photo burst measures /healthz latency and the server's memory: with another story
    // loading the two cores beside it, it measures that story instead. It runs alone, last.
    { name: "alone", testMatch: /hostile-traffic\.spec\.ts/, dependencies: ["stories"] },
  ],
});
