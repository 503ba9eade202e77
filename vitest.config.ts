import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["app/**/*.test.{ts,tsx}", "tests/**/*.test.ts", "scripts/**/*.test.ts"],
    globalSetup: ["tests/setup/global-database.ts"],
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Database tests run their PGlite and PostgreSQL suites one after the other in each file.
    sequence: { concurrent: false },
    // Many tests place orders for the same date and slot: each slot's capacity (P-22) is
    // raised through the configuration, as an operator would; the capacity tests set their own
    // at /admin/settings/delivery's store (saveDeliverySettings).
    env: { DELIVERY_SLOT_CAPACITY: "1000000" },
  },
});
