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
  },
});
