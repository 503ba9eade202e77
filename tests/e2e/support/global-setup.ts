import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildApp, LOAD_TEST_BUDGETS, startApp } from "../../support/app-server.ts";
import { enrolOverHttp } from "./admin-sign-in.ts";

export const E2E_ADMIN = { email: "e2e-admin@capitalgrown.test", password: "e2e-password-123" };

/** One production build and one server with a fresh, seeded data folder for the whole e2e run. */
export default async function globalSetup() {
  const workDir = mkdtempSync(path.join(tmpdir(), "cg-e2e-"));
  // The server bundle imports its dependencies from node_modules: it must be built inside the project.
  const buildRoot = path.resolve(import.meta.dirname, "../../../node_modules/.cache/capital-grown");
  mkdirSync(buildRoot, { recursive: true });
  const buildDir = mkdtempSync(path.join(buildRoot, "e2e-build-"));
  buildApp(buildDir);
  const app = await startApp({
    buildDir,
    dataDir: path.join(workDir, "data"),
    // Seeding the demo catalogue on a busy 2-core machine can take longer than the default 90 s.
    startTimeoutMs: 240_000,
    env: {
      ADMIN_EMAIL: E2E_ADMIN.email,
      ADMIN_PASSWORD: E2E_ADMIN.password,
      SEED_DEMO: "true",
      // Every story shops from 127.0.0.1, often with the same details: the per-address budgets and
      // the open-orders limit (P-29) are raised for this shared server through the
      // configuration; tests/e2e/abuse-limits.spec.ts starts its own server with the defaults.
      MAX_OPEN_ORDERS: "1000",
      ...LOAD_TEST_BUDGETS,
    },
  });
  process.env.E2E_BASE_URL = app.url;
  // The admin is an owner: two-factor sign-in is set up once here, and every story computes its
  // codes from this secret (tests/e2e/support/admin-sign-in.ts).
  process.env.E2E_ADMIN_TOTP_SECRET = (await enrolOverHttp(app.url, E2E_ADMIN)).secret;
  process.env.E2E_BUILD_DIR = buildDir;
  process.env.E2E_DATA_DIR = app.dataDir;
  return async () => {
    await app.stop();
    rmSync(workDir, { recursive: true, force: true });
    rmSync(buildDir, { recursive: true, force: true });
  };
}
