import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { config } from "../utils/env.server.ts";
import { acquireDataDirLock } from "./data-dir-lock.server.ts";
import * as schema from "./schema.ts";

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];
/** Either the database or an open transaction: data functions accept both. */
export type Executor = Database | Transaction;

export type DatabaseHandle = {
  db: Database;
  kind: "pglite" | "postgres";
  /** For logs: never contains a password. */
  description: string;
  ping(): Promise<boolean>;
  /** Calls `onNotify` for each NOTIFY on `channel`; resolves to a function that stops listening. */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
};

export type OpenOptions =
  | { kind: "postgres"; url: string; schema?: string; poolSize?: number }
  | {
      kind: "pglite";
      /** Folder for the data files; omit for an in-memory database (tests). */
      dataDir?: string;
      /** A migrated template (from `dumpDataDir`) to start from: fast test databases. */
      loadDataDir?: Blob;
      /** Who holds the data folder lock (shown to a second process). */
      lockOwner?: string;
    };

export function migrationsFolder() {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [path.resolve(here, "../../drizzle"), path.resolve(process.cwd(), "drizzle")];
  const found = candidates.find((candidate) => existsSync(path.join(candidate, "meta/_journal.json")));
  if (!found) throw new Error(`No migrations folder found (looked in ${candidates.join(", ")})`);
  return found;
}

function redact(url: string) {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = "***";
  return parsed.toString();
}

export async function openDatabase(options: OpenOptions): Promise<DatabaseHandle> {
  if (options.kind === "postgres") return openPostgres(options);
  return openPglite(options);
}

async function openPostgres(options: Extract<OpenOptions, { kind: "postgres" }>) {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? 10,
    options: options.schema ? `-c search_path=${options.schema}` : undefined,
  });
  // An idle client that loses its server must not crash the process.
  pool.on("error", (error) => console.error(`[db] idle client error: ${error.message}`));
  const db = drizzlePg(pool, { schema }) as unknown as Database;
  try {
    if (options.schema) await pool.query(`CREATE SCHEMA IF NOT EXISTS "${options.schema}"`);
    await migratePg(drizzlePg(pool), {
      migrationsFolder: migrationsFolder(),
      migrationsSchema: options.schema ?? "drizzle",
    });
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }
  return {
    db,
    kind: "postgres",
    description: `PostgreSQL ${redact(options.url)}${options.schema ? ` (schema ${options.schema})` : ""}`,
    async ping() {
      try {
        await pool.query("SELECT 1");
        return true;
      } catch {
        return false;
      }
    },
    async listen(channel, onNotify) {
      const client = await pool.connect();
      const handler = (message: pg.Notification) => {
        if (message.channel === channel) onNotify(message.payload ?? "");
      };
      client.on("notification", handler);
      await client.query(`LISTEN "${channel}"`);
      return async () => {
        client.off("notification", handler);
        await client.query(`UNLISTEN "${channel}"`).catch(() => {});
        client.release();
      };
    },
    async close() {
      await pool.end();
    },
  } satisfies DatabaseHandle;
}

async function openPglite(options: Extract<OpenOptions, { kind: "pglite" }>) {
  let releaseLock = () => {};
  let dataDir: string | undefined;
  if (options.dataDir) {
    releaseLock = await acquireDataDirLock(options.dataDir, options.lockOwner ?? "another process");
    dataDir = path.join(options.dataDir, "pglite");
    mkdirSync(dataDir, { recursive: true });
  }
  let client: PGlite;
  try {
    client = await PGlite.create({ dataDir, loadDataDir: options.loadDataDir });
    await migratePglite(drizzlePglite(client), { migrationsFolder: migrationsFolder() });
  } catch (error) {
    releaseLock();
    throw error;
  }
  const db = drizzlePglite(client, { schema }) as unknown as Database;
  return {
    db,
    kind: "pglite",
    description: dataDir ? `embedded PostgreSQL (PGlite) in ${dataDir}` : "embedded PostgreSQL (in memory)",
    async ping() {
      try {
        await client.query("SELECT 1");
        return true;
      } catch {
        return false;
      }
    },
    async listen(channel, onNotify) {
      const unlisten = await client.listen(channel, onNotify);
      return async () => unlisten();
    },
    async close() {
      try {
        if (!client.closed) await client.close();
      } finally {
        releaseLock();
      }
    },
  } satisfies DatabaseHandle;
}

/** Opens the database named by the configuration (DATABASE_URL, or PGlite in DATA_DIR). */
export function openConfiguredDatabase(lockOwner: string) {
  const { DATABASE_URL, dataDir } = config();
  return DATABASE_URL
    ? openDatabase({ kind: "postgres", url: DATABASE_URL })
    : openDatabase({ kind: "pglite", dataDir, lockOwner });
}

let current: Promise<DatabaseHandle> | undefined;

/** The process-wide database, opened (and migrated) on first use. */
export function getDatabaseHandle(): Promise<DatabaseHandle> {
  current ??= openConfiguredDatabase(`the Capital Grown server`).catch((error) => {
    current = undefined;
    throw error;
  });
  return current;
}

export async function db(): Promise<Database> {
  return (await getDatabaseHandle()).db;
}

/** Installs an already opened database as the process-wide one (tests, scripts). */
export function setDatabaseHandle(handle: DatabaseHandle) {
  current = Promise.resolve(handle);
}

export async function closeDatabase() {
  const handle = current;
  current = undefined;
  if (handle) await (await handle).close();
}
