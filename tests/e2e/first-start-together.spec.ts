/**
 * Instances started at the same moment on one empty PostgreSQL database (compose.yaml's first
 * `docker compose up`): each applies the migrations, seeds the demo catalogue and creates the first
 * owner only if no other instance did. Ten rounds of four instances, each round on a database of
 * its own: every instance comes up, the migrations are recorded once, the catalogue is there once,
 * and there is exactly one owner, announced by exactly one instance.
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { verifyPassword } from "#app/features/staff/passwords.server.ts";
import { type RunningApp, startApp } from "../support/app-server.ts";
import { createThrowawayDatabase } from "../support/throwaway-database.ts";

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
const ROUNDS = 10;
const INSTANCES = 4;
const JOURNAL = path.resolve(import.meta.dirname, "../../drizzle/meta/_journal.json");

test.describe("instances starting together", () => {
  test.skip(!TEST_DATABASE_URL, "needs TEST_DATABASE_URL (PostgreSQL)");

  test(`${INSTANCES} instances started at once on an empty database, ${ROUNDS} times: all come up, one owner, one catalogue, migrations once`, async () => {
    test.setTimeout(ROUNDS * 90_000);
    const migrations = (JSON.parse(readFileSync(JOURNAL, "utf8")) as { entries: unknown[] }).entries.length;
    for (let round = 0; round < ROUNDS; round++) {
      // One round seeds the full demo catalogue (its images take seconds: a wide window); the others a
      // small one. Every other round leaves ADMIN_EMAIL/ADMIN_PASSWORD unset: the generated password
      // is then printed once, by the instance that created the owner, and it is the one that works.
      const seedCount = round === 0 ? undefined : 4;
      const configured = round % 2 === 0;
      const owner = { email: `owner-${round}@capitalgrown.test`, password: `first-start-${round}-password` };
      const database = await createThrowawayDatabase(TEST_DATABASE_URL as string, "cg_together");
      const shared = {
        DATABASE_URL: database.url,
        COOKIE_SECRET: randomBytes(32).toString("base64"),
        ID_PHOTO_KEY: randomBytes(32).toString("base64"),
        ADMIN_EMAIL: configured ? owner.email : undefined,
        ADMIN_PASSWORD: configured ? owner.password : undefined,
        LOG_LEVEL: "info",
        SEED_DEMO: "true",
        SEED_DEMO_COUNT: seedCount === undefined ? undefined : String(seedCount),
      };
      const started = await Promise.allSettled(
        Array.from({ length: INSTANCES }, () =>
          startApp({ buildDir: process.env.E2E_BUILD_DIR as string, env: shared, startTimeoutMs: 150_000 }),
        ),
      );
      const apps = started.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
      const client = new pg.Client({ connectionString: database.url, application_name: "cg-test-helper" });
      try {
        const failures = started.flatMap((result) =>
          result.status === "rejected" ? [String(result.reason).slice(0, 2_000)] : [],
        );
        expect(failures, `round ${round}`).toEqual([]);
        for (const app of apps) {
          expect((await fetch(`${app.url}/readyz`)).status, `round ${round}: /readyz`).toBe(200);
        }

        await client.connect();
        const applied = await client.query<{ hash: string }>("SELECT hash FROM drizzle.__drizzle_migrations");
        expect(applied.rows.length, `round ${round}: migrations recorded`).toBe(migrations);
        expect(new Set(applied.rows.map((row) => row.hash)).size).toBe(migrations);

        const productRows = await client.query<{ name: string }>("SELECT name FROM products");
        const names = productRows.rows.map((row) => row.name);
        expect(names.length, `round ${round}: products`).toBe(seedCount ?? 64);
        expect(new Set(names).size, `round ${round}: distinct product names`).toBe(names.length);

        const admins = await client.query<{ email: string; role: string; password_hash: string }>(
          "SELECT email, role, password_hash FROM admin_users",
        );
        expect(
          admins.rows.map(({ email, role }) => ({ email, role })),
          `round ${round}: admins`,
        ).toEqual([{ email: configured ? owner.email : "admin@localhost", role: "owner" }]);

        const announcements = apps.flatMap((app) =>
          app
            .logs()
            .split("\n")
            .filter((line) => line.includes("Created the admin account")),
        );
        expect(announcements, `round ${round}: owner announced once`).toHaveLength(1);
        const password = configured
          ? owner.password
          : /with the password (\S+)/.exec(announcements[0] as string)?.[1];
        expect(password, `round ${round}: printed password`).toBeDefined();
        expect(await verifyPassword(admins.rows[0]?.password_hash as string, password as string)).toBe(true);
      } finally {
        await client.end().catch(() => {});
        await Promise.all(apps.map((app: RunningApp) => app.stop()));
        await database.drop();
      }
    }
  });
});
