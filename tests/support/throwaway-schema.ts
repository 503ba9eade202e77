import { randomBytes } from "node:crypto";
import pg from "pg";
import { type DatabaseHandle, openDatabase } from "#app/db/client.server.ts";

/**
 * A migrated database in a new schema of its own on the PostgreSQL at `url`, dropped when the handle
 * is closed: tests and benchmarks share one server without touching each other's rows.
 */
export async function openInThrowawaySchema(
  url: string,
  prefix: string,
  options: { poolSize?: number } = {},
): Promise<DatabaseHandle> {
  const schema = `${prefix}_${randomBytes(6).toString("hex")}`;
  const handle = await openDatabase({ kind: "postgres", url, schema, poolSize: options.poolSize });
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
