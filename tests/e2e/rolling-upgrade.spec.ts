/**
 * Rolling upgrades (docs/decisions/038-rolling-upgrades.md), against the real built server: an
 * instance whose build is older than its database (a newer version migrated it) refuses writes with
 * 503 and says why on /readyz; a generated ID photo key is announced at every start and on the
 * owner's dashboard until an owner confirms it is backed up.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { migrationsFolder } from "#app/db/client.server.ts";
import { buildSchemaVersion } from "#app/db/schema-version.server.ts";
import { type RunningApp, startApp } from "../support/app-server.ts";
import { createThrowawayDatabase } from "../support/throwaway-database.ts";
import { signInAs } from "./support/admin-sign-in.ts";

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
const BUILD_DIR = () => process.env.E2E_BUILD_DIR as string;

/** A sign-in post as a browser on the shop's own page sends it: a write, whatever it answers. */
function postSignIn(app: RunningApp) {
  return fetch(`${app.url}/admin/login`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: app.url },
    body: new URLSearchParams({ email: "nobody@capitalgrown.test", password: "not-the-password" }),
    redirect: "manual",
  });
}

test.describe("an instance older than its database", () => {
  test.skip(!TEST_DATABASE_URL, "needs TEST_DATABASE_URL (PostgreSQL)");

  test("takes no more writes once a newer version has migrated the database: 503 on posts, /readyz 503 with the reason, pages still served", async () => {
    test.setTimeout(180_000);
    const database = await createThrowawayDatabase(TEST_DATABASE_URL as string, "cg_rolling");
    let app: RunningApp | undefined;
    const helper = new pg.Client({ connectionString: database.url, application_name: "cg-test-helper" });
    try {
      app = await startApp({
        buildDir: BUILD_DIR(),
        env: {
          DATABASE_URL: database.url,
          SEED_DEMO: "false",
          ID_PHOTO_KEY: randomBytes(32).toString("base64"),
          ADMIN_EMAIL: "rolling@capitalgrown.test",
          ADMIN_PASSWORD: "rolling-upgrade-password",
        },
      });
      await helper.connect();
      // Its connections say which build opened them.
      const build = buildSchemaVersion(migrationsFolder());
      const { rows: names } = await helper.query<{ application_name: string }>(
        "SELECT DISTINCT application_name FROM pg_stat_activity WHERE datname = current_database() AND application_name LIKE 'capital-grown%'",
      );
      expect(names.map((row) => row.application_name)).toEqual([`capital-grown/${build.when}/${build.tag}`]);

      expect((await fetch(`${app.url}/readyz`)).status).toBe(200);
      expect((await postSignIn(app)).status).not.toBe(503);

      // What the first instance of the next version does when it starts: one more migration.
      await helper.query("INSERT INTO drizzle.__drizzle_migrations (hash, created_at) VALUES ($1, $2)", [
        "the-next-version",
        build.when + 60_000,
      ]);

      const ready = await fetch(`${app.url}/readyz`);
      expect(ready.status).toBe(503);
      const body = (await ready.json()) as Record<string, string>;
      expect(body.schema).toBe("newer than this build: stop this instance");
      expect(body.message).toContain(
        `The database's schema is newer than this build (which knows migrations up to ${build.tag})`,
      );
      expect(body.database).toBe("reachable");

      const refused = await postSignIn(app);
      expect(refused.status).toBe(503);
      expect(refused.headers.get("retry-after")).toBe("30");
      expect(await refused.text()).toContain("We'll be right back");
      // Pages are still served (the load balancer, told by /readyz, sends shoppers elsewhere).
      expect((await fetch(`${app.url}/shop`)).status).toBe(200);
      expect(app.logs()).toContain("The database's schema is newer than this build");
    } finally {
      await app?.stop();
      await helper.end().catch(() => {});
      await database.drop();
    }
  });
});

test("a generated ID photo key: warned at every start and shown to the owner until an owner confirms it is backed up", async ({
  browser,
}, testInfo) => {
  test.setTimeout(240_000);
  const dataDir = mkdtempSync(path.join(tmpdir(), "cg-key-backup-"));
  const owner = { email: "key-owner@capitalgrown.test", password: "key-owner-password" };
  const env = {
    SEED_DEMO: "false",
    ID_PHOTO_KEY: undefined,
    ADMIN_EMAIL: owner.email,
    ADMIN_PASSWORD: owner.password,
  };
  const reminder = "no owner has confirmed it is backed up";
  let app: RunningApp | undefined;
  try {
    app = await startApp({ buildDir: BUILD_DIR(), dataDir, env });
    expect(app.logs()).toContain("Generated the ID photo encryption key");
    expect(app.logs()).toContain(reminder);
    await app.stop();
    // Every start, not only the one that generated it.
    app = await startApp({ buildDir: BUILD_DIR(), dataDir, env });
    expect(app.logs()).not.toContain("Generated the ID photo encryption key");
    expect(app.logs()).toContain(reminder);

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await signInAs(page, owner, { loginUrl: `${app.url}/admin/login` });
    await page.goto(`${app.url}/admin/dashboard`);
    const banner = page.getByTestId("key-backup-banner");
    await expect(banner).toBeVisible();
    await expect(banner).toContainText("This shop's ID-photo key was generated on this server. Back it up");
    await expect(banner).toContainText(path.join(dataDir, "keys", "id-photo.key"));
    await page.screenshot({ path: testInfo.outputPath("key-backup-banner-1280.png") });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: testInfo.outputPath("key-backup-banner-390.png") });
    await banner.screenshot({ path: testInfo.outputPath("key-backup-banner-390-banner.png") });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);

    await banner.getByRole("button", { name: "I have backed up the key" }).click();
    await expect(banner).toHaveCount(0);
    await page.reload();
    await expect(page.getByRole("heading", { name: "Admin Dashboard" })).toBeVisible();
    await expect(page.getByTestId("key-backup-banner")).toHaveCount(0);
    await context.close();

    await app.stop();
    app = await startApp({ buildDir: BUILD_DIR(), dataDir, env });
    expect(app.logs()).not.toContain(reminder);
  } finally {
    await app?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
