/**
 * Rolling upgrades (docs/decisions/038-rolling-upgrades.md). A build's schema version is the newest
 * migration it carries (the `when` of the last entry of drizzle/meta/_journal.json, which Drizzle's
 * migrator records as `created_at` of each applied migration); the database's schema version is the
 * newest migration applied to it. An instance whose build is older than its database refuses writes
 * and says so on /readyz; a migration that changes how the shop writes (marked in its SQL with a
 * first line `-- write-path: <what changes>`) refuses to run while connections of older builds are
 * open, unless MIGRATE_WITH_OLDER_INSTANCES=true.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { Executor } from "./client.server.ts";
import { rowsOf } from "./rows.ts";

export type JournalEntry = { idx: number; when: number; tag: string };

/** The migrations a folder holds, oldest first. */
export function readJournal(migrationsFolder: string): JournalEntry[] {
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder, "meta/_journal.json"), "utf8")) as {
    entries: JournalEntry[];
  };
  return journal.entries.map(({ idx, when, tag }) => ({ idx, when, tag }));
}

/** This build's schema version: its newest migration. */
export function buildSchemaVersion(migrationsFolder: string): JournalEntry {
  const entries = readJournal(migrationsFolder);
  const last = entries.at(-1);
  if (!last) throw new Error(`${migrationsFolder} holds no migrations`);
  return last;
}

export type SchemaComparison = "current" | "database newer" | "database older";

/** `database`: the newest applied migration's `when`, null for a database with none applied. */
export function compareSchemaVersions(build: number, database: number | null): SchemaComparison {
  if (database === null || database < build) return "database older";
  return database > build ? "database newer" : "current";
}

/** What an instance whose build is older than its database says on /readyz and in its 503s. */
export function schemaNewerMessage(build: JournalEntry) {
  return `The database's schema is newer than this build (which knows migrations up to ${build.tag}): a newer version of the shop has upgraded it. This instance takes no more writes: stop it and start the new version in its place.`;
}

/** Every app connection says which build opened it (pg_stat_activity.application_name, 63 bytes at most). */
const APPLICATION_NAME = "capital-grown";
export function applicationNameFor(build: JournalEntry) {
  return `${APPLICATION_NAME}/${build.when}/${build.tag}`.slice(0, 63);
}

/**
 * The schema version a connection's application_name announces: 0 for builds from before versions
 * were announced (plain `capital-grown`), null for connections that are not the shop's.
 */
export function versionOfApplicationName(name: string): number | null {
  if (name === APPLICATION_NAME) return 0;
  const match = /^capital-grown\/(\d+)(\/|$)/.exec(name);
  return match ? Number(match[1]) : null;
}

/** The newest applied migration's `when`, or null when the migrations table is missing or empty. */
export async function databaseSchemaVersion(
  executor: Executor,
  migrationsSchema: string,
): Promise<number | null> {
  const table = sql.identifier(migrationsSchema);
  const exists = rowsOf<{ found: boolean }>(
    await executor.execute(
      sql`SELECT to_regclass(${`"${migrationsSchema}".__drizzle_migrations`}) IS NOT NULL AS found`,
    ),
  );
  if (!exists[0]?.found) return null;
  const rows = rowsOf<{ newest: string | number | null }>(
    await executor.execute(sql`SELECT max(created_at) AS newest FROM ${table}.__drizzle_migrations`),
  );
  const newest = rows[0]?.newest;
  return newest === null || newest === undefined ? null : Number(newest);
}

const WRITE_PATH_MARKER = /^--\s*write-path:\s*(.+)$/m;

/**
 * Migrations from before the `-- write-path:` marker that changed how the shop writes (their files
 * are released and stay as they are).
 */
const EARLIER_WRITE_PATHS: Record<string, string> = {
  "0003_abuse_limits_and_encryption": "ID photos are stored encrypted",
  "0007_stock_ledger": "every stock change is written to the stock ledger",
};

export type WritePathMigration = { tag: string; when: number; change: string };

/** Migrations not yet applied (newer than `database`) that change a write path. */
export function pendingWritePathMigrations(
  migrationsFolder: string,
  database: number | null,
): WritePathMigration[] {
  return readJournal(migrationsFolder)
    .filter((entry) => database === null || entry.when > database)
    .flatMap((entry) => {
      const file = path.join(migrationsFolder, `${entry.tag}.sql`);
      const marked = existsSync(file)
        ? WRITE_PATH_MARKER.exec(readFileSync(file, "utf8").slice(0, 2_000))
        : null;
      const change = marked?.[1]?.trim() ?? EARLIER_WRITE_PATHS[entry.tag];
      return change ? [{ tag: entry.tag, when: entry.when, change }] : [];
    });
}

export type OlderConnection = { applicationName: string; clientAddress: string | null; connections: number };

/** Open connections (other than this session's) of shop builds older than `version`. */
export async function olderConnections(executor: Executor, version: number): Promise<OlderConnection[]> {
  const rows = rowsOf<{ application_name: string; client_addr: string | null; connections: number }>(
    await executor.execute(sql`
      SELECT application_name, client_addr::text AS client_addr, count(*)::int AS connections
      FROM pg_stat_activity
      WHERE datname = current_database() AND pid <> pg_backend_pid() AND application_name LIKE 'capital-grown%'
      GROUP BY 1, 2 ORDER BY 1, 2`),
  );
  return rows
    .filter((row) => {
      const announced = versionOfApplicationName(row.application_name);
      return announced !== null && announced < version;
    })
    .map((row) => ({
      applicationName: row.application_name,
      clientAddress: row.client_addr,
      connections: Number(row.connections),
    }));
}

/** Thrown by the migrator's guard: the server prints it and does not start. */
export class OlderInstancesConnected extends Error {
  readonly refusesStart = true;
}

/**
 * Before migrating: refuses (OlderInstancesConnected) when a pending migration changes a write path
 * while connections of older builds are open. A database with no migration applied is a first
 * start: nothing can be writing to it yet.
 */
export async function guardWritePathMigrations(
  executor: Executor,
  options: { migrationsFolder: string; migrationsSchema: string; force: boolean },
): Promise<{ forced: OlderConnection[] }> {
  const database = await databaseSchemaVersion(executor, options.migrationsSchema);
  if (database === null) return { forced: [] };
  const pending = pendingWritePathMigrations(options.migrationsFolder, database);
  const first = pending[0];
  if (!first) return { forced: [] };
  const older = await olderConnections(executor, first.when);
  if (older.length === 0) return { forced: [] };
  if (options.force) return { forced: older };
  const who = older
    .map(
      (row) =>
        `${row.connections} from ${row.applicationName}${row.clientAddress ? ` at ${row.clientAddress}` : ""}`,
    )
    .join(", ");
  throw new OlderInstancesConnected(
    `migration ${first.tag} changes how the shop writes (${first.change}), and instances of an older version are still connected (${who}). Stop them first, then start this version again; or set MIGRATE_WITH_OLDER_INSTANCES=true to migrate anyway (their writes would then use the old way).`,
  );
}
