import { randomBytes } from "node:crypto";
import pg from "pg";

/** A new, empty database on the PostgreSQL server at `url`, for one server under test; dropped by `drop`. */
export async function createThrowawayDatabase(url: string, prefix: string) {
  const name = `${prefix}_${randomBytes(5).toString("hex")}`;
  const admin = new pg.Client({ connectionString: url, application_name: "cg-test-admin" });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const target = new URL(url);
  target.pathname = `/${name}`;
  return {
    name,
    url: target.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: url, application_name: "cg-test-admin" });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.end();
    },
  };
}
