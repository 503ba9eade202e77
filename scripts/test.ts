/**
 * `npm test`: every check a change must pass, in order of cost. Stops at the first failure.
 * Unit and integration tests also run against PostgreSQL when TEST_DATABASE_URL is set.
 */
import { spawnSync } from "node:child_process";

const steps: Array<[string, string[]]> = [
  ["typecheck", ["npm", "run", "--silent", "typecheck"]],
  ["lint", ["npm", "run", "--silent", "lint"]],
  ["unit and integration tests (Vitest)", ["vitest", "run"]],
  ["end-to-end tests (Playwright, Chromium)", ["playwright", "test"]],
];

const only = process.argv.slice(2);
for (const [name, [command, ...args]] of steps) {
  if (only.length > 0 && !only.some((word) => name.includes(word))) continue;
  console.log(`\n▶ ${name}`);
  const started = Date.now();
  const result = spawnSync(command as string, args, { stdio: "inherit" });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) {
    console.error(`✗ ${name} failed after ${seconds} s`);
    process.exit(result.status ?? 1);
  }
  console.log(`✓ ${name} (${seconds} s)`);
}
