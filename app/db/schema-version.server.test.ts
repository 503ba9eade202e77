import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { describeEachDatabase } from "#tests/db.ts";
import { createThrowawayDatabase } from "#tests/support/throwaway-database.ts";
import { type Database, migrationsFolder, openDatabase } from "./client.server.ts";
import {
  applicationNameFor,
  buildSchemaVersion,
  compareSchemaVersions,
  databaseSchemaVersion,
  guardWritePathMigrations,
  OlderInstancesConnected,
  pendingWritePathMigrations,
  readJournal,
  versionOfApplicationName,
} from "./schema-version.server.ts";

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;

describe("schema versions", () => {
  it("compares a build's newest migration with the database's", () => {
    expect(compareSchemaVersions(100, 100)).toBe("current");
    expect(compareSchemaVersions(100, 101)).toBe("database newer");
    expect(compareSchemaVersions(100, 99)).toBe("database older");
    expect(compareSchemaVersions(100, null)).toBe("database older");
  });

  it("announces the build's version in the application name, and reads it back", () => {
    const build = buildSchemaVersion(migrationsFolder());
    const name = applicationNameFor(build);
    expect(name.length).toBeLessThanOrEqual(63);
    expect(name.startsWith(`capital-grown/${build.when}/`)).toBe(true);
    expect(versionOfApplicationName(name)).toBe(build.when);
    // Builds from before versions were announced connect as plain `capital-grown`: the oldest.
    expect(versionOfApplicationName("capital-grown")).toBe(0);
    expect(versionOfApplicationName("cg-test-helper")).toBeNull();
    expect(versionOfApplicationName("psql")).toBeNull();
  });

  it("knows the released migrations that changed a write path, and finds the marker in new ones", () => {
    const all = pendingWritePathMigrations(migrationsFolder(), null).map((entry) => entry.tag);
    expect(all).toEqual(["0003_abuse_limits_and_encryption", "0007_stock_ledger"]);
    const entries = readJournal(migrationsFolder());
    const after0007 = entries.find((entry) => entry.tag === "0007_stock_ledger")?.when as number;
    expect(pendingWritePathMigrations(migrationsFolder(), after0007)).toEqual([]);
    const folder = folderWithWritePathMigration();
    try {
      const build = buildSchemaVersion(migrationsFolder());
      expect(pendingWritePathMigrations(folder, build.when)).toEqual([
        { tag: "9999_new_write_path", when: build.when + 1_000, change: "orders are written the new way" },
      ]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describeEachDatabase("the database's schema version", (database) => {
  it("is the newest migration of this build once migrated", async () => {
    const { db, migrationsSchema } = database();
    expect(await databaseSchemaVersion(db, migrationsSchema)).toBe(
      buildSchemaVersion(migrationsFolder()).when,
    );
    expect(await databaseSchemaVersion(db, "no_such_schema")).toBeNull();
  });
});

/** The real migrations plus one newer, marked as changing a write path (a next version's). */
function folderWithWritePathMigration() {
  const folder = mkdtempSync(path.join(tmpdir(), "cg-migrations-"));
  cpSync(migrationsFolder(), folder, { recursive: true });
  const journalFile = path.join(folder, "meta/_journal.json");
  const journal = JSON.parse(readFileSync(journalFile, "utf8")) as {
    entries: { idx: number; version: string; when: number; tag: string; breakpoints: boolean }[];
  };
  const last = journal.entries.at(-1) as (typeof journal.entries)[number];
  journal.entries.push({ ...last, idx: last.idx + 1, when: last.when + 1_000, tag: "9999_new_write_path" });
  writeFileSync(journalFile, JSON.stringify(journal));
  writeFileSync(
    path.join(folder, "9999_new_write_path.sql"),
    "-- write-path: orders are written the new way\nSELECT 1;\n",
  );
  return folder;
}

describe.skipIf(!TEST_DATABASE_URL)("a migration that changes a write path [postgres]", () => {
  it("refuses to run while an older build is connected, names it, and runs once it is gone or when forced", async () => {
    const database = await createThrowawayDatabase(TEST_DATABASE_URL as string, "cg_upgrade");
    const folder = folderWithWritePathMigration();
    const clients: pg.Client[] = [];
    const connect = async (applicationName: string) => {
      const client = new pg.Client({ connectionString: database.url, application_name: applicationName });
      await client.connect();
      clients.push(client);
      return client;
    };
    try {
      // This build's migrations applied, as by a running instance of it.
      const current = await openDatabase({ kind: "postgres", url: database.url });
      await current.close();
      const build = buildSchemaVersion(migrationsFolder());
      const runner = drizzle(await connect("cg-test-runner")) as unknown as Database;
      const options = { migrationsFolder: folder, migrationsSchema: "drizzle", force: false };

      // Nothing of the shop connected: the next version migrates.
      expect(await guardWritePathMigrations(runner, options)).toEqual({ forced: [] });
      // An instance of the next version itself is not older.
      await connect(applicationNameFor({ ...build, when: build.when + 1_000, tag: "9999_new_write_path" }));
      expect(await guardWritePathMigrations(runner, options)).toEqual({ forced: [] });

      // This build (older than the next version) and a build from before versions were announced.
      const thisBuild = await connect(applicationNameFor(build));
      const legacy = await connect("capital-grown");
      const refusal = await guardWritePathMigrations(runner, options).catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(OlderInstancesConnected);
      const message = (refusal as Error).message;
      expect(message).toContain("migration 9999_new_write_path changes how the shop writes");
      expect(message).toContain("orders are written the new way");
      expect(message).toContain(`1 from ${applicationNameFor(build)}`);
      expect(message).toContain("1 from capital-grown at ");
      expect(message).toContain("MIGRATE_WITH_OLDER_INSTANCES=true");

      const forced = await guardWritePathMigrations(runner, { ...options, force: true });
      expect(forced.forced.map((row) => row.applicationName).sort()).toEqual(
        [applicationNameFor(build), "capital-grown"].sort(),
      );

      await thisBuild.end();
      await legacy.end();
      await waitUntil(async () => (await guardWritePathMigrations(runner, options)).forced.length === 0);
      // A database on which this build's migrations were never run is a first start: no refusal.
      expect(
        await guardWritePathMigrations(runner, { ...options, migrationsSchema: "no_migrations_here" }),
      ).toEqual({ forced: [] });
    } finally {
      await Promise.allSettled(clients.map((client) => client.end()));
      rmSync(folder, { recursive: true, force: true });
      await database.drop();
    }
  });
});

describe.skipIf(!TEST_DATABASE_URL)("an upgrade from before the stock ledger [postgres]", () => {
  it("does not start while an instance of the old version is connected, and upgrades once it is gone", async () => {
    const database = await createThrowawayDatabase(TEST_DATABASE_URL as string, "cg_upgrade");
    const folder = mkdtempSync(path.join(tmpdir(), "cg-migrations-"));
    let old: pg.Client | undefined;
    try {
      // The database as a release before the ledger left it: migrations up to 0006.
      cpSync(migrationsFolder(), folder, { recursive: true });
      const journalFile = path.join(folder, "meta/_journal.json");
      const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: { tag: string }[] };
      journal.entries = journal.entries.slice(
        0,
        journal.entries.findIndex((entry) => entry.tag === "0007_stock_ledger"),
      );
      writeFileSync(journalFile, JSON.stringify(journal));
      const setup = new pg.Client({ connectionString: database.url, application_name: "cg-test-setup" });
      await setup.connect();
      await migrate(drizzle(setup), { migrationsFolder: folder, migrationsSchema: "drizzle" });
      await setup.end();
      // That release's instance, still running: it connects as plain capital-grown.
      old = new pg.Client({ connectionString: database.url, application_name: "capital-grown" });
      await old.connect();

      const refusal = await openDatabase({ kind: "postgres", url: database.url }).catch(
        (error: unknown) => error,
      );
      expect(refusal).toBeInstanceOf(OlderInstancesConnected);
      expect((refusal as OlderInstancesConnected).refusesStart).toBe(true);
      expect((refusal as Error).message).toMatch(
        /^migration 0007_stock_ledger changes how the shop writes \(every stock change is written to the stock ledger\), and instances of an older version are still connected \(1 from capital-grown at [^)]+\)\. Stop them first/,
      );

      await old.end();
      old = undefined;
      let upgraded: Awaited<ReturnType<typeof openDatabase>> | undefined;
      for (let attempt = 0; !upgraded && attempt < 50; attempt++) {
        upgraded = await openDatabase({ kind: "postgres", url: database.url }).catch(
          async (error: unknown) => {
            if (!(error instanceof OlderInstancesConnected)) throw error;
            await new Promise((resolve) => setTimeout(resolve, 100));
            return undefined;
          },
        );
      }
      if (!upgraded) throw new Error("still refused after the old instance left");
      try {
        expect(await databaseSchemaVersion(upgraded.db, "drizzle")).toBe(
          buildSchemaVersion(migrationsFolder()).when,
        );
      } finally {
        await upgraded.close();
      }
    } finally {
      await old?.end().catch(() => {});
      rmSync(folder, { recursive: true, force: true });
      await database.drop();
    }
  });
});

/** pg_stat_activity lists a closed connection until its backend has exited. */
async function waitUntil(check: () => Promise<boolean>) {
  for (let attempt = 0; attempt < 50; attempt++) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("condition not met within 5 s");
}
