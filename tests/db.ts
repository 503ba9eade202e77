import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, inject } from "vitest";
import { type DatabaseHandle, openDatabase, setDatabaseHandle } from "#app/db/client.server.ts";
import {
  generateIdPhotoKey,
  IdPhotoKeyring,
  setIdPhotoKeyring,
} from "#app/features/keyring/id-photo-crypto.server.ts";
import { openInThrowawaySchema } from "./support/throwaway-schema.ts";

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
  return openInThrowawaySchema(process.env.TEST_DATABASE_URL as string, "test", { poolSize: 20 });
}

/**
 * Runs the same suite once per database. Inside, `database()` is that suite's handle, and it is
 * also installed as the process-wide database so feature functions that call `db()` use it, with
 * a fresh ID photo key (as boot would load).
 */
export function describeEachDatabase(name: string, suite: (database: () => DatabaseHandle) => void) {
  for (const kind of testDatabaseKinds()) {
    describe(`${name} [${kind}]`, () => {
      let handle: DatabaseHandle | undefined;
      beforeAll(async () => {
        handle = await openTestDatabase(kind);
        setDatabaseHandle(handle);
        setIdPhotoKeyring(new IdPhotoKeyring(generateIdPhotoKey()));
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
