import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import pg from "pg";
import { afterAll, beforeAll, describe, inject } from "vitest";
import { type DatabaseHandle, openDatabase, setDatabaseHandle } from "#app/db/client.server.ts";

export type TestDatabaseKind = "pglite" | "postgres";

/** The databases this run tests against: PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
export function testDatabaseKinds(): TestDatabaseKind[] {
  return process.env.TEST_DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];
}

/** A fresh, migrated database of its own: PGlite in memory, or a new schema on PostgreSQL. */
export async function openTestDatabase(kind: TestDatabaseKind): Promise<DatabaseHandle> {
  if (kind === "pglite") {
    const template = new Blob([readFileSync(inject("pgliteTemplatePath"))]);
    return openDatabase({ kind: "pglite", loadDataDir: template });
  }
  const url = process.env.TEST_DATABASE_URL as string;
  const schema = `test_${randomBytes(6).toString("hex")}`;
  const handle = await openDatabase({ kind: "postgres", url, schema, poolSize: 20 });
  return {
    ...handle,
    async close() {
      await handle.close();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    },
  };
}

/**
 * Runs the same suite once per database. Inside, `database()` is that suite's handle, and it is
 * also installed as the process-wide database so feature functions that call `db()` use it.
 */
export function describeEachDatabase(name: string, suite: (database: () => DatabaseHandle) => void) {
  for (const kind of testDatabaseKinds()) {
    describe(`${name} [${kind}]`, () => {
      let handle: DatabaseHandle | undefined;
      beforeAll(async () => {
        handle = await openTestDatabase(kind);
        setDatabaseHandle(handle);
      });
      afterAll(async () => {
        await handle?.close();
      });
      suite(() => {
        if (!handle) throw new Error("The test database is not open yet");
        return handle;
      });
    });
  }
}
